/**
 * Market data behind the `Rates` service (spec 1 §7 "Coins: details, list, trending list, catalog
 * list"; issue 22): the catalog's coins with price, 24 h change, 24 h volume and market cap in one
 * fiat. The sandbox computes them from its drifting prices; the feed asks a tonapi-compatible
 * `/v2/rates` for prices and changes and, when configured, a jetton-metrics service for the TON
 * assets' volume and market cap (addresses in chunks of 500, spec 1 §9). Every snapshot says where
 * its numbers come from (`source`), so the API and the screens can label sandbox prices as such.
 * Amounts are bigint scaled by the service's PRICE_SCALE (12 decimals); display only.
 */
import { Effect, Schema } from "effect"
import { currencyInfo } from "../../currencies.ts"
import { COIN_CATALOG, type CatalogCoin, type CoinCategory } from "./catalog.ts"

export type PriceSource = "sandbox" | "feed"

export interface MarketCoin {
  readonly symbol: string
  readonly name: string
  readonly category: CoinCategory
  readonly isNew: boolean
  /** A currency of the custodial wallet (it can be bought, sold or held there). */
  readonly custodial: boolean
  /** Fiat per unit now, scaled. */
  readonly price: bigint
  /** The same 24 hours earlier (the 24 h change is price against it). */
  readonly price24hAgo: bigint
  /** Fiat traded in the last 24 hours, scaled; null when the source does not say. */
  readonly volume24h: bigint | null
  /** Price times circulating supply, scaled; null when the source does not say. */
  readonly marketCap: bigint | null
  readonly description: { readonly en: string; readonly ru: string }
}

export interface MarketSnapshot {
  readonly source: PriceSource
  readonly fiat: string
  /** When the numbers were taken. */
  readonly at: Date
  /** In catalog order. */
  readonly coins: ReadonlyArray<MarketCoin>
}

/** The part of the `Rates` interface this module adds. */
export interface MarketShape<E> {
  /** Every catalog coin priced in `fiat` (spec 1 §7 "catalog list", "list"). */
  readonly catalog: (fiat: string) => Effect.Effect<MarketSnapshot, E>
  /** One coin in `fiat`; undefined when the catalog does not know it (spec 1 §7 "details"). */
  readonly coin: (symbol: string, fiat: string) => Effect.Effect<{ readonly source: PriceSource; readonly at: Date; readonly coin: MarketCoin } | undefined, E>
  /** The coins moving the most on real volume now (spec 1 §7 "trending list"). */
  readonly trending: (fiat: string) => Effect.Effect<MarketSnapshot, E>
}

const DAY = 24 * 60 * 60_000
export const TRENDING_SIZE = 10

/** Change in percent from `before` to `now` (a ratio of scaled prices, display precision). */
export const percentChange = (now: bigint, before: bigint): number => (before === 0n ? 0 : Number(((now - before) * 1_000_000n) / before) / 10_000)

/**
 * Trending: of the coins with at least the median 24 h volume, the ones with the largest absolute
 * 24 h change first; without volumes (a feed that has none) the largest changes of all.
 */
export const trendingOf = (coins: ReadonlyArray<MarketCoin>, size = TRENDING_SIZE): ReadonlyArray<MarketCoin> => {
  const volumes = coins.flatMap((c) => (c.volume24h === null ? [] : [c.volume24h])).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const median = volumes.length === 0 ? null : volumes[Math.floor(volumes.length / 2)]!
  const liquid = median === null ? coins : coins.filter((c) => c.volume24h !== null && c.volume24h >= median)
  return [...liquid].sort((a, b) => Math.abs(percentChange(b.price, b.price24hAgo)) - Math.abs(percentChange(a.price, a.price24hAgo))).slice(0, size)
}

