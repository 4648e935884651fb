import { useState } from "react"
import { useQuery } from "@tanstack/react-query"
import { useSearch } from "@tanstack/react-router"
import { Icon, useAnalytics, useExperiment, useGo, useGoTo, useKernel, useT } from "@wallet/kernel-react"
import { Badge, Button, Cell, List, Placeholder, SearchInput, Section, SectionFooter } from "@wallet/kernel-react/ui"
import type { Catalog, CatalogEntry } from "../api.ts"
import { initialRanking, orderEntries, type Ranking } from "../rules.ts"
import { coinRoute, exchangeRoute, p2pRoute, stocksBonusRoute, tradeRoute, tradeSearchRoute, type TradeSearch } from "../routes.ts"
import { catalogQuery, listQuery } from "./client.ts"
import { SearchResults, useAutoFocus, useSettled } from "./SearchResults.tsx"
import { CoinAvatar, CoinCell, ListSkeleton, LoadError, NS, RankingTabs, SandboxLabel, Screen, useFiat } from "./ui.tsx"
import styles from "./trade.module.css"

/**
 * /trade (spec 1 §2): the search field (searchQuery, searchAutoFocus), the catalog's tiles, the
 * ranking tabs with their list (index search `ranking`; without one the default-tab experiment picks
 * gainers or all), the catalog's list entries and the products section.
 */
export default function TradeScreen() {
  const t = useT(NS)
  const go = useGo()
  const search = useSearch({ strict: false }) as TradeSearch
  const gainersFirst = useExperiment("trading-default-tab") === "b"
  const ranking = initialRanking(search.ranking, gainersFirst)
  const fiat = useFiat()
  const [query, setQuery] = useState(search.searchQuery ?? "")
  const settled = useSettled(query)
  const searchRef = useAutoFocus(search.searchAutoFocus === true)

  const typed = (value: string) => {
    setQuery(value)
    void go(tradeRoute, { search: { ...search, searchQuery: value === "" ? undefined : value }, replace: true })
  }

  return (
    <Screen title={t("title")} testId="trade-screen">
      <div className={styles.pad}>
        <SearchInput
          value={query}
          onChange={typed}
          placeholder={t("search.placeholder")}
          aria-label={t("search.placeholder")}
          clearLabel={t("search.clear")}
          ref={searchRef}
          data-testid="trade-search-input"
        />
      </div>
      {fiat === undefined ? (
        <ListSkeleton />
      ) : query.trim().length > 0 ? (
        <>
          <SearchResults fiat={fiat} query={settled} />
          <div className={styles.pad}>
            <Button look="secondary" stretched onClick={() => void go(tradeSearchRoute, { search: { searchQuery: query, activeTab: "all" } })}>
              {t("search.open")}
            </Button>
          </div>
        </>
      ) : (
        <Market fiat={fiat} ranking={ranking} />
      )}
    </Screen>
  )
}

function Market({ fiat, ranking }: { readonly fiat: string; readonly ranking: Ranking }) {
  const kernel = useKernel()
  const catalog = useQuery(catalogQuery(kernel, fiat))
  const entries = catalog.data ? orderEntries(catalog.data.entries) : []
  return (
    <>
      <SandboxLabel source={catalog.data?.source} />
      {catalog.status === "error" && <LoadError onRetry={() => void catalog.refetch()} />}
      <Tiles entries={entries.filter((e) => e.display_mode === "tile")} />
      <RankingSection fiat={fiat} ranking={ranking} />
      {catalog.data && <ListEntries catalog={catalog.data} entries={entries.filter((e) => e.display_mode === "list")} />}
      {catalog.data?.display_products_section === true && <Products />}
    </>
  )
}

/** What an entry's tap does: a ranking tab here, or another screen. */
const useEntryAction = () => {
  const go = useGo()
  const goTo = useGoTo()
  return (entry: CatalogEntry) => {
    if (entry.action.type === "ranking") void go(tradeRoute, { search: { ranking: entry.action.ranking } })
    else void goTo({ to: entry.action.to })
  }
}

