import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { offrampAmountRoute, purchaseOptionsRoute } from "../routes.ts"
import { loadBalances, loadRouting, rampKeys, ROUTING_STALE_MS } from "./api.ts"
import { LoadError, Loading, NS, Page } from "./parts.tsx"

/**
 * /sell-options and /assets/ramp/offramp/choose-asset (spec 1 §2): the assets a provider buys on the
 * fixed ramp networks, with the user's balance; one with nothing to sell is shown but disabled.
 */
export default function SellOptionsScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly source?: string }
  const routing = useQuery({ queryKey: rampKeys.routing, queryFn: () => loadRouting(kernel), staleTime: ROUTING_STALE_MS })
  const balances = useQuery({ queryKey: rampKeys.balances, queryFn: () => loadBalances(kernel) })
  const title = t("sell.title")
  if (routing.isPending || balances.isPending)
    return (
      <Page title={title}>
        <Loading label={t("loading")} />
      </Page>
    )
  if (routing.isError || balances.isError)
    return (
      <Page title={title}>
        <LoadError onRetry={() => void Promise.all([routing.refetch(), balances.refetch()])} />
      </Page>
    )
  const currencies = Object.keys(routing.data.sell)
  const held = currencies.filter((currency) => Number(balances.data.get(currency) ?? "0") > 0)
  return (
    <Page title={title}>
      <List>
        {held.length === 0 ? (
          <Placeholder
            title={t("sell.empty")}
            description={t("sell.emptyText")}
            action={
              <Button look="secondary" size="s" onClick={() => void go(purchaseOptionsRoute)}>
                {t("sell.buyFirst")}
              </Button>
            }
          />
        ) : (
          <Section header={t("sell.choose")}>
            {currencies.map((currency) => {
              const balance = balances.data.get(currency) ?? "0"
              return (
                <Cell
                  key={currency}
                  chevron
                  disabled={Number(balance) <= 0}
                  data-testid={`ramp-sell-${currency}`}
                  title={currency}
                  subtitle={t("sell.balance", { amount: balance, currency })}
                  onClick={() =>
                    void go(offrampAmountRoute, {
                      search: { assetCurrency: currency, assetNetwork: "ton", inputMode: "crypto", from: search.source ?? "sell-options" },
                    })
                  }
                />
              )
            })}
          </Section>
        )}
      </List>
    </Page>
  )
}
