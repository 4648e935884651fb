/**
 * `Rates`: prices of custodial currencies in any fiat, their 24h change and chart series
 * (spec 1 §7 "Rates", "Asset charts"). Two layers behind one interface:
 * - sandbox (default): deterministic per seed, prices drift over time (smooth seeded noise at
 *   several time scales), so a clock and a seed give the same prices on every process;
 * - feed: a tonapi `/v2/rates` compatible URL (`rates.feedUrl` in the region's custody config).
 * Prices are bigint scaled by `PRICE_SCALE` (12 decimals); display only, never used to move money.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { ServerConfig } from "@wallet/kernel-server"
import type { ChartPeriod } from "../../api.ts"
import { CURRENCIES } from "../../currencies.ts"
import { FIAT_BASE_RATES } from "./fiat.ts"
import { catalogCoin } from "./catalog.ts"
import { makeFeedMarket, marketMethods, sandboxSnapshot, type MarketShape } from "./market.ts"

export const PRICE_DECIMALS = 12
export const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS)

export interface Quote {
  /** Fiat per one unit of the currency now, scaled by PRICE_SCALE. */
  readonly price: bigint
  /** The same 24 hours earlier. */
  readonly price24hAgo: bigint
}

export interface ChartSample {
  readonly time: Date
  readonly price: bigint
}

export class RatesUnavailable extends Schema.TaggedError<RatesUnavailable>()("RatesUnavailable", { message: Schema.String }) {}

/** Quotes and charts of the custodial currencies, plus the catalog's market data (./market.ts, issue 22). */
export interface RatesShape extends MarketShape<RatesUnavailable> {
  /** Quotes in `fiat` for the known currencies among `currencies` (unknown ones are left out). */
  readonly quotes: (currencies: ReadonlyArray<string>, fiat: string) => Effect.Effect<ReadonlyMap<string, Quote>, RatesUnavailable>
  /** Oldest first; the last sample is now. */
  readonly chart: (currency: string, fiat: string, period: ChartPeriod) => Effect.Effect<ReadonlyArray<ChartSample>, RatesUnavailable>
  /** Whether `code` is a fiat currency this feed prices. */
  readonly isFiat: (code: string) => boolean
}

export class Rates extends Context.Service<Rates, RatesShape>()("wallet/custody/Rates") {
  /** Sandbox unless the region's custody config names a feed (`rates: { feedUrl, tokens }`). */
  static readonly layer: Layer.Layer<Rates, never, ServerConfig> = Layer.effect(
    Rates,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const custody = (config.pluginConfig.custody ?? {}) as { rates?: { feedUrl?: unknown; tokens?: unknown; seed?: unknown; jettonMetricsUrl?: unknown } }
      const rates = custody.rates ?? {}
      if (typeof rates.feedUrl === "string" && rates.feedUrl.length > 0) {
        return makeFeedRates({
          url: rates.feedUrl,
          tokens: (rates.tokens ?? {}) as Record<string, string>,
          now: config.now,
          ...(typeof rates.jettonMetricsUrl === "string" ? { jettonMetricsUrl: rates.jettonMetricsUrl } : {}),
        })
      }
      return makeSandboxRates({ seed: typeof rates.seed === "number" ? rates.seed : 1, now: config.now })
    }),
  )
}

// --- numbers ---------------------------------------------------------------------------------

/** A positive float price to the scaled integer form (deterministic; display precision). */
export const toScaled = (value: number): bigint => (Number.isFinite(value) && value > 0 ? BigInt(Math.round(value * 1e12)) : 0n)

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Sample spacing and count per chart period. */
export const CHART_STEPS: Readonly<Record<ChartPeriod, { readonly step: number; readonly count: number }>> = {
  day: { step: 15 * MINUTE, count: 96 },
  week: { step: HOUR, count: 168 },
  month: { step: 6 * HOUR, count: 120 },
  year: { step: 2 * DAY, count: 183 },
  all: { step: 7 * DAY, count: 157 },
}

/** Sample times: `count` aligned steps before now, then now. */
export const chartTimes = (period: ChartPeriod, now: number): ReadonlyArray<number> => {
  const { step, count } = CHART_STEPS[period]
  const last = Math.floor(now / step) * step
  const times: Array<number> = []
  for (let i = count - 1; i >= 0; i--) times.push(last - i * step)
  if (times[times.length - 1] !== now) times.push(now)
  return times
}

// --- sandbox ---------------------------------------------------------------------------------

/** Base USD prices of the sandbox; a currency not listed gets a seeded one between 0.01 and 10. */
const SANDBOX_USD: Readonly<Record<string, number>> = {
  TON: 5.4,
  USDT: 1,
  BTC: 95_000,
  ETH: 3_400,
  XAUT: 2_650,
  SOL: 180,
  NOT: 0.0065,
  DOGS: 0.0005,
  HMSTR: 0.0028,
  X: 0.00018,
  MAJOR: 0.35,
  CATI: 0.32,
  TSLAx: 340,
  SPYx: 590,
}
/** Stable coins barely move. */
const STABLE = new Set(["USDT"])

