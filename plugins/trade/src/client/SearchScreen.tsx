import { useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { useGo, useT } from "@wallet/kernel-react"
import { SearchInput, SegmentedControl } from "@wallet/kernel-react/ui"
import { SEARCH_TABS, type SearchTab } from "../rules.ts"
import { tradeSearchRoute, type TradeSearchPageSearch } from "../routes.ts"
import { SearchResults, useAutoFocus, useSettled } from "./SearchResults.tsx"
import { ListSkeleton, NS, Screen, useFiat } from "./ui.tsx"
import styles from "./trade.module.css"

/** /trade/search (spec 1 §2, search activeTab): the field focused on arrival, the tabs, the matches. */
export default function SearchScreen() {
  const t = useT(NS)
  const go = useGo()
  const search = useSearch({ strict: false }) as TradeSearchPageSearch
  const fiat = useFiat()
  const [query, setQuery] = useState(search.searchQuery ?? "")
  const settled = useSettled(query)
  const searchRef = useAutoFocus(search.searchAutoFocus !== false)
  const tab = search.activeTab

  const update = (next: { readonly searchQuery?: string; readonly activeTab?: SearchTab }) =>
    void go(tradeSearchRoute, { search: { ...search, ...next }, replace: true })

  return (
    <Screen title={t("search.title")} testId="trade-search-screen">
      <div className={styles.pad}>
        <SearchInput
          value={query}
          onChange={(value) => {
            setQuery(value)
            update({ searchQuery: value === "" ? undefined : value })
          }}
          placeholder={t("search.placeholder")}
          aria-label={t("search.placeholder")}
          clearLabel={t("search.clear")}
          ref={searchRef}
          data-testid="trade-search-page-input"
        />
      </div>
      <div className={styles.pad}>
        <SegmentedControl
          stretched
          items={SEARCH_TABS.map((value) => ({ value, label: t(`search.tabs.${value}`) }))}
          value={tab}
          onChange={(value) => update({ activeTab: value })}
          aria-label={t("search.tabsLabel")}
        />
      </div>
      {fiat === undefined ? <ListSkeleton /> : <SearchResults fiat={fiat} query={settled} tab={tab} />}
    </Screen>
  )
}