function Tiles({ entries }: { readonly entries: ReadonlyArray<CatalogEntry> }) {
  const t = useT(NS)
  const open = useEntryAction()
  if (entries.length === 0) return null
  return (
    <div className={styles.tiles}>
      {entries.map((entry) => (
        <button key={entry.catalog_id} type="button" className={styles.tile} data-testid={`trade-tile-${entry.catalog_id}`} onClick={() => open(entry)}>
          <span className={styles.tileTitle}>
            {t(`catalog.${entry.title}`, { defaultValue: entry.title })}
            {entry.display_new_badge && <Badge tone="accent">{t("new")}</Badge>}
          </span>
          <span className={styles.tileCoins} aria-hidden="true">
            {entry.items.slice(0, 4).map((coin) => (
              <CoinAvatar key={coin.symbol} symbol={coin.symbol} size={28} />
            ))}
          </span>
        </button>
      ))}
    </div>
  )
}

function RankingSection({ fiat, ranking }: { readonly fiat: string; readonly ranking: Ranking }) {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const analytics = useAnalytics()
  const list = useQuery(listQuery(kernel, fiat, ranking))
  const choose = (next: Ranking) => {
    analytics.track("trade.ranking_opened", { ranking: next })
    void go(tradeRoute, { search: { ranking: next }, replace: true })
  }
  return (
    <section aria-labelledby={`trade-tab-${ranking}`}>
      <RankingTabs value={ranking} onChange={choose} />
      <div id="trade-ranking-panel" role="tabpanel" data-testid="trade-ranking-panel" data-ranking={ranking}>
        {list.status === "pending" ? (
          <ListSkeleton />
        ) : list.status === "error" ? (
          <LoadError onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <Placeholder kind="empty" title={t("empty.title")} description={t("empty.text")} />
        ) : (
          <List>
            <Section>
              {list.data.items.map((coin) => (
                <CoinCell
                  key={coin.symbol}
                  coin={coin}
                  fiat={list.data.fiat}
                  onOpen={() => void go(coinRoute, { params: { symbol: coin.symbol }, search: { source: "list" } })}
                />
              ))}
            </Section>
          </List>
        )}
      </div>
    </section>
  )
}

function ListEntries({ catalog, entries }: { readonly catalog: Catalog; readonly entries: ReadonlyArray<CatalogEntry> }) {
  const t = useT(NS)
  const go = useGo()
  const open = useEntryAction()
  return (
    <List>
      {entries
        .filter((entry) => entry.items.length > 0)
        .map((entry) => (
          <Section
            key={entry.catalog_id}
            data-testid={`trade-entry-${entry.catalog_id}`}
            footer={
              <SectionFooter>
                <Button look="secondary" size="s" onClick={() => open(entry)}>
                  {t("catalog.showAll")}
                </Button>
              </SectionFooter>
            }
            header={
              <>
                {t(`catalog.${entry.title}`, { defaultValue: entry.title })}
                {entry.display_new_badge && (
                  <>
                    {" "}
                    <Badge tone="accent">{t("new")}</Badge>
                  </>
                )}
              </>
            }
          >
            {entry.items.map((coin) => (
              <CoinCell
                key={coin.symbol}
                coin={coin}
                fiat={catalog.fiat}
                testPrefix={`trade-entry-${entry.catalog_id}-coin`}
                onOpen={() => void go(coinRoute, { params: { symbol: coin.symbol }, search: { source: "catalog" } })}
              />
            ))}
          </Section>
        ))}
    </List>
  )
}

/** Spec 1 §3 display_products_section: the wallet's other ways to trade. */
function Products() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const p2p = kernel.user()?.permissions.canUseP2p === true
  return (
    <List>
      <Section header={t("products.title")} data-testid="trade-products">
        <Cell
          before={<Icon name="exchange" />}
          title={t("products.exchange")}
          subtitle={t("products.exchangeText")}
          chevron
          onClick={() => void go(exchangeRoute)}
        />
        {p2p && <Cell before={<Icon name="currency" />} title={t("products.p2p")} subtitle={t("products.p2pText")} chevron onClick={() => void go(p2pRoute)} />}
        <Cell before={<Icon name="buy" />} title={t("products.stocks")} subtitle={t("products.stocksText")} chevron onClick={() => void go(stocksBonusRoute)} />
      </Section>
    </List>
  )
}
