/**
 * The data layer's constants (spec 1 §7 "Caches", §9; spec 2 §7): the persisted cache's lifetime and
 * version, and every query's stale time, including those of plugins still to come (P2P, KYC, earn,
 * ramps) so that they all read the same numbers.
 */

/** Unused data leaves memory after 24 h. */
export const QUERY_GC_TIME_MS = 86_400_000
/** The persisted cache lives 12 hours. */
export const QUERY_CACHE_MAX_AGE_MS = 43_200_000
/** The persisted cache's version: a cache written under another one is dropped. */
export const QUERY_CACHE_BUSTER = "5.0.10"
/** Start-time data is prefetched this long after the page's load event. */
export const PREFETCH_DELAY_MS = 1000

/** Stale times per kind of data, ms. */
export const STALE_TIME = {
  /** Custody assets and balances (kept forever: gcTime Infinity). */
  assets: 60_000,
  earnCampaigns: 30_000,
  rampRouting: 300_000,
  coinCatalog: 60_000,
  featureFlags: 60_000,
  viewSettings: 300_000,
  paymentMethods: 60_000,
  coinDetails: 60_000,
  localCurrencies: 300_000,
  coinList: 300_000,
  p2pUser: 300_000,
  p2pCurrencyPairs: 30_000,
  /** Verification status on the verification steps screen. */
  verificationStatusSteps: 10_000,
  /** Verification status everywhere else. */
  verificationStatus: 60_000,
  languages: 300_000,
  p2pOrder: 3_500,
  /** Active P2P orders: stale and polled every 5 s. */
  activeOrders: 5_000,
  jettonRisk: 300_000,
  earnDetails: 60_000,
  /** Self-custody addresses never go stale. */
  selfCustodyAddresses: Number.POSITIVE_INFINITY,
} as const

/** Active P2P orders are polled on this beat. */
export const ACTIVE_ORDERS_POLL_MS = 5_000
/** A self-custody addresses request gives up after 20 s. */
export const SELF_CUSTODY_ADDRESSES_TIMEOUT_MS = 20_000
