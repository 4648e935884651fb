import { useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { AmountInput, Button } from "@wallet/kernel-react/ui"
import { currencyInfo } from "@wallet/plugin-custody/currencies"
import { AMOUNT_PATTERN, compareDecimal, isRampCurrency } from "../domain.ts"
import { offrampProviderRoute } from "../routes.ts"
import { loadBalances, loadOptions, loadRouting, rampKeys, ROUTING_STALE_MS } from "./api.ts"
import { alertStyle, FiatSelect, hintStyle, LoadError, Loading, NS, padStyle, Page } from "./parts.tsx"
import { encodePayload, fiatOr } from "./view.ts"

/** /assets/ramp/offramp/offramp-amount (spec 1 §2): the crypto to sell (at most the balance) and the payout fiat. */
export default function OfframpAmountScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const search = useSearch({ strict: false }) as { readonly assetCurrency?: string; readonly fiatCurrency?: string; readonly amount?: string }
  const currency = search.assetCurrency !== undefined && isRampCurrency(search.assetCurrency) ? search.assetCurrency : "USDT"
  // The loader's preloads: ramp routing and the networks (the routing carries them), then the options.
  const routing = useQuery({ queryKey: rampKeys.routing, queryFn: () => loadRouting(kernel), staleTime: ROUTING_STALE_MS })
  const options = useQuery({ queryKey: rampKeys.options, queryFn: () => loadOptions(kernel), staleTime: ROUTING_STALE_MS })
  const balances = useQuery({ queryKey: rampKeys.balances, queryFn: () => loadBalances(kernel) })
  const [amount, setAmount] = useState(search.amount ?? "")
  const [chosenFiat, setFiat] = useState<string | undefined>(undefined)
  const title = t("offramp.title", { currency })
  if (routing.isPending || options.isPending || balances.isPending)
    return (
      <Page title={title}>
        <Loading label={t("loading")} />
      </Page>
    )
  if (routing.isError || options.isError || balances.isError)
    return (
      <Page title={title}>
        <LoadError onRetry={() => void Promise.all([routing.refetch(), options.refetch(), balances.refetch()])} />
      </Page>
    )
  const sellFiats = options.data.sellFiats
  const fiat = chosenFiat ?? fiatOr(search.fiatCurrency, sellFiats.includes(options.data.defaultFiat) ? options.data.defaultFiat : (sellFiats[0] ?? "EUR"))
  const balance = balances.data.get(currency) ?? "0"
  const over = AMOUNT_PATTERN.test(amount) && compareDecimal(amount, balance) > 0
  const valid = AMOUNT_PATTERN.test(amount) && Number(amount) > 0 && !over
  return (
    <Page title={title}>
      <div style={padStyle}>
        <AmountInput
          aria-label={t("offramp.amount")}
          data-testid="ramp-amount"
          value={amount}
          onChange={setAmount}
          decimals={currencyInfo(currency)?.decimals ?? 6}
          currency={currency}
          size="l"
          invalid={over}
        />
      </div>
      <p style={hintStyle}>
        {t("sell.balance", { amount: balance, currency })}{" "}
        <Button look="plain" size="s" onClick={() => setAmount(balance)}>
          {t("offramp.max")}
        </Button>
      </p>
      {over && (
        <p role="alert" style={alertStyle}>
          {t("errors.insufficient_balance")}
        </p>
      )}
      <FiatSelect value={fiat} fiats={sellFiats} onChange={setFiat} />
      <div style={padStyle}>
        <Button
          look="primary"
          size="l"
          stretched
          disabled={!valid}
          data-testid="ramp-continue"
          onClick={() =>
            void go(offrampProviderRoute, {
              search: { payload: encodePayload({ direction: "sell", currency, network: "ton", fiatCurrency: fiat, amount, inputMode: "crypto" }) },
            })
          }
        >
          {t("continue")}
        </Button>
      </div>
    </Page>
  )
}
