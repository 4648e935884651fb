/** The passcode flows (spec 3 §4.3, §4.4): create, verify, change, reset, recovery email, email challenge. */
import { useEffect, useRef, useState } from "react"
import { serverBiometryToken } from "@wallet/kernel"
import { Button, Spinner, useSnackbar } from "@wallet/kernel-react/ui"
import { passcodeLength, type PasscodeType, type Product } from "../api.ts"
import { isWeakPasscode, normaliseCode, showRemainingAttempts, WEAK_POPUP_DELAY_MS } from "./rules.ts"
import { changeWithHooks, resetLosesSealed } from "./rekey.ts"
import type { BiometryOutcome, PasscodeInfo, PasscodeSession } from "./runtime.ts"
import { EmailAddressStep, EmailCodeStep, Icons, PasscodeEntry } from "./ui.tsx"
import styles from "./passcode.module.css"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Set a new passcode, then confirm it (mismatch shakes and clears); weak ones ask "use anyway" / "change". */
function NewPasscodeSteps({ session, type, onTypeChange, titles, onConfirmed }: {
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
              buttons: [{ id: "use", type: "default", text: t("popup.useAnyway") }, { id: "change", type: "default", text: t("popup.change") }],
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

function Done({ session, title, text, onDone }: { session: PasscodeSession; title: string; text: string; onDone: () => void }) {
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
function BiometryOffer({ session, passcode, onNext }: { session: PasscodeSession; passcode: string; onNext: (outcome: BiometryOutcome | "skipped") => void }) {
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

const biometrySnackbar = (session: PasscodeSession, outcome: BiometryOutcome | "skipped"): string | undefined =>
  outcome === "success" ? session.t("biometry.enabled") : outcome === "failure" ? session.t("errors.biometry_not_available") : outcome === "rejected" ? session.t("errors.biometry_not_granted") : undefined

/**
 * Creation: intro, set, confirm, biometry offer (only if available and not enabled), done.
 * source_email_missing opens the create-recovery-email flow and creates with the confirmed address;
 * email_code_required (a recovery email is on file, decision 0540) asks the code sent to it.
 */
export function CreateFlow({ session, product, email, skipIntro, onDone }: {
  session: PasscodeSession
  product: Product
  email?: string
  skipIntro?: boolean
  onDone: (passcode: string) => void
}) {
  const { t } = session
  const snackbar = useSnackbar()
  const [step, setStep] = useState<"intro" | "set" | "email" | "code" | "existingCode" | "biometry" | "done">(skipIntro ? "set" : "intro")
  // The recovery email on file that must confirm the passcode (from email_code_required).
  const [guard, setGuard] = useState<{ readonly product: Product }>({ product })
  const [type, setType] = useState<PasscodeType>("4-digit")
  const [passcode, setPasscode] = useState("")
  const [address, setAddress] = useState(email ?? "")

  const create = async (value: string, extra: { email?: string; emailCode?: string; product?: Product } = {}) => {
    const created = await session.call((c, deviceSerial) =>
      c.passcode.create({
        payload: {
          newPasscode: value,
          newPasscodeType: type,
          deviceSerial,
          product: extra.product ?? product,
          ...(extra.email && extra.emailCode
            ? { email: extra.email, emailCode: extra.emailCode, emailSource: "new" as const }
            : extra.emailCode
              ? { emailCode: extra.emailCode, emailSource: "existing" as const }
              : {}),
        },
      }),
    )
    if (created.ok) {
      session.markVerified(value, created.value.unlockDuration)
      const biometry = await session.biometry.available()
      setStep(biometry.available && !created.value.deviceBiometrySet ? "biometry" : "done")
      return { ok: true as const }
    }
    return { ok: false as const, code: created.code, error: created.error }
  }

  switch (step) {
    case "intro":
      return (
        <section className={styles.screen}>
          <div className={styles.icon} aria-hidden="true">
            <Icons.shield />
          </div>
          <h2 className={styles.title}>{t("create.introTitle")}</h2>
          <p className={styles.text}>{t("create.introText")}</p>
          <div className={styles.actions}>
            <Button stretched onClick={() => setStep("set")} autoFocus>
              {t("create.start")}
            </Button>
          </div>
        </section>
      )
    case "set":
      return (
        <NewPasscodeSteps
          session={session}
          type={type}
          onTypeChange={setType}
          titles={{ set: t("create.setTitle"), confirm: t("create.confirmTitle") }}
          onConfirmed={async (value) => {
            setPasscode(value)
            const result = await create(value)
            if (result.ok) return true
            if (result.code === "source_email_missing") {
              setStep("email")
              return true
            }
            if (result.code === "email_code_required") {
              const named = (result.error as { product?: Product } | undefined)?.product
              setGuard({ product: named ?? product })
              setStep("existingCode")
              return true
            }
            snackbar.show({ id: "passcode-create", text: t(`errors.${result.code === "passcode_already_set" ? "passcode_already_set" : "technical_issue"}`) })
            return false
          }}
        />
      )
    case "email":
      return (
        <EmailAddressStep
          session={session}
          initial={address}
          onSubmit={async (value) => {
            setAddress(value)
            setStep("code")
          }}
        />
      )
    case "code":
      return (
        <EmailCodeStep
          session={session}
          title={t("code.title")}
          request={() => session.call((c) => c.recoveryEmail.requestEmailCode({ payload: { product, reason: "confirm-email", language: session.language(), email: address } }))}
          submit={async (emailCode) => {
            const result = await create(passcode, { email: address, emailCode })
            return result.ok ? undefined : result.code
          }}
          onDone={() => undefined}
        />
      )
    case "existingCode":
      return (
        <EmailCodeStep
          session={session}
          title={t("code.title")}
          request={() => session.call((c) => c.recoveryEmail.requestEmailCode({ payload: { product: guard.product, reason: "change-passcode", language: session.language() } }))}
          submit={async (emailCode) => {
            const result = await create(passcode, { emailCode, product: guard.product })
            return result.ok ? undefined : result.code
          }}
          onDone={() => undefined}
        />
      )
    case "biometry":
      return (
        <BiometryOffer
          session={session}
          passcode={passcode}
          onNext={(outcome) => {
            const text = biometrySnackbar(session, outcome)
            if (text) snackbar.show({ id: "passcode-biometry", text })
            setStep("done")
          }}
        />
      )
    case "done":
      return <Done session={session} title={t("create.doneTitle")} text={t("create.doneText")} onDone={() => onDone(passcode)} />
  }
}

/** Reset: an email code (reason change-passcode) first, then a new passcode. */
export function ResetFlow({ session, product, type, onDone }: { session: PasscodeSession; product: Product; type: PasscodeType; onDone: (passcode: string) => void }) {
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
        <h2 className={styles.title} id="passcode-reset-sealed">{t("rekey.resetTitle")}</h2>
        <p className={styles.text} role="note">{t("rekey.resetText")}</p>
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
          c.passcode.update({ headers: { "x-wallet-device-serial": deviceSerial }, payload: { emailCode, newPasscode: value, newPasscodeType: newType, deviceSerial, product } }),
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
            session.call((c, deviceSerial) => c.passcode.update({ headers: { "x-wallet-device-serial": deviceSerial }, payload: { passcode: current, newPasscode: value, newPasscodeType: type, deviceSerial } })),
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

export type VerifiedProof = { readonly kind: "passcode"; readonly passcode: string } | { readonly kind: "biometry"; readonly biometryToken: string }

/**
 * The passcode screen: dots, number pad (touch) or keyboard, remaining attempts below 4, biometry
 * key when enabled, forgot link; at 0 attempts a popup offers cancel or reset.
 */
export function CheckPasscode({ session, info, title, passcodeOnly, onVerified, onForgot, onCancel }: {
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
      buttons: [{ id: "cancel", type: "cancel", text: t("popup.cancel") }, { id: "reset", type: "default", text: t("popup.reset") }],
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

/** Recovery email: create (address, code) or change (code to the current address, new address, code). */
export function RecoveryEmailFlow({ session, product, current, onDone }: { session: PasscodeSession; product: Product; current: string | null; onDone: () => void }) {
  const { t } = session
  const [currentCode, setCurrentCode] = useState<string>()
  const [address, setAddress] = useState<string>()
  const [done, setDone] = useState(false)
  if (done) return <Done session={session} title={t("email.doneTitle")} text={t("email.doneText", { email: address ?? "" })} onDone={onDone} />
  if (current !== null && currentCode === undefined) {
    return (
      <EmailCodeStep
        session={session}
        title={t("email.currentCodeTitle")}
        request={() => session.call((c) => c.recoveryEmail.requestEmailCode({ payload: { product, reason: "change-email", language: session.language() } }))}
        submit={async (code) => {
          const checked = await session.call((c) => c.recoveryEmail.checkEmailCode({ payload: { emailCode: code, reason: "change-email", product } }))
          return checked.ok ? undefined : checked.code
        }}
        onDone={setCurrentCode}
      />
    )
  }
  if (address === undefined) return <EmailAddressStep session={session} onSubmit={async (value) => setAddress(value)} />
  return (
    <EmailCodeStep
      session={session}
      title={t("code.title")}
      request={() => session.call((c) => c.recoveryEmail.requestEmailCode({ payload: { product, reason: "confirm-email", language: session.language(), email: address } }))}
      submit={async (emailCode) => {
        const saved = await session.call((c, deviceSerial) =>
          currentCode === undefined
            ? c.recoveryEmail.create({ payload: { email: address, emailCode, product, deviceSerial } })
            : c.recoveryEmail.change({ payload: { currentEmailCode: currentCode, email: address, emailCode, product } }),
        )
        return saved.ok ? undefined : saved.code
      }}
      onDone={() => setDone(true)}
    />
  )
}

/** The email-code step of a security challenge; resolves the operation token. */
export function EmailChallengeFlow({ session, challengeId, maskedEmail, onToken }: {
  session: PasscodeSession
  challengeId: string
  maskedEmail: string
  onToken: (grant: { operationToken: string; expiresAt: string }) => void
}) {
  const { t } = session
  return (
    <EmailCodeStep
      session={session}
      title={t("challenge.title", { email: maskedEmail })}
      request={() => session.call((c) => c.security.requestChallengeEmailCode({ payload: { challengeId, language: session.language() } }))}
      submit={async (emailCode) => {
        const done = await session.call((c) => c.security.completeChallenge({ payload: { challengeId, emailCode } }))
        if (done.ok) onToken(done.value)
        return done.ok ? undefined : done.code
      }}
      onDone={() => undefined}
    />
  )
}

export function Loading({ label }: { label: string }) {
  return (
    <section className={styles.screen}>
      <Spinner size="l" label={label} />
    </section>
  )
}
