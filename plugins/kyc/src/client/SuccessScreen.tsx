import { useGo, useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { walletMainRoute } from "../routes.ts"
import { useKycStatus } from "./useStatus.ts"

/** /kyc/success (spec 3 §4.2: level 1 passed and only level 1 was asked for): the new level and the way home. */
export default function SuccessScreen() {
  const t = useT("kyc")
  const go = useGo()
  const status = useKycStatus()
  const level = status.data?.level
  return (
    <main style={{ padding: "32px 16px" }}>
      <Placeholder
        kind="empty"
        title={t("success.title")}
        description={level ? t("success.text", { level: t(`level.${level}`) }) : undefined}
        action={
          <Button look="primary" onClick={() => void go(walletMainRoute, { replace: true })}>
            {t("success.done")}
          </Button>
        }
      />
    </main>
  )
}
