/**
 * The trade catalog's pure rules (spec 1 §3 "Coin catalog", §5 "Gainers/losers filter"; issue 22),
 * shared by the server (the lists it answers) and the screens (search, tabs). No I/O, no React.
 */

import type { Ranking, SearchTab } from "./keys.ts"

/** The catalog's sorting keys (spec 1 §3), the `ranking` search param of /trade; the /trade/search tabs. */
export { RANKINGS, SEARCH_TABS, type Ranking, type SearchTab } from "./keys.ts"

export const COIN_CATEGORIES = ["coin", "jetton", "stock", "etf"] as const
export type CoinCategory = (typeof COIN_CATEGORIES)[number]

/**
 * Spec 1 §5: the gainers/losers threshold, in the unit of the 24 h change the lists carry: percent.
 * So 0.02 means 0.02 % (two hundredths of a percent): a coin that moved less is flat, whatever its
 * sign (decision 1100).
 */
export const GAINERS_LOSERS_MIN_CHANGE = 0.02

/**
 * Spec 1 §2: Trade opens with ranking gainers when the default-tab experiment (`trading-default-tab`,
 * bucket b) says so, else all; a ranking in the link always wins.
 */
export const initialRanking = (asked: Ranking | undefined, gainersByDefault: boolean): Ranking => asked ?? (gainersByDefault ? "gainers" : "all_limit")

/** How many coins `all_limit` shows (the rest is a search away). */
export const ALL_LIMIT = 100

/** What the rules need of a coin (the API's `CoinRow` has these and more). */
export interface RankedCoin {
  readonly symbol: string
  readonly name: string
  readonly category: CoinCategory
  /** 24 h change in percent (e.g. -1.25). */
  readonly change24h: number
  /** Fiat decimal strings; null when the source does not say. */
  readonly volume24h: string | null
  readonly marketCap: string | null
}

/**
 * Spec 1 §5, applied to a list sorted for gainers (largest change first) or losers (smallest
 * first): when the first item's change is at least 0.02 in absolute value, items with a different
 * sign or with an absolute change under 0.02 are dropped. A flat first item keeps the list as is.
 */
export const filterGainersLosers = <C extends Pick<RankedCoin, "change24h">>(sorted: ReadonlyArray<C>): ReadonlyArray<C> => {
  const first = sorted[0]
  if (first === undefined || Math.abs(first.change24h) < GAINERS_LOSERS_MIN_CHANGE) return sorted
  const sign = Math.sign(first.change24h)
  return sorted.filter((coin) => Math.sign(coin.change24h) === sign && Math.abs(coin.change24h) >= GAINERS_LOSERS_MIN_CHANGE)
}

/** Decimal strings compared without floats losing the order of large numbers (no sign, "12.5"). */
export const compareDecimal = (a: string, b: string): number => {
  const [ai = "0", af = ""] = a.split(".")
  const [bi = "0", bf = ""] = b.split(".")
  if (ai.length !== bi.length) return ai.length - bi.length
  if (ai !== bi) return ai < bi ? -1 : 1
  const width = Math.max(af.length, bf.length)
  const fa = af.padEnd(width, "0")
  const fb = bf.padEnd(width, "0")
  return fa === fb ? 0 : fa < fb ? -1 : 1
}

/** Largest first; unknown (null) last; ties by symbol so the order is stable. */
const byDecimalDesc =
  <C extends RankedCoin>(field: "volume24h" | "marketCap") =>
  (a: C, b: C): number => {
    const x = a[field]
    const y = b[field]
    if (x === null || y === null) return x === y ? a.symbol.localeCompare(b.symbol) : x === null ? 1 : -1
    return compareDecimal(y, x) || a.symbol.localeCompare(b.symbol)
  }

/** TON assets: Toncoin itself and the jettons. */
export const isTonAsset = (coin: Pick<RankedCoin, "symbol" | "category">): boolean => coin.category === "jetton" || coin.symbol === "TON"

/** The coins of one ranking tab, in its order (spec 1 §3 sorting keys, §5 filter). */
export const rankCoins = <C extends RankedCoin>(coins: ReadonlyArray<C>, ranking: Ranking): ReadonlyArray<C> => {
  const byCap = byDecimalDesc<C>("marketCap")
  switch (ranking) {
    case "gainers":
      return filterGainersLosers([...coins].sort((a, b) => b.change24h - a.change24h || a.symbol.localeCompare(b.symbol)))
    case "losers":
      return filterGainersLosers([...coins].sort((a, b) => a.change24h - b.change24h || a.symbol.localeCompare(b.symbol)))
    case "volume24h":
      return [...coins].sort(byDecimalDesc<C>("volume24h"))
    case "tonAssets":
      return coins.filter(isTonAsset).sort(byCap)
    case "stocks":
      return coins.filter((c) => c.category === "stock").sort(byCap)
    case "etfs":
      return coins.filter((c) => c.category === "etf").sort(byCap)
    case "all_limit":
      return [...coins].sort(byCap).slice(0, ALL_LIMIT)
  }
}