/** The shared methods over a snapshot maker. */
export const marketMethods = <E>(snapshot: (fiat: string) => Effect.Effect<MarketSnapshot, E>): MarketShape<E> => ({
  catalog: snapshot,
  coin: (symbol, fiat) =>
    Effect.map(snapshot(fiat), (s) => {
      const found = s.coins.find((c) => c.symbol === symbol)
      return found === undefined ? undefined : { source: s.source, at: s.at, coin: found }
    }),
  trending: (fiat) => Effect.map(snapshot(fiat), (s) => ({ ...s, coins: trendingOf(s.coins) })),
})

const base = (entry: CatalogCoin) => ({
  symbol: entry.symbol,
  name: entry.name,
  category: entry.category,
  isNew: entry.isNew === true,
  custodial: currencyInfo(entry.symbol) !== undefined,
  description: entry.description,
})

// --- sandbox ---------------------------------------------------------------------------------

export interface SandboxMarketInput {
  /** The sandbox's scaled price of `code` in `fiat` at time `t` (the same prices the quotes give). */
  readonly priceAt: (code: string, fiat: string, t: number) => bigint
  /** Smooth seeded noise in [-1, 1] of `key` at time `t` (the sandbox's own), for the daily volume. */
  readonly wobble: (key: string, t: number) => number
  readonly now: number
  readonly fiat: string
}

/** The sandbox's market now: volumes wander ±35 % around each coin's usual daily turnover. */
export const sandboxSnapshot = (input: SandboxMarketInput): MarketSnapshot => ({
  source: "sandbox",
  fiat: input.fiat,
  at: new Date(input.now),
  coins: COIN_CATALOG.map((entry) => {
    const price = input.priceAt(entry.symbol, input.fiat, input.now)
    const marketCap = price * BigInt(Math.round(entry.supply))
    const volume = Number(marketCap) * entry.turnover * (1 + 0.35 * input.wobble(`volume:${entry.symbol}`, input.now))
    return {
      ...base(entry),
      price,
      price24hAgo: input.priceAt(entry.symbol, input.fiat, input.now - DAY),
      volume24h: BigInt(Math.round(volume)),
      marketCap,
    }
  }),
})

// --- feed ------------------------------------------------------------------------------------

/** Splits `items` into runs of at most `size` (spec 1 §9: jetton metrics go 500 addresses at a time). */
export const chunksOf = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
export const JETTON_METRICS_CHUNK = 500
/** tonapi answers at most 100 tokens per `/v2/rates` call. */
const RATES_CHUNK = 100

const FeedRatesBody = Schema.Struct({
  rates: Schema.Record(
    Schema.String,
    Schema.Struct({
      prices: Schema.optionalKey(Schema.Record(Schema.String, Schema.Number)),
      diff_24h: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
    }),
  ),
})
/** Our reading of the jetton-metrics answer (spec 1 §7 names `items`); unknown fields are ignored. */
const JettonMetricsBody = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      address: Schema.String,
      volume24h: Schema.optionalKey(Schema.NullOr(Schema.Number)),
      marketCap: Schema.optionalKey(Schema.NullOr(Schema.Number)),
      fdmc: Schema.optionalKey(Schema.NullOr(Schema.Number)),
    }),
  ),
})

export interface FeedMarketOptions {
  /** Base URL of the tonapi-compatible API (`/v2/rates` is appended). */
  readonly url: string
  /** Feed token id per symbol (a jetton's master address for TON assets); default the lower-case symbol. */
  readonly tokens: Readonly<Record<string, string>>
  /** POST endpoint of jetton metrics; absent: the TON assets' volume and market cap are unknown. */
  readonly jettonMetricsUrl?: string
  readonly now: () => number
  readonly cacheSeconds?: number
  readonly fetch?: typeof globalThis.fetch
}

/** "+1.25%" / "-0.4%" / "−2%" to a ratio. */
const ratioOf = (diff: string | undefined): number => {
  if (diff === undefined) return 0
  const value = Number(diff.replace("\u2212", "-").replace("%", "").trim())
  return Number.isFinite(value) ? value / 100 : 0
}
const scaled = (value: number): bigint => (Number.isFinite(value) && value > 0 ? BigInt(Math.round(value * 1e12)) : 0n)

