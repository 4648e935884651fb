import { useEffect } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useGoTo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { onrampAmountRoute } from "../routes.ts"
import { loadMethods, loadOptions, loadRouting, METHODS_STALE_MS, rampKeys, ROUTING_STALE_MS } from "./api.ts"
import { LoadError, Loading, NS, Page } from "./parts.tsx"

interface Search {
  readonly assetCurrency?: string
  readonly amount?: string
  readonly source?: string
}

/**
 * /purchase-options (spec 1 §2): the ways to get crypto. Signed in, it preloads the ramp routing,
 * the options (default fiat) and the buy payment methods of that fiat; the bank-card way lists what
 * the providers sell, the asked asset first.
 */
export default function PurchaseOptionsScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const goTo = useGoTo()
  const queries = useQueryClient()
  const search = useSearch({ strict: false }) as Search
  const signedIn = kernel.user() !== undefined
  const routing = useQuery({ queryKey: rampKeys.routing, queryFn: () => loadRouting(kernel), staleTime: ROUTING_STALE_MS, enabled: signedIn })
  const options = useQuery({ queryKey: rampKeys.options, queryFn: () => loadOptions(kernel), staleTime: ROUTING_STALE_MS, enabled: signedIn })
  const fiat = options.data?.defaultFiat
  // The loader's preloads: the buy payment methods of the default fiat, for the amount step.
  useEffect(() => {
    if (signedIn && fiat !== undefined)
      void queries.prefetchQuery({ queryKey: rampKeys.methods("buy", fiat), queryFn: () => loadMethods(kernel, "buy", fiat), staleTime: METHODS_STALE_MS })
  }, [signedIn, fiat, kernel, queries])

  const paths = new Set(kernel.composition.routes.map((route) => route.fullPath))
  const others = (
    <Section header={t("options.otherWays")}>
      {paths.has("/choose-asset/$type") && (
        <Cell chevron title={t("options.receive")} subtitle={t("options.receiveText")} onClick={() => void goTo({ to: "/choose-asset/receive" })} />
      )}
      {paths.has("/exchange") && (
        <Cell chevron title={t("options.exchange")} subtitle={t("options.exchangeText")} onClick={() => void goTo({ to: "/exchange" })} />
      )}
    </Section>
  )

  if (!signedIn || routing.isPending || options.isPending)
    return (
      <Page title={t("options.title")}>
        <Loading label={t("loading")} />
      </Page>
    )
  if (routing.isError || options.isError)
    return (
      <Page title={t("options.title")}>
        <LoadError onRetry={() => void Promise.all([routing.refetch(), options.refetch()])} />
      </Page>
    )
  const currencies = Object.keys(routing.data.buy)
  const ordered =
    search.assetCurrency !== undefined && currencies.includes(search.assetCurrency)
      ? [search.assetCurrency, ...currencies.filter((c) => c !== search.assetCurrency)]
      : currencies
  return (
    <Page title={t("options.title")}>
      <List>
        {ordered.length === 0 ? (
          <Placeholder title={t("options.empty")} />
        ) : (
          <Section header={t("options.card")} footer={t("options.cardFooter", { fiat: options.data.defaultFiat })}>
            {ordered.map((currency) => (
              <Cell
                key={currency}
                chevron
                data-testid={`ramp-buy-${currency}`}
                title={t("options.buyCurrency", { currency })}
                subtitle={routing.data.buy[currency]!.providers.map((p) => (p === "moonpay" ? "MoonPay" : "Mercuryo")).join(", ")}
                onClick={() =>
                  void go(onrampAmountRoute, {
                    search: {
                      assetCurrency: currency,
                      assetNetwork: "ton",
                      fiatCurrency: options.data.defaultFiat,
                      from: search.source ?? "purchase-options",
                      inputMode: "fiat",
                      ...(search.amount !== undefined && currency === search.assetCurrency ? { amount: search.amount, inputMode: "crypto" as const } : {}),
                    },
                  })
                }
              />
            ))}
          </Section>
        )}
        {others}
      </List>
    </Page>
  )
}
