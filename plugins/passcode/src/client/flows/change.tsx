/** The reset and change flows (spec 3 §4.4). */
import { useEffect, useRef, useState } from "react"
import { Button, useSnackbar } from "@wallet/kernel-react/ui"
import type { PasscodeType, Product } from "../../api.ts"
import { changeWithHooks, resetLosesSealed } from "../rekey.ts"
import type { PasscodeInfo, PasscodeSession } from "../runtime.ts"
import { EmailCodeStep, Icons } from "../ui.tsx"
import styles from "../passcode.module.css"
import { Done, NewPasscodeSteps } from "./steps.tsx"
import { Loading } from "./email.tsx"
import { CheckPasscode } from "./check.tsx"

/** Reset: an email code (reason change-passcode) first, then a new passcode. */
export function ResetFlow({
  session,
  product,
  type,
  onDone,
}: {
  session: PasscodeSession
  product: Product
  type: PasscodeType
  onDone: (passcode: string) => void
}) {
  const { t } = session
  const snackbar = useSnackbar()
  const [emailCode, setEmailCode] = useState<string>()
  const [newType, setNewType] = useState(type)
  const [done, setDone] = useState<string>()
  // Something sealed under the old passcode (the TON space's words) cannot be carried over: say so first (decision 0530).
  const hooks = session.kernel.composition.hooks.beforePasscodeChange
  const [sealed, setSealed] = useState<boolean | undefined>(hooks.length === 0 ? false : undefined)
  const [acknowledged, setAcknowledged] = useState(false)
  useEffect(() => {
    if (hooks.length === 0) return
    let alive = true
    void resetLosesSealed(hooks, session.kernel).then((value) => alive && setSealed(value))
    return () => {
      alive = false
    }
  }, [hooks, session])
  if (done !== undefined) return <Done session={session} title={t("reset.doneTitle")} text={t("reset.doneText")} onDone={() => onDone(done)} />
  if (sealed === undefined) return <Loading label={t("loading")} />
  if (sealed && !acknowledged) {
    return (
      <section className={styles.screen} aria-labelledby="passcode-reset-sealed">
        <div className={styles.icon} aria-hidden="true">
          <Icons.lock />
        </div>
        <h2 className={styles.title} id="passcode-reset-sealed">
          {t("rekey.resetTitle")}
        </h2>
        <p className={styles.text} role="note">
          {t("rekey.resetText")}
        </p>
        <div className={styles.actions}>
          <Button stretched onClick={() => setAcknowledged(true)} autoFocus>
            {t("continue")}
          </Button>
        </div>
      </section>
    )
  }
  if (emailCode === undefined) {
    return (
      <EmailCodeStep
        session={session}
        title={t("reset.codeTitle")}
        request={() => session.call((c) => c.recoveryEmail.requestEmailCode({ payload: { product, reason: "change-passcode", language: session.language() } }))}
        submit={async (code) => {
          const checked = await session.call((c) => c.recoveryEmail.checkEmailCode({ payload: { emailCode: code, reason: "change-passcode", product } }))
          return checked.ok ? undefined : checked.code
        }}
        onDone={setEmailCode}
      />
    )
  }
  return (
    <NewPasscodeSteps
      session={session}
      type={newType}
      onTypeChange={setNewType}
      titles={{ set: t("reset.setTitle"), confirm: t("create.confirmTitle") }}
      onConfirmed={async (value) => {
        const updated = await session.call((c, deviceSerial) =>
          c.passcode.update({
            headers: { "x-wallet-device-serial": deviceSerial },
            payload: { emailCode, newPasscode: value, newPasscodeType: newType, deviceSerial, product },
          }),
        )
        if (!updated.ok) {
          snackbar.show({ id: "passcode-reset", text: t(updated.code.includes("code") ? `errors.${updated.code}` : "errors.technical_issue") })
          return false
        }
        session.markVerified(value, updated.value.unlockDuration)
        setDone(value)
        return true
      }}
    />
  )
}

/** Change: the current passcode, then set new, confirm, save. */
export function ChangeFlow({ session, info, onDone, onForgot }: { session: PasscodeSession; info: PasscodeInfo; onDone: () => void; onForgot: () => void }) {
  const { t } = session
  const snackbar = useSnackbar()
  const [current, setCurrent] = useState<string>()
  const [type, setType] = useState<PasscodeType>(info.passcodeType ?? "4-digit")
  const [done, setDone] = useState(false)
  const rekeyed = useRef(new Set<string>())
  if (done) return <Done session={session} title={t("change.doneTitle")} text={t("change.doneText")} onDone={onDone} />
  if (current === undefined) {
    return (
      <CheckPasscode
        session={session}
        info={info}
        title={t("change.currentTitle")}
        onVerified={(proof) => proof.kind === "passcode" && setCurrent(proof.passcode)}
        onForgot={onForgot}
      />
    )
  }
  return (
    <NewPasscodeSteps
      session={session}
      type={type}
      onTypeChange={setType}
      titles={{ set: t("change.setTitle"), confirm: t("create.confirmTitle") }}
      onConfirmed={async (value) => {
        // Plugins re-seal under the new passcode first, while the server still accepts the current one (decision 0530).
        const updated = await changeWithHooks({
          hooks: session.kernel.composition.hooks.beforePasscodeChange,
          host: session.kernel,
          current,
          next: value,
          ran: rekeyed.current,
          update: () =>
            session.call((c, deviceSerial) =>
              c.passcode.update({
                headers: { "x-wallet-device-serial": deviceSerial },
                payload: { passcode: current, newPasscode: value, newPasscodeType: type, deviceSerial },
              }),
            ),
        })
        if (!updated.ok) {
          snackbar.show({ id: "passcode-change", text: t("errors.technical_issue") })
          return false
        }
        session.markVerified(value, updated.value.unlockDuration)
        setDone(true)
        return true
      }}
    />
  )
}
