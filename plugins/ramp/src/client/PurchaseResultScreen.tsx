import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Placeholder } from "@wallet/kernel-react/ui"
import { assetRoute, mainRoute } from "../routes.ts"
import { loadTransaction, rampKeys } from "./api.ts"
import { Loading, NS, padStyle, Page } from "./parts.tsx"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** /purchase-success (spec 1 §2, search amount and merchant_tx_id): the crypto is in the wallet. */
export default function PurchaseResultScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly amount?: string; readonly merchant_tx_id?: string }
  const id = search.merchant_tx_id !== undefined && UUID.test(search.merchant_tx_id) ? search.merchant_tx_id : undefined
  const tx = useQuery({ queryKey: rampKeys.transaction(id ?? ""), queryFn: () => loadTransaction(kernel, id!), enabled: id !== undefined })
  if (id !== undefined && tx.isPending)
    return (
      <Page title={t("success.title")}>
        <Loading label={t("loading")} />
      </Page>
    )
  const currency = tx.data?.currency
  const amount = tx.data?.cryptoAmount ?? search.amount
  return (
    <Page title={t("success.title")}>
      <Placeholder
        title={amount !== undefined && currency !== undefined ? t("success.text", { amount, currency }) : t("success.textPlain")}
        description={t("success.description")}
        data-testid="ramp-purchase-success"
      />
      <div style={padStyle}>
        <Button
          look="primary"
          size="l"
          stretched
          onClick={() => void (currency !== undefined ? go(assetRoute, { params: { assetCurrency: currency } }) : go(mainRoute))}
        >
          {t("done")}
        </Button>
      </div>
    </Page>
  )
}
