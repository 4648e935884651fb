import { useEffect, useState } from "react"
import { Icon, type Kernel, MainButton, saveViewSettings, SecondaryButton, useGo, useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { NS } from "./ui.tsx"
import styles from "./wallet.module.css"
import { chooseAssetRoute, walletMainRoute, walletOnboardingIncentiveRoute, walletOnboardingStepsRoute } from "../../routes.ts"

const STEPS = 2

/** Records on the server that the user finished wallet onboarding (view settings user flag). */
const markFinished = async (kernel: Kernel) => {
  // Sent only with accessToSavingSettings; otherwise kept on this device (decision 0360).
  await saveViewSettings(kernel, { changedUserFlags: { wallet_onboarding_finished: true } }).catch(() => undefined)
}

function Slide({ icon, title, text, step }: { readonly icon: string; readonly title: string; readonly text: string; readonly step?: number }) {
  const t = useT(NS)
  return (
    <main className={styles.onboarding}>
      {step !== undefined && (
        <p className={styles.stepHint} aria-live="polite">
          {t("onboarding.step", { current: step + 1, total: STEPS + 1 })}
        </p>
      )}
      <div className={styles.onboardingIcon} aria-hidden="true">
        <Icon name={icon} size={64} />
      </div>
      <h1 className={styles.onboardingTitle}>{title}</h1>
      <p className={styles.onboardingText}>{text}</p>
      {step !== undefined && (
        <ol className={styles.dots} aria-hidden="true">
          {Array.from({ length: STEPS + 1 }, (_, i) => (
            <li key={i} className={i === step ? styles.dotActive : styles.dot} />
          ))}
        </ol>
      )}
    </main>
  )
}

/** /wallet-onboarding: the welcome slide for a new user. */
export default function OnboardingIntroScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  useHideTabBar()
  const next = () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    void go(walletOnboardingStepsRoute)
  }
  return (
    <>
      <Slide icon="wallet" title={t("onboarding.intro.title")} text={t("onboarding.intro.text")} step={0} />
      <MainButton text={t("onboarding.next")} onClick={next} />
    </>
  )
}

/** /wallet-onboarding/steps: what the wallet does, one slide at a time; then the incentive. */
export function OnboardingStepsScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const [step, setStep] = useState(0)
  useHideTabBar()
  const last = step === STEPS - 1
  const next = () => {
    kernel.telegram.haptic({ type: "impact", style: "light" })
    if (!last) setStep((s) => s + 1)
    else void go(walletOnboardingIncentiveRoute, { replace: true })
  }
  return (
    <>
      <Slide icon={step === 0 ? "currency" : "ton"} title={t(`onboarding.steps.${step}.title`)} text={t(`onboarding.steps.${step}.text`)} step={step + 1} />
      <MainButton text={t("onboarding.next")} onClick={next} />
    </>
  )
}

/** /wallet-onboarding/incentive: the first-deposit offer; either choice finishes onboarding. */
export function OnboardingIncentiveScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  useHideTabBar()
  useEffect(() => {
    void markFinished(kernel)
  }, [kernel])
  return (
    <>
      <Slide icon="ton" title={t("onboarding.incentive.title")} text={t("onboarding.incentive.text")} />
      <MainButton text={t("onboarding.incentive.deposit")} onClick={() => void go(chooseAssetRoute, { params: { type: "receive" }, replace: true })} />
      <SecondaryButton text={t("onboarding.incentive.later")} onClick={() => void go(walletMainRoute, { replace: true })} />
    </>
  )
}
