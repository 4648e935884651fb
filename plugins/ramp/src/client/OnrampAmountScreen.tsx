import { useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { AmountInput, Button, Cell, List, Placeholder, Section, SegmentedControl } from "@wallet/kernel-react/ui"
import { currencyInfo } from "@wallet/plugin-custody/currencies"
import { AMOUNT_PATTERN, isRampCurrency, type InputMode, type PaymentMethod } from "../domain.ts"
import { onrampProviderRoute } from "../routes.ts"
import { loadMethods, loadOptions, METHODS_STALE_MS, rampKeys, ROUTING_STALE_MS } from "./api.ts"
import { FiatSelect, hintStyle, LoadError, Loading, NS, padStyle, Page } from "./parts.tsx"
import { encodePayload, fiatOr } from "./view.ts"

interface Search {
  readonly assetCurrency?: string
  readonly fiatCurrency?: string
  readonly amount?: string
  readonly from?: string
  readonly paymentMethod?: PaymentMethod
  readonly inputMode?: InputMode
}

/** /assets/ramp/onramp/onramp-amount (spec 1 §2): the amount in crypto or fiat, the fiat, the payment method. */
export default function OnrampAmountScreen() {
  const kernel = useKernel()
  const t = useT(NS)
  const go = useGo()
  const search = useSearch({ strict: false }) as Search
  const currency = search.assetCurrency !== undefined && isRampCurrency(search.assetCurrency) ? search.assetCurrency : "TON"
  const options = useQuery({ queryKey: rampKeys.options, queryFn: () => loadOptions(kernel), staleTime: ROUTING_STALE_MS })
  const [chosenFiat, setFiat] = useState<string | undefined>(undefined)
  const fiat = chosenFiat ?? fiatOr(search.fiatCurrency, options.data?.defaultFiat ?? "EUR")
  const [inputMode, setInputMode] = useState<InputMode>(search.inputMode ?? "fiat")
  const [amount, setAmount] = useState(search.amount ?? "")
  const [method, setMethod] = useState<PaymentMethod | undefined>(search.paymentMethod)
  const methods = useQuery({
    queryKey: rampKeys.methods("buy", fiat),
    queryFn: () => loadMethods(kernel, "buy", fiat),
    staleTime: METHODS_STALE_MS,
    enabled: options.isSuccess,
  })

  const title = t("onramp.title", { currency })
  if (options.isPending)
    return (
      <Page title={title}>
        <Loading label={t("loading")} />
      </Page>
    )
  if (options.isError)
    return (
      <Page title={title}>
        <LoadError onRetry={() => void options.refetch()} />
      </Page>
    )
  const decimals = inputMode === "fiat" ? 2 : (currencyInfo(currency)?.decimals ?? 9)
  const available = methods.data ?? []
  const selected = method !== undefined && available.some((m) => m.id === method) ? method : available[0]?.id
  const valid = AMOUNT_PATTERN.test(amount) && Number(amount) > 0 && selected !== undefined
  return (
    <Page title={title}>
      <div style={padStyle}>
        <SegmentedControl
          aria-label={t("onramp.inputMode")}
          stretched
          value={inputMode}
          onChange={(mode) => {
            setInputMode(mode)
            setAmount("")
          }}
          items={[
            { value: "fiat", label: t("onramp.inFiat", { fiat }) },
            { value: "crypto", label: t("onramp.inCrypto", { currency }) },
          ]}
        />
      </div>
      <div style={padStyle}>
        <AmountInput
          aria-label={t("onramp.amount")}
          data-testid="ramp-amount"
          value={amount}
          onChange={setAmount}
          decimals={decimals}
          currency={inputMode === "fiat" ? fiat : currency}
          size="l"
        />
      </div>
      <FiatSelect value={fiat} fiats={options.data.buyFiats} onChange={(code) => setFiat(code)} />
      <List>
        <Section header={t("onramp.paymentMethod")}>
          {methods.isPending ? (
            <Loading label={t("loading")} />
          ) : methods.isError ? (
            <LoadError onRetry={() => void methods.refetch()} />
          ) : available.length === 0 ? (
            <Placeholder title={t("onramp.noMethods", { fiat })} description={t("onramp.noMethodsText")} />
          ) : (
            available.map((m) => (
              <Cell
                key={m.id}
                role="radio"
                aria-checked={m.id === selected}
                data-testid={`ramp-method-${m.id}`}
                title={t(`methods.${m.id}`, { defaultValue: m.id })}
                after={m.id === selected ? "✓" : undefined}
                onClick={() => setMethod(m.id)}
              />
            ))
          )}
        </Section>
      </List>
      <p style={hintStyle}>{t("onramp.hint")}</p>
      <div style={padStyle}>
        <Button
          look="primary"
          size="l"
          stretched
          disabled={!valid}
          data-testid="ramp-continue"
          onClick={() =>
            void go(onrampProviderRoute, {
              search: {
                payload: encodePayload({
                  direction: "buy",
                  currency,
                  network: "ton",
                  fiatCurrency: fiat,
                  amount,
                  inputMode,
                  ...(selected ? { paymentMethod: selected } : {}),
                }),
                ...(search.from !== undefined ? { from: search.from } : {}),
              },
            })
          }
        >
          {t("continue")}
        </Button>
      </div>
    </Page>
  )
}
