/** The passcode screens' building blocks: overlay frame, passcode entry (dots, pad, keyboard), email steps. */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from "react"
import { useKernel } from "@wallet/kernel-react"
import { Button, TextField, useSnackbar, VisuallyHidden } from "@wallet/kernel-react/ui"
import { RESEND_COUNTDOWN_SECONDS, type EmailCodeSent } from "../api.ts"
import { countdownLeft, emailProgress, isEmailCodeComplete, isValidEmail, pressKey, sanitiseEmailCode, SHAKE_MS, shakesEmailCode } from "./rules.ts"
import type { PasscodeSession, Result } from "./runtime.ts"
import styles from "./passcode.module.css"

const svg = (children: ReactNode) => (
  <svg
    width="36"
    height="36"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    {children}
  </svg>
)
/** Decorative icons (no emoji: not every webview has an emoji font). */
export const Icons = {
  lock: () =>
    svg(
      <>
        <rect x="5" y="11" width="14" height="10" rx="2" />
        <path d="M8 11V8a4 4 0 0 1 8 0v3" />
      </>,
    ),
  mail: () =>
    svg(
      <>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="m3 7 9 6 9-6" />
      </>,
    ),
  check: () =>
    svg(
      <>
        <circle cx="12" cy="12" r="9" />
        <path d="m8 12 3 3 5-6" />
      </>,
    ),
  face: () =>
    svg(
      <>
        <path d="M4 8V6a2 2 0 0 1 2-2h2M16 4h2a2 2 0 0 1 2 2v2M20 16v2a2 2 0 0 1-2 2h-2M8 20H6a2 2 0 0 1-2-2v-2" />
        <path d="M9 10v1M15 10v1M12 10v3h-1M9.5 16a3.5 3.5 0 0 0 5 0" />
      </>,
    ),
  shield: () =>
    svg(
      <>
        <path d="M12 3 5 6v5c0 4.5 3 8 7 10 4-2 7-5.5 7-10V6z" />
        <path d="m9 12 2 2 4-4" />
      </>,
    ),
}

/** A full-screen layer over any route: a dialog with a close button; Escape and Telegram's back close it. */
export function OverlayFrame({ label, closeLabel, onClose, children }: { label: string; closeLabel: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null)
  const { telegram } = useKernel()
  useEffect(() => telegram.backButton.onClick(onClose), [telegram, onClose])
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    ref.current?.focus()
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && onClose()
    document.addEventListener("keydown", onKey)
    return () => {
      document.removeEventListener("keydown", onKey)
      previous?.focus?.()
    }
  }, [onClose])
  return (
    <div ref={ref} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} className={styles.overlay}>
      <div className={styles.overlayTop}>
        <button type="button" className={styles.linkButton} onClick={onClose}>
          {closeLabel}
        </button>
      </div>
      {children}
    </div>
  )
}

/** Touch devices get the on-screen number pad; desktops type on the keyboard (both work everywhere). */
export const isTouchPlatform = (platform: string) => /^(ios|android|android_x)$/.test(platform)

export interface PasscodeEntryProps {
  readonly session: PasscodeSession
  readonly title: string
  readonly description?: ReactNode
  readonly length: number
  /** Called with a full entry; resolve false to shake, clear and fire the error haptic. */
  readonly onComplete: (value: string) => Promise<boolean>
  readonly below?: ReactNode
  /** A pad key left of 0 (the biometry button). */
  readonly extraKey?: { readonly label: string; readonly text: ReactNode; readonly onPress: () => void }
  readonly icon?: ReactNode
}