/** The feed's market: prices and changes from `/v2/rates`, jetton volumes from the metrics service; cached per fiat. */
export const makeFeedMarket = (options: FeedMarketOptions) => {
  const doFetch = options.fetch ?? globalThis.fetch
  const cacheMs = (options.cacheSeconds ?? 60) * 1000
  const cache = new Map<string, MarketSnapshot>()
  const tokenOf = (symbol: string) => options.tokens[symbol] ?? symbol.toLowerCase()
  const root = options.url.replace(/\/+$/, "")

  const json = async (url: string, init?: RequestInit): Promise<unknown> => {
    const response = await doFetch(url, { ...init, headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}) } })
    if (!response.ok) throw new Error(`market feed answered ${response.status}`)
    return response.json()
  }
  const decodeRates = Schema.decodeUnknownPromise(FeedRatesBody)
  const decodeMetrics = Schema.decodeUnknownPromise(JettonMetricsBody)

  /** Volume and market cap per jetton address, 500 addresses a call. */
  const jettonMetrics = async (addresses: ReadonlyArray<string>, fiat: string) => {
    const out = new Map<string, { volume24h: number | null; marketCap: number | null }>()
    if (options.jettonMetricsUrl === undefined || addresses.length === 0) return out
    for (const chunk of chunksOf(addresses, JETTON_METRICS_CHUNK)) {
      const body = await decodeMetrics(
        await json(options.jettonMetricsUrl, {
          method: "POST",
          body: JSON.stringify({ addresses: chunk, limit: chunk.length, excludeScam: true, currency: fiat.toLowerCase() }),
        }),
      )
      for (const item of body.items) out.set(item.address, { volume24h: item.volume24h ?? null, marketCap: item.marketCap ?? item.fdmc ?? null })
    }
    return out
  }

  const fetchSnapshot = async (fiat: string): Promise<MarketSnapshot> => {
    const tokens = COIN_CATALOG.map((entry) => tokenOf(entry.symbol))
    const rates = new Map<string, { price: number; ratio: number }>()
    for (const chunk of chunksOf(tokens, RATES_CHUNK)) {
      const body = await decodeRates(
        await json(`${root}/v2/rates?tokens=${encodeURIComponent(chunk.join(","))}&currencies=${encodeURIComponent(fiat.toLowerCase())}`),
      )
      for (const token of chunk) {
        const entry = body.rates[token]
        const price = entry?.prices?.[fiat] ?? entry?.prices?.[fiat.toLowerCase()]
        if (price !== undefined) rates.set(token, { price, ratio: ratioOf(entry?.diff_24h?.[fiat] ?? entry?.diff_24h?.[fiat.toLowerCase()]) })
      }
    }
    const jettons = COIN_CATALOG.filter((entry) => entry.category === "jetton" && options.tokens[entry.symbol] !== undefined).map((entry) =>
      tokenOf(entry.symbol),
    )
    const metrics = await jettonMetrics(jettons, fiat)
    const coins: Array<MarketCoin> = []
    for (const entry of COIN_CATALOG) {
      const rate = rates.get(tokenOf(entry.symbol))
      // A coin the feed does not price is left out rather than shown at zero.
      if (rate === undefined) continue
      const metric = metrics.get(tokenOf(entry.symbol))
      coins.push({
        ...base(entry),
        price: scaled(rate.price),
        price24hAgo: scaled(rate.price / (1 + rate.ratio)),
        volume24h: metric?.volume24h == null ? null : scaled(metric.volume24h),
        marketCap: metric?.marketCap == null ? null : scaled(metric.marketCap),
      })
    }
    return { source: "feed", fiat, at: new Date(options.now()), coins }
  }

  return {
    snapshot: async (fiat: string): Promise<MarketSnapshot> => {
      const hit = cache.get(fiat)
      if (hit !== undefined && options.now() - hit.at.getTime() < cacheMs) return hit
      const fresh = await fetchSnapshot(fiat)
      cache.set(fiat, fresh)
      return fresh
    },
  }
}
