import { useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, SearchInput, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { newPaymentRoute } from "../routes.ts"
import { keys, loadCurrencies, loadSettings, STALE, updateSettings } from "./client.ts"
import { fiatChoices } from "./maker.ts"
import { MakerLoadError } from "./makerParts.tsx"
import { pageStyle, titleStyle } from "./marketParts.tsx"

/** The currency's name in the locale ("Russian ruble"), else its code. */
const currencyNamer = (locale: string): ((code: string) => string) => {
  let names: Intl.DisplayNames | undefined
  try {
    names = new Intl.DisplayNames([locale], { type: "currency" })
  } catch {
    names = undefined
  }
  return (code) => {
    try {
      return names?.of(code) ?? code
    } catch {
      return code
    }
  }
}

/**
 * /p2p/user/payments/new/select-fiat-currency (spec 3 §2.1, §9): the fiat of new payment details. The
 * two recent fiats come first; a search narrows by code or name. Choosing remembers the fiat as recent.
 */
export default function SelectFiatScreen() {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const queryClient = useQueryClient()
  const search = useSearch({ strict: false }) as { readonly code?: string }
  const [query, setQuery] = useState("")
  const [choosing, setChoosing] = useState<string | null>(null)
  const currencies = useQuery({ queryKey: keys.currencies, queryFn: () => loadCurrencies(kernel), staleTime: STALE.currencies })
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => loadSettings(kernel) })
  const nameOf = currencyNamer(kernel.i18n.language())

  const choose = async (fiat: string) => {
    if (choosing !== null) return
    setChoosing(fiat)
    try {
      queryClient.setQueryData(keys.settings, await updateSettings(kernel, { recentFiat: fiat }))
    } catch {
      // Only the recent list misses it: the user still goes on with this fiat.
    }
    await go(newPaymentRoute, { search: { fiat, ...(search.code === undefined ? {} : { code: search.code as never }) }, replace: true })
  }

  const row = (code: string) => (
    <Cell
      key={code}
      data-testid={`p2p-fiat-${code}`}
      title={code}
      subtitle={nameOf(code) === code ? undefined : nameOf(code)}
      disabled={choosing !== null}
      onClick={() => void choose(code)}
    />
  )

  const pending = currencies.status === "pending" || settings.status === "pending"
  const lists =
    currencies.data === undefined
      ? null
      : fiatChoices(
          currencies.data.data.fiat.map((f) => f.code),
          settings.data?.recentFiats ?? [],
          query,
          nameOf,
        )
  return (
    <main style={pageStyle} data-testid="p2p-select-fiat">
      <h1 style={titleStyle}>{t("payments.fiat.title")}</h1>
      <div style={{ padding: "0 16px 12px" }}>
        <SearchInput
          value={query}
          onChange={setQuery}
          aria-label={t("payments.fiat.search")}
          placeholder={t("payments.fiat.search")}
          clearLabel={t("payments.fiat.clear")}
          data-testid="p2p-fiat-search"
        />
      </div>
      {pending ? (
        <List>
          <SkeletonList rows={6} before={false} label={t("maker.loading")} />
        </List>
      ) : currencies.status === "error" || lists === null ? (
        <MakerLoadError retry={() => void currencies.refetch()} />
      ) : lists.recent.length + lists.rest.length === 0 ? (
        <Placeholder data-testid="p2p-fiat-none" title={t("payments.fiat.none")} />
      ) : (
        <List>
          {lists.recent.length > 0 && <Section header={t("payments.fiat.recent")}>{lists.recent.map(row)}</Section>}
          {lists.rest.length > 0 && <Section header={t("payments.fiat.all")}>{lists.rest.map(row)}</Section>}
        </List>
      )}
    </main>
  )
}
