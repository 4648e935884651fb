import { useState } from "react"
import { useNavigate } from "@tanstack/react-router"
import { MainButton, useKernel, useT } from "@wallet/kernel-react"
import { Button, useSnackbar } from "@wallet/kernel-react/ui"
import { Hero } from "./common.tsx"
import { createWallet } from "./flows.ts"
import { NS } from "./hooks.ts"
import { loadTon } from "./ton.ts"
import styles from "./ton.module.css"

/** /scw/onboarding (and /scw without a wallet): create a new wallet or import one. */
export default function OnboardingScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const [busy, setBusy] = useState(false)

  const create = async () => {
    if (busy) return
    setBusy(true)
    try {
      await createWallet(kernel)
      void navigate({ to: "/scw/backup/manual", replace: true } as never)
    } catch {
      snackbar.show({ id: "ton-create-failed", text: t("errors.generic") })
      setBusy(false)
    }
  }

  return (
    <main className={styles.screen} onPointerEnter={() => void loadTon().catch(() => undefined)}>
      <Hero title={t("onboarding.title")} text={t("onboarding.text")} />
      <div className={styles.stack}>
        <Button look="secondary" stretched onClick={() => void navigate({ to: "/scw/import/mnemonic" } as never)}>
          {t("onboarding.import")}
        </Button>
      </div>
      <MainButton text={t("onboarding.create")} progress={busy} onClick={() => void create()} />
    </main>
  )
}
