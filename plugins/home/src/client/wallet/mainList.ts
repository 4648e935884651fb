/**
 * Wallet main's asset list (spec 1 §5 "Main list", §2 "Main screen"): which assets are pinned and
 * which sit behind the "more crypto" toggle. Money is compared in integer USD minor units (cents).
 */
export type ListCategory = "onchain" | "trading" | "stock" | "etf"

export interface ListAsset {
  readonly currency: string
  readonly category: ListCategory
  /** Balance in the currency's minor units. */
  readonly balance: bigint
  /** USD value in cents. */
  readonly usdBalance: bigint
  /** The server says this asset always shows on main. */
  readonly isAlwaysOnMain?: boolean
}

export interface ListRules {
  /** The default pinned set, in display order (TON, USDT). */
  readonly pinned: ReadonlyArray<string>
  /** Pinned while the user holds none of them (BTC, ETH, XAUT). */
  readonly pinnedWithoutBalance: ReadonlyArray<string>
}

export interface MainList<A extends ListAsset> {
  readonly pinned: ReadonlyArray<A>
  /** Low-balance assets behind the toggle; empty when none or exactly one would be hidden. */
  readonly hidden: ReadonlyArray<A>
}

/** Assets worth less than this (USD cents) are hidden: "value under 1". */
export const LOW_BALANCE_USD_CENTS = 100n

const isStockLike = (asset: ListAsset) => asset.category === "stock" || asset.category === "etf"

/**
 * Splits the assets: the default set first (in its order), then the others by USD value (highest
 * first, the input order breaking ties); BTC, ETH and XAUT stay pinned while their balance is zero;
 * others under 1 USD go behind the toggle unless exactly one would, which is then shown. Stock and
 * ETF assets take no part in the split (they are listed in the trade area, not on main).
 */
export function splitMainList<A extends ListAsset>(assets: ReadonlyArray<A>, rules: ListRules): MainList<A> {
  const candidates = assets.filter((asset) => !isStockLike(asset))
  const defaults = rules.pinned.flatMap((code) => candidates.filter((asset) => asset.currency === code))
  const alwaysOnMain = candidates.filter((asset) => asset.isAlwaysOnMain && !rules.pinned.includes(asset.currency))
  const head = [...defaults, ...alwaysOnMain]
  const rest = candidates
    .map((asset, index) => ({ asset, index }))
    .filter(({ asset }) => !head.includes(asset))
    .sort((a, b) => (a.asset.usdBalance === b.asset.usdBalance ? a.index - b.index : a.asset.usdBalance > b.asset.usdBalance ? -1 : 1))
    .map(({ asset }) => asset)
  const stays = (asset: A) => asset.usdBalance >= LOW_BALANCE_USD_CENTS || (asset.balance === 0n && rules.pinnedWithoutBalance.includes(asset.currency))
  const shown = rest.filter(stays)
  const low = rest.filter((asset) => !stays(asset))
  if (low.length === 1) return { pinned: [...head, ...rest.filter((asset) => shown.includes(asset) || asset === low[0])], hidden: [] }
  return { pinned: [...head, ...shown], hidden: low }
}
