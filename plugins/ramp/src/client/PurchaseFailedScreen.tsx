import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { mainRoute, purchaseOptionsRoute } from "../routes.ts"
import { loadTransaction, rampKeys } from "./api.ts"
import { NS, padStyle, Page } from "./parts.tsx"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** /purchase-failed (spec 1 §2): the payment did not go through; nothing was charged to the wallet. */
export default function PurchaseFailedScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly merchant_tx_id?: string }
  const id = search.merchant_tx_id !== undefined && UUID.test(search.merchant_tx_id) ? search.merchant_tx_id : undefined
  const tx = useQuery({ queryKey: rampKeys.transaction(id ?? ""), queryFn: () => loadTransaction(kernel, id!), enabled: id !== undefined })
  const reason = tx.data?.failureReason
  return (
    <Page title={t("failed.title")}>
      <Placeholder
        kind="error"
        title={t("failed.text")}
        description={reason === "card_declined" ? t("failed.cardDeclined") : t("failed.description")}
        data-testid="ramp-purchase-failed"
      />
      <div style={{ ...padStyle, display: "grid", gap: 8 }}>
        <Button look="primary" size="l" stretched onClick={() => void go(purchaseOptionsRoute, tx.data ? { search: { assetCurrency: tx.data.currency } } : {})}>
          {t("failed.retry")}
        </Button>
        <Button look="secondary" size="l" stretched onClick={() => void go(mainRoute)}>
          {t("toMain")}
        </Button>
      </div>
    </Page>
  )
}
