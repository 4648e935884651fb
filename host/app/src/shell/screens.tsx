import { useState } from "react"
import { useNavigate, useParams, useSearch } from "@tanstack/react-router"
import { Icon, MainButton, saveViewSettings, useKernel, useT, useTrackEvent } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import styles from "./shell.module.css"

export const SHELL = "shell"

function InfoPage({ icon = "alert", title, text, action }: { icon?: string; title: string; text: string; action?: React.ReactNode }) {
  return (
    <main className={styles.centered}>
      <Placeholder icon={<Icon name={icon} size={56} />} title={title} description={text} action={action} headingLevel={1} />
    </main>
  )
}

/** /error?code=…: spec 1 §2 "Error screen" and §8 startup codes. */
export function ErrorScreen() {
  const t = useT(SHELL)
  const { code } = useSearch({ strict: false }) as { code?: string }
  useTrackEvent("error_shown", { where: "error_page", code: code ?? "unknown" }, { key: code })
  const retry = <Button onClick={() => window.location.reload()}>{t("retry")}</Button>
  if (code === "online_user_limit_exceeded") {
    return <InfoPage title={t("error.high_demand_title")} text={t("error.high_demand_desc")} action={retry} />
  }
  const text = code === "auth_failed" ? t("error.auth_failed") : code === "init_failed" ? t("error.init_failed") : t("error.text")
  return (
    <div data-hide-header={code === "init_failed" ? "true" : undefined}>
      <InfoPage title={t("error.title")} text={text} action={retry} />
    </div>
  )
}

export const UnsupportedRegionScreen = () => {
  const t = useT(SHELL)
  return <InfoPage icon="globe" title={t("unsupportedRegion.title")} text={t("unsupportedRegion.text")} />
}
export const UnsupportedAppStoreScreen = () => {
  const t = useT(SHELL)
  return <InfoPage title={t("unsupportedAppStore.title")} text={t("unsupportedAppStore.text")} />
}
export const UnavailableScreen = () => {
  const t = useT(SHELL)
  return <InfoPage title={t("unavailable.title")} text={t("unavailable.text")} />
}
export const ClientConnectionErrorScreen = () => {
  const t = useT(SHELL)
  return <InfoPage title={t("clientConnection.title")} text={t("clientConnection.text")} />
}
export const AttachPrivateChatsErrorScreen = () => {
  const t = useT(SHELL)
  return <InfoPage title={t("attachPrivateChats.title")} text={t("attachPrivateChats.text")} />
}
export const ServiceUnavailableScreen = () => {
  const t = useT(SHELL)
  const { service } = useParams({ strict: false }) as { service?: string }
  return <InfoPage title={t("serviceUnavailable.title", { service: service ?? "" })} text={t("serviceUnavailable.text")} />
}

export function NotFoundScreen() {
  const t = useT(SHELL)
  const navigate = useNavigate()
  return <InfoPage title={t("notFound.title")} text="" action={<Button onClick={() => void navigate({ to: "/" } as never)}>{t("notFound.action")}</Button>} />
}

/** `/`: the startup page; the boot sequence replaces it with the startup target at once. */
export function StartupScreen() {
  const t = useT(SHELL)
  return (
    <main className={styles.centered} aria-busy="true">
      <p className={styles.hint}>{t("loading")}</p>
    </main>
  )
}

const ONBOARDING_STEPS = 3

/** /wallet-onboarding: three steps, then the wallet; the server remembers it is done. */
export function OnboardingScreen() {
  const t = useT(SHELL)
  const kernel = useKernel()
  const navigate = useNavigate()
  const [step, setStep] = useState(0)
  const [saving, setSaving] = useState(false)
  const last = step === ONBOARDING_STEPS - 1
  const next = async () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    if (!last) return setStep((current) => Math.min(current + 1, ONBOARDING_STEPS - 1))
    setSaving(true)
    // Through the view settings (decision 0360): on the server with accessToSavingSettings, else on this device.
    await saveViewSettings(kernel, { changedUserFlags: { wallet_onboarding_finished: true } })
    void navigate({ to: "/main", replace: true } as never)
  }
  return (
    <main className={styles.onboarding}>
      <p className={styles.hint} aria-live="polite">
        {t("onboarding.step", { current: step + 1, total: ONBOARDING_STEPS })}
      </p>
      <div className={styles.onboardingIcon}>
        <Icon name={step === 2 ? "ton" : step === 1 ? "currency" : "wallet"} size={72} />
      </div>
      <h1 className={styles.onboardingTitle}>{t(`onboarding.steps.${step}.title`)}</h1>
      <p className={styles.onboardingText}>{t(`onboarding.steps.${step}.text`)}</p>
      <ol className={styles.dots} aria-hidden="true">
        {Array.from({ length: ONBOARDING_STEPS }, (_, i) => (
          <li key={i} className={i === step ? styles.dotActive : styles.dot} />
        ))}
      </ol>
      <MainButton text={last ? t("onboarding.start") : t("onboarding.next")} progress={saving} onClick={() => void next()} />
    </main>
  )
}

/** /scw when no plugin provides the TON space yet. */
export function ScwFallbackScreen() {
  const t = useT(SHELL)
  const kernel = useKernel()
  const navigate = useNavigate()
  return (
    <InfoPage
      icon="ton"
      title={t("scw.title")}
      text={t("scw.text")}
      action={
        kernel.user()?.isCustodyAvailable ? (
          <Button look="secondary" onClick={() => void navigate({ to: "/main" } as never)}>
            {t("scw.toCrypto")}
          </Button>
        ) : undefined
      }
    />
  )
}

export function BootFailureScreen({ message }: { message: string }) {
  return (
    <main className={styles.centered} role="alert">
      <h1>This build cannot start</h1>
      <p>The app’s plugin configuration is invalid:</p>
      <pre className={styles.pre}>{message}</pre>
    </main>
  )
}

export function RouteErrorScreen({ error, reset }: { error: Error; reset: () => void }) {
  const t = useT(SHELL)
  // The error's name only: a message may carry user data (decision 0350 scrubs, but sends less).
  useTrackEvent("error_shown", { where: "route", code: error?.name ?? "Error", path: window.location.pathname }, { key: error })
  return <InfoPage title={t("error.title")} text={t("error.screen")} action={<Button onClick={reset}>{t("retry")}</Button>} />
}
