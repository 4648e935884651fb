/** Steps the passcode flows share: set and confirm a new passcode, the biometry offer, done. */
import { useEffect, useState } from "react"
import { Button } from "@wallet/kernel-react/ui"
import { passcodeLength, type PasscodeType } from "../../api.ts"
import { isWeakPasscode, WEAK_POPUP_DELAY_MS } from "../rules.ts"
import type { BiometryOutcome, PasscodeSession } from "../runtime.ts"
import { Icons, PasscodeEntry } from "../ui.tsx"
import styles from "../passcode.module.css"

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Set a new passcode, then confirm it (mismatch shakes and clears); weak ones ask "use anyway" / "change". */
export function NewPasscodeSteps({
  session,
  type,
  onTypeChange,
  titles,
  onConfirmed,
}: {
  session: PasscodeSession
  type: PasscodeType
  onTypeChange?: (type: PasscodeType) => void
  titles: { set: string; confirm: string }
  /** Resolves false when saving failed (the confirm entry shakes). */
  onConfirmed: (passcode: string) => Promise<boolean>
}) {
  const { t, kernel } = session
  const [first, setFirst] = useState<string>()
  if (first === undefined) {
    return (
      <PasscodeEntry
        key={`set-${type}`}
        session={session}
        title={titles.set}
        description={t("create.setText", { count: passcodeLength(type) })}
        length={passcodeLength(type)}
        onComplete={async (value) => {
          if (isWeakPasscode(value)) {
            await sleep(WEAK_POPUP_DELAY_MS)
            const choice = await kernel.telegram.popup({
              title: t("weak.title"),
              message: t("weak.text"),
              buttons: [
                { id: "use", type: "default", text: t("popup.useAnyway") },
                { id: "change", type: "default", text: t("popup.change") },
              ],
            })
            if (choice !== "use") return false
          }
          setFirst(value)
          return true
        }}
        below={
          onTypeChange && (
            <button type="button" className={styles.linkButton} onClick={() => onTypeChange(type === "4-digit" ? "6-digit" : "4-digit")}>
              {t(type === "4-digit" ? "create.use6" : "create.use4")}
            </button>
          )
        }
      />
    )
  }
  return (
    <PasscodeEntry
      key="confirm"
      session={session}
      title={titles.confirm}
      description={t("create.confirmText")}
      length={passcodeLength(type)}
      onComplete={async (value) => (value === first ? onConfirmed(value) : false)}
      below={
        <button type="button" className={styles.linkButton} onClick={() => setFirst(undefined)}>
          {t("create.startOver")}
        </button>
      }
    />
  )
}

export function Done({ session, title, text, onDone }: { session: PasscodeSession; title: string; text: string; onDone: () => void }) {
  useEffect(() => session.kernel.telegram.haptic({ type: "notification", kind: "success" }), [session])
  return (
    <section className={styles.screen}>
      <div className={styles.icon} aria-hidden="true">
        <Icons.check />
      </div>
      <h2 className={styles.title}>{title}</h2>
      <p className={styles.text}>{text}</p>
      <div className={styles.actions}>
        <Button stretched onClick={onDone} autoFocus>
          {session.t("done")}
        </Button>
      </div>
    </section>
  )
}

/** Offer biometry after a passcode is set (only when available and not enabled). */
export function BiometryOffer({
  session,
  passcode,
  onNext,
}: {
  session: PasscodeSession
  passcode: string
  onNext: (outcome: BiometryOutcome | "skipped") => void
}) {
  const { t } = session
  const [busy, setBusy] = useState(false)
  return (
    <section className={styles.screen}>
      <div className={styles.icon} aria-hidden="true">
        <Icons.face />
      </div>
      <h2 className={styles.title}>{t("biometry.offerTitle")}</h2>
      <p className={styles.text}>{t("biometry.offerText")}</p>
      <div className={styles.actions}>
        <Button
          stretched
          loading={busy}
          onClick={() => {
            setBusy(true)
            void session.biometry.enable(passcode).then(onNext)
          }}
        >
          {t("biometry.enable")}
        </Button>
        <Button stretched look="plain" disabled={busy} onClick={() => onNext("skipped")}>
          {t("biometry.notNow")}
        </Button>
      </div>
    </section>
  )
}

export const biometrySnackbar = (session: PasscodeSession, outcome: BiometryOutcome | "skipped"): string | undefined =>
  outcome === "success"
    ? session.t("biometry.enabled")
    : outcome === "failure"
      ? session.t("errors.biometry_not_available")
      : outcome === "rejected"
        ? session.t("errors.biometry_not_granted")
        : undefined
