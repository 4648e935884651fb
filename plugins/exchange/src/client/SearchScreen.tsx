import { useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, SearchInput, Section, SkeletonList } from "@wallet/kernel-react/ui"
import type { ExchangeMode } from "../domain.ts"
import { exchangeRoute } from "../routes.ts"
import { exchangeKeys, loadBalances, loadSettings } from "./api.ts"
import { LoadError, pageStyle, titleStyle } from "./parts.tsx"
import { searchCurrencies } from "./view.ts"

interface Search {
  readonly searchBy?: ExchangeMode
  readonly payCurrency?: string
  readonly receiveCurrency?: string
  readonly exchangeMode?: ExchangeMode
  readonly tradingMode?: "buy" | "sell"
  readonly successRedirect?: string
  readonly successButtonI18nKey?: string
  readonly payValue?: string
  readonly receiveValue?: string
}

/**
 * /exchange/search (searchBy pay or receive): every offered currency with the user's balance, filtered
 * by code or name as the user types (the field has focus); choosing one returns to /exchange with it on
 * that side (the other side's currency swaps over when it is the same one).
 */
export default function SearchScreen() {
  const kernel = useKernel()
  const t = useT("exchange")
  const go = useGo()
  const search = useSearch({ strict: false }) as Search
  const side: ExchangeMode = search.searchBy === "receive" ? "receive" : "pay"
  const [query, setQuery] = useState("")
  const settings = useQuery({ queryKey: exchangeKeys.settings, queryFn: () => loadSettings(kernel), staleTime: 30_000 })
  const balances = useQuery({ queryKey: exchangeKeys.balances, queryFn: () => loadBalances(kernel), staleTime: 10_000 })

  const choose = (code: string) => {
    const other = side === "pay" ? search.receiveCurrency : search.payCurrency
    const current = side === "pay" ? search.payCurrency : search.receiveCurrency
    const pay = side === "pay" ? code : other === code ? current : other
    const receive = side === "receive" ? code : other === code ? current : other
    const { searchBy: _searchBy, ...rest } = search
    void go(exchangeRoute, { search: { ...rest, payCurrency: pay, receiveCurrency: receive }, replace: true })
  }

  const found = settings.data === undefined ? [] : searchCurrencies(settings.data.currencies, query)
  return (
    <main style={pageStyle} data-testid="exchange-search" data-side={side}>
      <h1 style={titleStyle}>{t(side === "pay" ? "search.titlePay" : "search.titleReceive")}</h1>
      <div style={{ padding: "0 16px 8px" }}>
        <SearchInput
          aria-label={t("search.label")}
          clearLabel={t("search.clear")}
          placeholder={t("search.placeholder")}
          data-testid="exchange-search-input"
          value={query}
          onChange={setQuery}
          autoFocus
        />
      </div>
      {settings.status === "error" ? (
        <LoadError retry={() => void settings.refetch()} />
      ) : settings.data === undefined ? (
        <SkeletonList rows={6} label={t("loading")} />
      ) : found.length === 0 ? (
        <Placeholder kind="empty" data-testid="exchange-search-empty" title={t("search.empty", { query })} />
      ) : (
        <List>
          <Section>
            {found.map((currency) => (
              <Cell
                key={currency.code}
                data-testid={`exchange-search-${currency.code}`}
                title={currency.code}
                subtitle={currency.name}
                after={balances.data?.get(currency.code) ?? undefined}
                onClick={() => choose(currency.code)}
              />
            ))}
          </Section>
        </List>
      )}
    </main>
  )
}
