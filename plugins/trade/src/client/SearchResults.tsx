import { useEffect, useRef, useState } from "react"
import { useQuery } from "@tanstack/react-query"
import { Icon, useGo, useKernel, useT } from "@wallet/kernel-react"
import { List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { inSearchTab, type SearchTab } from "../rules.ts"
import { coinRoute } from "../routes.ts"
import { searchQuery } from "./client.ts"
import { CoinCell, ListSkeleton, LoadError, NS, SandboxLabel } from "./ui.tsx"

/** The query once typing pauses (a request per pause, not per key). */
export const useSettled = (value: string, ms = 250): string => {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/**
 * Focus for a search field that asks for it on arrival. `autoFocus` alone is lost when the screen
 * mounts while the route transition still holds it unfocusable, so this retries for a few frames.
 */
export const useAutoFocus = (enabled: boolean) => {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (!enabled) return
    let frames = 0
    let frame = 0
    const attempt = () => {
      const input = ref.current
      if (input === null) return
      input.focus({ preventScroll: true })
      if (document.activeElement !== input && ++frames < 30) frame = requestAnimationFrame(attempt)
    }
    attempt()
    return () => cancelAnimationFrame(frame)
  }, [enabled])
  return ref
}

/** The server's matches for `query` in `fiat`, narrowed to a search tab: loading, error, none, the rows. */
export function SearchResults({ fiat, query, tab = "all" }: { readonly fiat: string; readonly query: string; readonly tab?: SearchTab }) {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const trimmed = query.trim()
  const results = useQuery({ ...searchQuery(kernel, fiat, trimmed), enabled: trimmed.length > 0 })
  if (trimmed.length === 0) return <Placeholder icon={<Icon name="search" size={48} />} title={t("search.hintTitle")} description={t("search.hintText")} />
  if (results.status === "pending") return <ListSkeleton rows={3} />
  if (results.status === "error") return <LoadError onRetry={() => void results.refetch()} />
  const items = results.data.items.filter((coin) => inSearchTab(coin, tab))
  if (items.length === 0)
    return (
      <div data-testid="trade-search-empty">
        <Placeholder icon={<Icon name="search" size={48} />} title={t("search.emptyTitle")} description={t("search.emptyText", { query: trimmed })} />
      </div>
    )
  return (
    <>
      <SandboxLabel source={results.data.source} />
      <List>
        <Section header={t("search.results")}>
          <div data-testid="trade-search-results">
            {items.map((coin) => (
              <CoinCell
                key={coin.symbol}
                coin={coin}
                fiat={results.data.fiat}
                testPrefix="trade-search-coin"
                onOpen={() => void go(coinRoute, { params: { symbol: coin.symbol }, search: { source: "search" } })}
              />
            ))}
          </div>
        </Section>
      </List>
    </>
  )
}
