import { useEffect } from "react"
import { useNavigate } from "@tanstack/react-router"
import { useKernel, useT } from "@wallet/kernel-react"
import { Spinner } from "@wallet/kernel-react/ui"
import { NS, Screen } from "./ui.tsx"

/** Spec 1 §2: /transactions/start-param-landing sends new users to onboarding, others to the history. */
export const landingTarget = (isNew: boolean | undefined): string => (isNew ? "/wallet-onboarding" : "/transactions")

export default function LandingScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const navigate = useNavigate()
  useEffect(() => {
    void navigate({ to: landingTarget(kernel.user()?.isNew), replace: true } as never)
  }, [kernel, navigate])
  return <Screen><Spinner size="l" label={t("landing.text")} /></Screen>
}
