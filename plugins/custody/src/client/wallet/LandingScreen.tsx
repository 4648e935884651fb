import { useEffect } from "react"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Spinner } from "@wallet/kernel-react/ui"
import { NS, Screen } from "./ui.tsx"
import { transactionsRoute, walletOnboardingRoute } from "../../routes.ts"

/** Spec 1 §2: /transactions/start-param-landing sends new users to onboarding, others to the history. */
export default function LandingScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  useEffect(() => {
    void (kernel.user()?.isNew ? go(walletOnboardingRoute, { replace: true }) : go(transactionsRoute, { replace: true }))
  }, [kernel, go])
  return (
    <Screen>
      <Spinner size="l" label={t("landing.text")} />
    </Screen>
  )
}