/** The coins of a /trade/search tab. */
export const inSearchTab = (coin: Pick<RankedCoin, "symbol" | "category">, tab: SearchTab): boolean =>
  tab === "all" ||
  (tab === "crypto" && coin.category === "coin") ||
  (tab === "tonAssets" && isTonAsset(coin)) ||
  (tab === "stocks" && (coin.category === "stock" || coin.category === "etf"))

/**
 * Search by symbol or name, case-insensitively: an exact symbol first, then symbols starting with
 * the query, then names containing it; an empty query matches nothing (the screen shows hints).
 */
export const searchCoins = <C extends Pick<RankedCoin, "symbol" | "name">>(coins: ReadonlyArray<C>, query: string): ReadonlyArray<C> => {
  const q = query.trim().toLowerCase()
  if (q.length === 0) return []
  const score = (coin: C): number => {
    const symbol = coin.symbol.toLowerCase()
    if (symbol === q) return 0
    if (symbol.startsWith(q)) return 1
    if (coin.name.toLowerCase().includes(q)) return 2
    return -1
  }
  return coins
    .map((coin) => ({ coin, rank: score(coin) }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.coin.symbol.localeCompare(b.coin.symbol))
    .map((x) => x.coin)
}

// --- the catalog (spec 1 §3 "Coin catalog") -----------------------------------------------------

export const DISPLAY_MODES = ["tile", "list"] as const
export type DisplayMode = (typeof DISPLAY_MODES)[number]

/** What tapping an entry does: open a ranking tab of /trade, or a route of the app. */
export type CatalogAction = { readonly type: "ranking"; readonly ranking: Ranking } | { readonly type: "route"; readonly to: string }

export interface CatalogEntryDefinition {
  readonly catalog_id: string
  /** An i18n key of the trade namespace (`catalog.<title>`), so every language has it. */
  readonly title: string
  readonly display_mode: DisplayMode
  readonly order: number
  /** The ranking tabs the entry shows (a list entry switches between them). */
  readonly tabs: ReadonlyArray<Ranking>
  readonly display_new_badge: boolean
  readonly action: CatalogAction
}

/** The catalog the server answers, per fiat (the coins in each entry are priced in it). */
export const CATALOG_ENTRIES: ReadonlyArray<CatalogEntryDefinition> = [
  {
    catalog_id: "new",
    title: "newListings",
    display_mode: "list",
    order: 40,
    tabs: ["all_limit"],
    display_new_badge: true,
    action: { type: "ranking", ranking: "all_limit" },
  },
  {
    catalog_id: "stocks",
    title: "stocks",
    display_mode: "tile",
    order: 10,
    tabs: ["stocks", "etfs"],
    display_new_badge: true,
    action: { type: "route", to: "/stocks-bonus" },
  },
  {
    catalog_id: "ton",
    title: "tonAssets",
    display_mode: "tile",
    order: 20,
    tabs: ["tonAssets"],
    display_new_badge: false,
    action: { type: "ranking", ranking: "tonAssets" },
  },
  {
    catalog_id: "most-traded",
    title: "mostTraded",
    display_mode: "list",
    order: 30,
    tabs: ["volume24h"],
    display_new_badge: false,
    action: { type: "ranking", ranking: "volume24h" },
  },
]

/** Entries by `order`, then id: the server's order is a hint the screen must keep stable. */
export const orderEntries = <E extends Pick<CatalogEntryDefinition, "order" | "catalog_id">>(entries: ReadonlyArray<E>): ReadonlyArray<E> =>
  [...entries].sort((a, b) => a.order - b.order || a.catalog_id.localeCompare(b.catalog_id))

/** The coins an entry previews: its first tab's ranking (the new-listings entry: the new coins). */
export const entryCoins = <C extends RankedCoin & { readonly isNew: boolean }>(
  entry: CatalogEntryDefinition,
  coins: ReadonlyArray<C>,
  size = 5,
): ReadonlyArray<C> => {
  const source = entry.catalog_id === "new" ? coins.filter((c) => c.isNew) : coins
  return rankCoins(source, entry.tabs[0] ?? "all_limit").slice(0, size)
}

// --- stocks (spec 1 §5, §6, §8) ----------------------------------------------------------------

export type StockAccess = "available" | "FUNCTIONALITY_RESTRICTION" | "COUNTRY_CODE_RESTRICTION"

/**
 * Spec 1 §5: stock trading is available when the user is below KYC level 1 or both access flags are
 * true; otherwise the country flag off is COUNTRY_CODE_RESTRICTION (the 'never available' toast) and
 * the feature flag off FUNCTIONALITY_RESTRICTION (the 'trades unavailable' toast).
 */
export const stockAccess = (input: {
  readonly belowLevel1: boolean
  readonly accessToTradeStocksAndEtfs: boolean
  readonly accessToTradeStocksAndEtfsByCountry: boolean
}): StockAccess => {
  if (input.belowLevel1) return "available"
  if (!input.accessToTradeStocksAndEtfsByCountry) return "COUNTRY_CODE_RESTRICTION"
  if (!input.accessToTradeStocksAndEtfs) return "FUNCTIONALITY_RESTRICTION"
  return "available"
}

export const isSecurity = (category: CoinCategory): boolean => category === "stock" || category === "etf"
