/** Checking the passcode (or biometry) before a protected operation. */
import { useEffect, useState } from "react"
import { serverBiometryToken } from "@wallet/kernel"
import { passcodeLength } from "../../api.ts"
import { normaliseCode, showRemainingAttempts } from "../rules.ts"
import type { PasscodeInfo, PasscodeSession } from "../runtime.ts"
import { Icons, PasscodeEntry } from "../ui.tsx"
import styles from "../passcode.module.css"

export type VerifiedProof = { readonly kind: "passcode"; readonly passcode: string } | { readonly kind: "biometry"; readonly biometryToken: string }

/**
 * The passcode screen: dots, number pad (touch) or keyboard, remaining attempts below 4, biometry
 * key when enabled, forgot link; at 0 attempts a popup offers cancel or reset.
 */
export function CheckPasscode({
  session,
  info,
  title,
  passcodeOnly,
  onVerified,
  onForgot,
  onCancel,
}: {
  session: PasscodeSession
  info: PasscodeInfo
  title?: string
  /** Only the passcode counts here (needCredential "passcode"): no biometry key. */
  passcodeOnly?: boolean
  onVerified: (proof: VerifiedProof) => void
  onForgot: () => void
  onCancel?: () => void
}) {
  const { t, kernel } = session
  const [remaining, setRemaining] = useState<number | undefined>(info.remainingAttempts)
  const [error, setError] = useState<string>()
  const [biometryOn, setBiometryOn] = useState(false)
  useEffect(() => {
    if (!info.deviceBiometrySet || passcodeOnly) return
    void session.biometry.available().then((b) => setBiometryOn(b.available))
  }, [info, session, passcodeOnly])

  const lockedOut = async () => {
    setRemaining(0)
    const choice = await kernel.telegram.popup({
      title: t("locked.title"),
      message: t("errors.passcode_exceeded_max_attempts"),
      buttons: [
        { id: "cancel", type: "cancel", text: t("popup.cancel") },
        { id: "reset", type: "default", text: t("popup.reset") },
      ],
    })
    if (choice === "reset") onForgot()
    else onCancel?.()
  }
  const useBiometry = async () => {
    const token = await session.biometry.token()
    if (!token) return setError(t("errors.biometry_not_granted"))
    // A key vault token keeps its secret on the device (decision 0520).
    const checked = await session.call((c, deviceSerial) => c.passcode.verify({ payload: { biometryToken: serverBiometryToken(token), deviceSerial } }))
    if (checked.ok) {
      session.markVerified(undefined, checked.value.unlockDuration)
      onVerified({ kind: "biometry", biometryToken: token })
    } else setError(t("errors.biometry_not_updated"))
  }
  useEffect(() => {
    if (info.remainingAttempts === 0) void lockedOut()
    // Only on open.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return (
    <PasscodeEntry
      session={session}
      title={title ?? t("verify.title")}
      length={passcodeLength(info.passcodeType ?? "4-digit")}
      onComplete={async (value) => {
        const checked = await session.call((c, deviceSerial) => c.passcode.verify({ payload: { passcode: value, deviceSerial } }))
        if (checked.ok) {
          session.markVerified(value, checked.value.unlockDuration)
          setError(undefined)
          onVerified({ kind: "passcode", passcode: value })
          return true
        }
        const failure = checked.error as { remainingAttempts?: number }
        const code = normaliseCode(checked.code)
        if (code === "passcode_exceeded_max_attempts" || (code === "passcode_wrong" && failure.remainingAttempts === 0)) {
          setError(t("errors.passcode_wrong"))
          void lockedOut()
          return false
        }
        if (code === "passcode_wrong") {
          setRemaining(failure.remainingAttempts)
          setError(t("errors.passcode_wrong"))
        } else setError(t("errors.technical_issue"))
        return false
      }}
      extraKey={biometryOn ? { label: t("verify.useBiometry"), text: <Icons.face />, onPress: () => void useBiometry() } : undefined}
      below={
        <>
          <p className={styles.error} role="alert">
            {error ?? ""}
          </p>
          <p className={styles.hint} aria-live="polite">
            {showRemainingAttempts(remaining) ? t("errors.remainingAttempts", { count: remaining }) : ""}
          </p>
          <button type="button" className={styles.linkButton} onClick={onForgot}>
            {t("verify.forgot")}
          </button>
        </>
      }
    />
  )
}