/** FNV-1a over a string to a uniform number in [-1, 1). */
const hashUnit = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 15
  h = Math.imul(h, 0x2c1b3c6d)
  h ^= h >>> 12
  return ((h >>> 0) / 0x1_0000_0000) * 2 - 1
}

/** Smooth value noise: seeded values at multiples of `period`, cosine-interpolated between them. */
const noise = (key: string, t: number, period: number): number => {
  const x = t / period
  const i = Math.floor(x)
  const f = x - i
  const a = hashUnit(`${key}:${period}:${i}`)
  const b = hashUnit(`${key}:${period}:${i + 1}`)
  const w = (1 - Math.cos(f * Math.PI)) / 2
  return a * (1 - w) + b * w
}

const CRYPTO_SCALES: ReadonlyArray<readonly [number, number]> = [
  [HOUR, 0.006],
  [DAY, 0.035],
  [30 * DAY, 0.18],
  [365 * DAY, 0.45],
]
const STABLE_SCALES: ReadonlyArray<readonly [number, number]> = [
  [HOUR, 0.0004],
  [DAY, 0.0008],
]
/** Catalog coins pegged to a fiat or a metal (USDC, DAI): a 24 h change never reaches 0.02 %. */
const PEG_SCALES: ReadonlyArray<readonly [number, number]> = [
  [HOUR, 0.00003],
  [DAY, 0.00005],
]
const FIAT_SCALES: ReadonlyArray<readonly [number, number]> = [
  [DAY, 0.003],
  [30 * DAY, 0.02],
]

const drift = (key: string, t: number, scales: ReadonlyArray<readonly [number, number]>): number =>
  Math.exp(scales.reduce((sum, [period, amplitude]) => sum + amplitude * noise(key, t, period), 0))

export interface SandboxOptions {
  readonly seed: number
  readonly now: () => number
}

/** Deterministic drifting prices: equal seeds and times give equal prices. */
export const makeSandboxRates = (options: SandboxOptions): RatesShape => {
  const known = new Set(CURRENCIES.map((currency) => currency.code))
  const usdBase = (code: string) => SANDBOX_USD[code] ?? catalogCoin(code)?.usd ?? 0.01 * Math.pow(1000, (hashUnit(`${options.seed}:base:${code}`) + 1) / 2)
  const scalesOf = (code: string) => (STABLE.has(code) ? STABLE_SCALES : catalogCoin(code)?.pegged === true ? PEG_SCALES : CRYPTO_SCALES)
  const usdAt = (code: string, t: number) => usdBase(code) * drift(`${options.seed}:${code}`, t, scalesOf(code))
  const fiatPerUsdAt = (fiat: string, t: number) => (fiat === "USD" ? 1 : FIAT_BASE_RATES.get(fiat)! * drift(`${options.seed}:fiat:${fiat}`, t, FIAT_SCALES))
  const priceAt = (code: string, fiat: string, t: number) => toScaled(usdAt(code, t) * fiatPerUsdAt(fiat, t))
  const isFiat = (code: string) => FIAT_BASE_RATES.has(code)

  return {
    ...marketMethods((fiat) =>
      isFiat(fiat)
        ? Effect.sync(() => sandboxSnapshot({ priceAt, wobble: (key, t) => noise(`${options.seed}:${key}`, t, DAY), now: options.now(), fiat }))
        : Effect.fail(new RatesUnavailable({ message: `no market data in ${fiat}` })),
    ),
    isFiat,
    quotes: (currencies, fiat) =>
      Effect.suspend(() => {
        if (!isFiat(fiat)) return Effect.fail(new RatesUnavailable({ message: `no rates in ${fiat}` }))
        const now = options.now()
        const out = new Map<string, Quote>()
        for (const code of currencies) {
          if (!known.has(code)) continue
          out.set(code, { price: priceAt(code, fiat, now), price24hAgo: priceAt(code, fiat, now - DAY) })
        }
        return Effect.succeed(out)
      }),
    chart: (currency, fiat, period) =>
      Effect.suspend(() => {
        if (!isFiat(fiat) || !known.has(currency)) return Effect.fail(new RatesUnavailable({ message: `no chart for ${currency} in ${fiat}` }))
        return Effect.succeed(chartTimes(period, options.now()).map((t) => ({ time: new Date(t), price: priceAt(currency, fiat, t) })))
      }),
  }
}

// --- feed (tonapi /v2/rates compatible) ------------------------------------------------------

