/**
 * The trade plugin's enumerations, apart from the rules so the manifest (on the boot path) carries
 * only these few strings (spec 1 §3 catalog sorting keys).
 */
export const RANKINGS = ["gainers", "losers", "volume24h", "tonAssets", "stocks", "etfs", "all_limit"] as const
export type Ranking = (typeof RANKINGS)[number]

/** The tabs of /trade/search (its `activeTab`). */
export const SEARCH_TABS = ["all", "crypto", "tonAssets", "stocks"] as const
export type SearchTab = (typeof SEARCH_TABS)[number]