export function PasscodeEntry({ session, title, description, length, onComplete, below, extraKey, icon = <Icons.lock /> }: PasscodeEntryProps) {
  const { kernel, t } = session
  const [value, setValue] = useState("")
  const [busy, setBusy] = useState(false)
  const [shaking, setShaking] = useState(false)
  const busyRef = useRef(false)
  const valueRef = useRef("")
  const complete = useRef(onComplete)
  // Current before the next event: Preact runs passive effects a frame later (decision 0011).
  useLayoutEffect(() => {
    complete.current = onComplete
  })
  const headingId = useId()

  const press = (key: string) => {
    const next = pressKey(valueRef.current, key, length, busyRef.current)
    if (next === valueRef.current) return
    valueRef.current = next
    setValue(next)
    if (key !== "Backspace") kernel.telegram.haptic({ type: "selection_change" })
    if (next.length === length) {
      busyRef.current = true
      setBusy(true)
      void complete.current(next).then((ok) => {
        if (ok) return
        kernel.telegram.haptic({ type: "notification", kind: "error" })
        setShaking(true)
        setTimeout(() => {
          setShaking(false)
          valueRef.current = ""
          setValue("")
          busyRef.current = false
          setBusy(false)
        }, SHAKE_MS)
      })
    }
  }
  const pressRef = useRef(press)
  // Current before the next event: Preact runs passive effects a frame later (decision 0011).
  useLayoutEffect(() => {
    pressRef.current = press
  })
  // A hardware keyboard types anywhere on the screen.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.metaKey || event.ctrlKey || event.altKey) return
      if (/^\d$/.test(event.key) || event.key === "Backspace") {
        event.preventDefault()
        pressRef.current(event.key)
      }
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [])

  const touch = isTouchPlatform(kernel.telegram.launchParams.platform)
  return (
    <section className={styles.screen} aria-labelledby={headingId} aria-busy={busy}>
      <div className={styles.icon} aria-hidden="true">
        {icon}
      </div>
      <h2 id={headingId} className={styles.title}>
        {title}
      </h2>
      {description && <p className={styles.text}>{description}</p>}
      <div className={shaking ? `${styles.dots} ${styles.shake}` : styles.dots} role="img" aria-label={t("entry.progress", { count: value.length, length })}>
        {Array.from({ length }, (_, i) => (
          <span key={i} className={i < value.length ? styles.dotFilled : styles.dot} />
        ))}
      </div>
      <VisuallyHidden aria-live="polite">{t("entry.progress", { count: value.length, length })}</VisuallyHidden>
      {below}
      {touch ? (
        <div className={styles.pad} role="group" aria-label={t("entry.pad")}>
          {["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((digit) => (
            <button key={digit} type="button" className={styles.key} onClick={() => press(digit)} disabled={busy}>
              {digit}
            </button>
          ))}
          {extraKey ? (
            <button type="button" className={styles.keyPlain} aria-label={extraKey.label} onClick={extraKey.onPress} disabled={busy}>
              {extraKey.text}
            </button>
          ) : (
            <span className={styles.spacer} />
          )}
          <button type="button" className={styles.key} onClick={() => press("0")} disabled={busy}>
            0
          </button>
          <button type="button" className={styles.keyPlain} aria-label={t("entry.delete")} onClick={() => press("Backspace")} disabled={busy || value === ""}>
            ⌫
          </button>
        </div>
      ) : (
        <>
          <p className={styles.hint}>{t("entry.keyboard")}</p>
          {extraKey && (
            <button type="button" className={styles.linkButton} onClick={extraKey.onPress}>
              {extraKey.label}
            </button>
          )}
        </>
      )}
    </section>
  )
}

/** Enter a recovery e-mail address: the standard pattern enables Continue; progress against 35 characters. */
export function EmailAddressStep({ session, initial, onSubmit }: { session: PasscodeSession; initial?: string; onSubmit: (email: string) => Promise<void> }) {
  const { t } = session
  const [email, setEmail] = useState(initial ?? "")
  const [busy, setBusy] = useState(false)
  const valid = isValidEmail(email)
  return (
    <form
      className={styles.screen}
      onSubmit={(event) => {
        event.preventDefault()
        if (!valid || busy) return
        setBusy(true)
        void onSubmit(email.trim()).finally(() => setBusy(false))
      }}
    >
      <div className={styles.icon} aria-hidden="true">
        <Icons.mail />
      </div>
      <h2 className={styles.title}>{t("email.title")}</h2>
      <p className={styles.text}>{t("email.text")}</p>
      <div className={styles.field}>
        <TextField label={t("email.label")} type="email" inputMode="email" autoComplete="email" value={email} onChange={setEmail} autoFocus />
      </div>
      <div className={styles.progress} aria-hidden="true">
        <div className={styles.progressBar} style={{ width: `${Math.round(emailProgress(email) * 100)}%` }} />
      </div>
      <div className={styles.actions}>
        <Button type="submit" stretched disabled={!valid} loading={busy}>
          {t("continue")}
        </Button>
      </div>
    </form>
  )
}