export interface FeedOptions {
  /** Base URL of a tonapi-compatible API (e.g. https://tonapi.io); `/v2/rates` is appended. */
  readonly url: string
  /** Feed token id per currency code (TON -> "ton", USDT -> its jetton master); default: the lower-case code. */
  readonly tokens: Readonly<Record<string, string>>
  readonly now: () => number
  /** Seconds a fetched quote is reused (default 60, the spec's assets stale time). */
  readonly cacheSeconds?: number
  readonly fetch?: typeof globalThis.fetch
  /** Jetton metrics (volume, market cap) of the TON assets: a POST endpoint (./market.ts). */
  readonly jettonMetricsUrl?: string
}

const FeedRates = Schema.Struct({
  rates: Schema.Record(
    Schema.String,
    Schema.Struct({
      prices: Schema.optionalKey(Schema.Record(Schema.String, Schema.Number)),
      diff_24h: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
    }),
  ),
})
const FeedChart = Schema.Struct({ points: Schema.Array(Schema.Tuple([Schema.Number, Schema.Number])) })

/** "+1.25%" / "-0.4%" / "−2%" to a ratio. */
const parseDiff = (diff: string | undefined): number => {
  if (diff === undefined) return 0
  const value = Number(diff.replace("\u2212", "-").replace("%", "").trim())
  return Number.isFinite(value) ? value / 100 : 0
}

export const makeFeedRates = (options: FeedOptions): RatesShape => {
  const doFetch = options.fetch ?? globalThis.fetch
  const cacheMs = (options.cacheSeconds ?? 60) * 1000
  const cache = new Map<string, { at: number; quote: Quote | undefined }>()
  const tokenOf = (code: string) => options.tokens[code] ?? code.toLowerCase()
  const base = options.url.replace(/\/+$/, "")
  const known = new Set(CURRENCIES.map((currency) => currency.code))
  const market = makeFeedMarket(options)

  const getJson = <S extends Schema.Top>(path: string, schema: S) =>
    Effect.tryPromise({
      try: async () => {
        const response = await doFetch(`${base}${path}`, { headers: { accept: "application/json" } })
        if (!response.ok) throw new Error(`rates feed answered ${response.status}`)
        return (await response.json()) as unknown
      },
      catch: (error) => new RatesUnavailable({ message: `rates feed: ${String(error)}` }),
    }).pipe(
      Effect.flatMap((body) => Schema.decodeUnknownEffect(schema)(body)),
      Effect.mapError((error) =>
        error instanceof RatesUnavailable ? error : new RatesUnavailable({ message: `rates feed: unexpected answer (${String(error)})` }),
      ),
    ) as Effect.Effect<S["Type"], RatesUnavailable>

  return {
    ...marketMethods((fiat) =>
      Effect.tryPromise({
        try: () => market.snapshot(fiat),
        catch: (error) => new RatesUnavailable({ message: `market feed: ${String(error)}` }),
      }),
    ),
    isFiat: (code) => FIAT_BASE_RATES.has(code),
    quotes: (currencies, fiat) =>
      Effect.gen(function* () {
        const now = options.now()
        const out = new Map<string, Quote>()
        const missing = currencies.filter((code) => {
          if (!known.has(code)) return false
          const hit = cache.get(`${code}:${fiat}`)
          if (hit !== undefined && now - hit.at < cacheMs) {
            if (hit.quote !== undefined) out.set(code, hit.quote)
            return false
          }
          return true
        })
        if (missing.length > 0) {
          const tokens = missing.map(tokenOf)
          const body = yield* getJson(
            `/v2/rates?tokens=${encodeURIComponent(tokens.join(","))}&currencies=${encodeURIComponent(fiat.toLowerCase())}`,
            FeedRates,
          )
          missing.forEach((code, index) => {
            const entry = body.rates[tokens[index]!]
            const price = entry?.prices?.[fiat] ?? entry?.prices?.[fiat.toLowerCase()]
            let quote: Quote | undefined
            if (price !== undefined) {
              const ratio = parseDiff(entry?.diff_24h?.[fiat] ?? entry?.diff_24h?.[fiat.toLowerCase()])
              quote = { price: toScaled(price), price24hAgo: toScaled(price / (1 + ratio)) }
              out.set(code, quote)
            }
            cache.set(`${code}:${fiat}`, { at: now, quote })
          })
        }
        return out
      }),
    chart: (currency, fiat, period) =>
      Effect.gen(function* () {
        const now = options.now()
        const { step, count } = CHART_STEPS[period]
        const start = Math.floor((now - step * count) / 1000)
        const body = yield* getJson(
          `/v2/rates/chart?token=${encodeURIComponent(tokenOf(currency))}&currency=${encodeURIComponent(fiat.toLowerCase())}&start_date=${start}&end_date=${Math.floor(now / 1000)}&points_count=${Math.min(200, count)}`,
          FeedChart,
        )
        return [...body.points].sort((a, b) => a[0] - b[0]).map(([seconds, price]) => ({ time: new Date(seconds * 1000), price: toScaled(price) }))
      }),
  }
}
