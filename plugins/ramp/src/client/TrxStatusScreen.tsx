import { useEffect } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, Spinner } from "@wallet/kernel-react/ui"
import { isFinal } from "../domain.ts"
import { mainRoute, offrampSuccessRoute, purchaseFailedRoute, purchaseSuccessRoute } from "../routes.ts"
import { loadTransaction, rampKeys } from "./api.ts"
import { hintStyle, LoadError, NS, padStyle, Page, PROVIDER_NAMES } from "./parts.tsx"
import { encodePayload, statusSearchOf } from "./view.ts"

const POLL_MS = 3_000

/**
 * /assets/ramp/asterium-trx-status (spec 1 §2): a provider transaction's status. Its search is checked
 * strictly (an invalid one is an error screen); the transaction is read (the server asks the provider
 * while it is not final) every 3 s until it is final, then the purchase success or failed screen, or
 * the sale's success, replaces it.
 */
export default function TrxStatusScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const search = statusSearchOf(useSearch({ strict: false }) as Record<string, string | undefined>)
  const tx = useQuery({
    queryKey: rampKeys.transaction(search?.externalTransactionId ?? ""),
    queryFn: () => loadTransaction(kernel, search!.externalTransactionId),
    enabled: search !== undefined,
    refetchInterval: (query) => (query.state.data !== undefined && isFinal(query.state.data.status) ? false : POLL_MS),
  })
  const data = tx.data
  useEffect(() => {
    if (data === undefined || !isFinal(data.status)) return
    if (data.direction === "sell") {
      void go(offrampSuccessRoute, {
        search: {
          payload: encodePayload({
            direction: "sell",
            currency: data.currency,
            network: "ton",
            fiatCurrency: data.fiatCurrency,
            amount: data.cryptoAmount ?? "0",
            inputMode: "crypto",
            rampId: data.id,
          }),
        },
        replace: true,
      })
    } else if (data.status === "COMPLETED")
      void go(purchaseSuccessRoute, { search: { amount: data.cryptoAmount ?? "", merchant_tx_id: data.id }, replace: true })
    else void go(purchaseFailedRoute, { search: { merchant_tx_id: data.id }, replace: true })
  }, [data, go])

  const title = t("status.title")
  if (search === undefined)
    return (
      <Page title={title}>
        <Placeholder
          kind="error"
          title={t("invalidLink")}
          description={t("status.invalidText")}
          action={
            <Button look="secondary" size="s" onClick={() => void go(mainRoute)}>
              {t("toMain")}
            </Button>
          }
        />
      </Page>
    )
  if (tx.isPending)
    return (
      <Page title={title}>
        <div style={{ display: "flex", justifyContent: "center", padding: 32 }}>
          <Spinner size="l" label={t("loading")} />
        </div>
      </Page>
    )
  if (tx.isError)
    return (
      <Page title={title}>
        <LoadError onRetry={() => void tx.refetch()} />
      </Page>
    )
  return (
    <Page title={title}>
      <div role="status" aria-live="polite" style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 12, padding: 24 }}>
        {!isFinal(tx.data.status) && <Spinner size="l" label={t("status.waiting")} />}
        <p style={{ margin: 0, fontSize: 17, textAlign: "center" }} data-testid="ramp-status">
          {t(`status.${tx.data.status}`)}
        </p>
      </div>
      <List>
        <Section>
          <Cell title={t("status.amount")} after={`${search.amount} ${search.currency}`} />
          {tx.data.fiatAmount !== null && <Cell title={t("status.fiat")} after={`${tx.data.fiatAmount} ${tx.data.fiatCurrency}`} />}
          <Cell title={t("status.provider")} after={PROVIDER_NAMES[tx.data.provider]} />
        </Section>
      </List>
      <p style={hintStyle}>{t(search.direction === "buy" ? "status.buyHint" : "status.sellHint")}</p>
      <div style={padStyle}>
        <Button look="secondary" size="l" stretched onClick={() => void go(mainRoute)}>
          {t("toMain")}
        </Button>
      </div>
    </Page>
  )
}