/**
 * Enter a 6-digit email code: the code is requested on mount, resend becomes active after 59 s,
 * a wrong code shakes and clears, rate limits show a snackbar.
 */
export function EmailCodeStep({
  session,
  title,
  request,
  submit,
  onDone,
}: {
  session: PasscodeSession
  title: string
  request: () => Promise<Result<EmailCodeSent>>
  /** Resolves with the failure code, or undefined when accepted. */
  submit: (code: string) => Promise<string | undefined>
  /** Called with the accepted code. */
  onDone: (code: string) => void
}) {
  const { t, kernel } = session
  const snackbar = useSnackbar()
  const [code, setCode] = useState("")
  const [sentTo, setSentTo] = useState<string>()
  const [sentAt, setSentAt] = useState<number>()
  const [now, setNow] = useState(() => Date.now())
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [shaking, setShaking] = useState(false)
  const send = async () => {
    const sent = await request()
    if (sent.ok) {
      setSentTo(sent.value.sentTo)
      setSentAt(Date.now())
      setError(undefined)
    } else {
      snackbar.show({ id: "passcode-email-code", text: t(sent.code === "rate_limit_exceeded" ? "errors.rate_limit_exceeded" : "errors.technical_issue") })
      setSentAt(Date.now())
    }
  }
  const sendRef = useRef(send)
  // Current before the next event: Preact runs passive effects a frame later (decision 0011).
  useLayoutEffect(() => {
    sendRef.current = send
  })
  // The first code goes out when the step opens (once, also under StrictMode's double mount).
  const requested = useRef(false)
  useEffect(() => {
    if (requested.current) return
    requested.current = true
    void sendRef.current()
  }, [])
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])

  const left = sentAt === undefined ? RESEND_COUNTDOWN_SECONDS : countdownLeft(sentAt, RESEND_COUNTDOWN_SECONDS, now)
  const change = (input: string) => {
    if (busy) return
    const next = sanitiseEmailCode(input)
    setCode(next)
    if (!isEmailCodeComplete(next)) return
    setBusy(true)
    void submit(next).then((failure) => {
      setBusy(false)
      if (failure === undefined) return onDone(next)
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      setError(t(`errors.${shakesEmailCode(failure) ? failure : "technical_issue"}`))
      setShaking(true)
      setTimeout(() => {
        setShaking(false)
        setCode("")
      }, SHAKE_MS)
    })
  }
  return (
    <section className={styles.screen} aria-busy={busy}>
      <div className={styles.icon} aria-hidden="true">
        <Icons.mail />
      </div>
      <h2 className={styles.title}>{title}</h2>
      <p className={styles.text}>{sentTo ? t("code.sentTo", { email: sentTo }) : t("code.sending")}</p>
      <input
        className={shaking ? `${styles.codeInput} ${styles.shake}` : styles.codeInput}
        aria-label={t("code.label")}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onChange={(event) => {
          change(event.target.value)
          // What the field holds, also when the edit was refused or cleaned: Preact, which the app renders
          // with (decision 0011), does not put a controlled value back the way React DOM does.
          const shown = busy ? code : sanitiseEmailCode(event.target.value)
          if (event.target.value !== shown) event.target.value = shown
        }}
        placeholder="••••••"
        autoFocus
      />
      <p className={styles.error} role="alert">
        {error ?? ""}
      </p>
      <button type="button" className={styles.linkButton} disabled={left > 0} onClick={() => void send()}>
        {left > 0 ? t("code.resendIn", { seconds: left }) : t("code.resend")}
      </button>
    </section>
  )
}
