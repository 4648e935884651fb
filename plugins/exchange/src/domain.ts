/**
 * The exchange's pure rules (decision 1100), shared by the server and the mini-app: which currencies
 * trade, the quote arithmetic in integer minor units, the region config, stock trading hours and the
 * access rules of spec 1 §5/§6. Browser-safe: no server imports.
 */
import { CURRENCIES, currencyInfo, nextStockMarketOpening, stockMarketOpen, type CurrencyInfo } from "@wallet/plugin-custody/currencies"

export const EXCHANGE_MODES = ["pay", "receive"] as const
export type ExchangeMode = (typeof EXCHANGE_MODES)[number]
export const TRADING_MODES = ["buy", "sell"] as const
export type TradingMode = (typeof TRADING_MODES)[number]
export const QUOTE_STATUSES = ["OPEN", "EXECUTED", "EXPIRED"] as const
export type QuoteStatus = (typeof QUOTE_STATUSES)[number]

/** The exchange's region config (`pluginConfig.exchange`), every key optional. */
export interface ExchangeConfig {
  /** Taken off the market rate in the platform's favour, basis points (default 50 = 0.5 %). */
  readonly spreadBps: number
  /** On top of the converted amount, in the pay currency, basis points (default 10 = 0.1 %). */
  readonly feeBps: number
  /** How long a quote may be confirmed (default 15 s). */
  readonly quoteTtlMs: number
  /** The smallest and largest exchange, in US cents of what the user pays (default $1 and $10,000). */
  readonly minUsdCents: number
  readonly maxUsdCents: number
  /** The currencies offered (default: every custodial currency); any two different ones form a pair. */
  readonly currencies: ReadonlyArray<string>
  /** Countries (IP, alpha-2) where accessToExchangesByCountry is false (spec 3 §4.2; default none). */
  readonly restrictedCountries: ReadonlyArray<string>
}

export const DEFAULT_CONFIG: ExchangeConfig = {
  spreadBps: 50,
  feeBps: 10,
  quoteTtlMs: 15_000,
  minUsdCents: 100,
  maxUsdCents: 1_000_000,
  currencies: CURRENCIES.map((currency) => currency.code),
  restrictedCountries: [],
}

const int = (value: unknown, fallback: number, min: number, max: number) =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max ? value : fallback
const codes = (value: unknown, fallback: ReadonlyArray<string>) => (Array.isArray(value) ? value.filter((x): x is string => typeof x === "string") : fallback)

export const readConfig = (raw: unknown): ExchangeConfig => {
  const c = (raw ?? {}) as Record<string, unknown>
  const minUsdCents = int(c.minUsdCents, DEFAULT_CONFIG.minUsdCents, 1, 1_000_000_000)
  return {
    spreadBps: int(c.spreadBps, DEFAULT_CONFIG.spreadBps, 0, 2_000),
    feeBps: int(c.feeBps, DEFAULT_CONFIG.feeBps, 0, 2_000),
    quoteTtlMs: int(c.quoteTtlMs, DEFAULT_CONFIG.quoteTtlMs, 1_000, 600_000),
    minUsdCents,
    maxUsdCents: Math.max(minUsdCents, int(c.maxUsdCents, DEFAULT_CONFIG.maxUsdCents, 1, 100_000_000_000)),
    currencies: codes(c.currencies, DEFAULT_CONFIG.currencies).filter((code) => currencyInfo(code) !== undefined),
    restrictedCountries: codes(c.restrictedCountries, DEFAULT_CONFIG.restrictedCountries),
  }
}

/** Stock and ETF tokens (names ending in x) trade only in market hours. */
export const isStock = (code: string): boolean => {
  const category = currencyInfo(code)?.category
  return category === "stock" || category === "etf"
}

export const offered = (config: Pick<ExchangeConfig, "currencies">, code: string): CurrencyInfo | undefined =>
  config.currencies.includes(code) ? currencyInfo(code) : undefined

/** A pair is offered when both sides are offered custodial currencies and differ. */
export const pairOffered = (config: Pick<ExchangeConfig, "currencies">, pay: string, receive: string): boolean =>
  pay !== receive && offered(config, pay) !== undefined && offered(config, receive) !== undefined

// --- trading hours -------------------------------------------------------------------------------

/** Stock and ETF tokens trade in the US market's hours: custody's one rule (New York time, daylight saving). */
export const tradingOpen = stockMarketOpen
/** The next opening at or after `at` (itself when open). */
export const nextOpening = nextStockMarketOpening

/** Whether an exchange between these two currencies needs the market open. */
export const needsMarketHours = (pay: string, receive: string): boolean => isStock(pay) || isStock(receive)

// --- access (spec 1 §5/§6, spec 3 §4.2) -------------------------------------------------------

export interface AccessFacts {
  /** Custody available, not blocked, not restricted, and the canExchange permission. */
  readonly accessToExchanges: boolean
  readonly accessToExchangesByCountry: boolean
  /** The verification level as the VerificationLimits port names it (LEVEL_0..4, BLOCKED, or "none" without verification). */
  readonly level: string
  /** The Telegram client's platform (ios, macos, android, tdesktop, web ...). */
  readonly platform: string
}

export type AccessRefusal = "exchange_unavailable" | "region_restricted" | "stocks_unavailable"

/** Spec 3 §4.2: no exchange without the flag; on iOS or macOS at level 1 not without accessToExchangesByCountry. */
export const exchangeRefusal = (facts: AccessFacts): AccessRefusal | null => {
  if (!facts.accessToExchanges || facts.level === "BLOCKED") return "exchange_unavailable"
  if ((facts.platform === "ios" || facts.platform === "macos") && facts.level === "LEVEL_1" && !facts.accessToExchangesByCountry) return "region_restricted"
  return null
}

/** Spec 1 §5: stock trading below level 1, or with both access flags. */
export const stocksRefusal = (facts: AccessFacts): AccessRefusal | null =>
  facts.level === "LEVEL_0" || facts.level === "none" || (facts.accessToExchanges && facts.accessToExchangesByCountry) ? null : "stocks_unavailable"

// --- quote arithmetic ---------------------------------------------------------------------------

/** Prices are USD per whole unit, scaled by 10^12 (custody's Rates `PRICE_SCALE`). */
export interface PricedSide {
  readonly decimals: number
  readonly price: bigint
}

export interface QuoteFigures {
  /** What leaves the user's account in the pay currency: `net + fee`. */
  readonly payTotal: bigint
  /** What the house gets (converted at the rate). */
  readonly net: bigint
  /** What the platform keeps (`system:fees`), in the pay currency. */
  readonly fee: bigint
  /** What the user gets in the receive currency. */
  readonly receive: bigint
}

const BPS = 10_000n
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
const pow10 = (n: number) => 10n ** BigInt(n)

/**
 * The figures of a quote, exact in minor units, every rounding in the platform's favour:
 * receive = floor(net x payPrice x 10^dR x (1 - spread) / (receivePrice x 10^dP)); fee = ceil(net x fee bps).
 * Pay mode: `amount` is what the user pays in all (net + fee); receive mode: what the user gets.
 * Undefined when the amount buys nothing (a receive of 0) or a price is missing.
 */
export const priceQuote = (input: {
  readonly mode: ExchangeMode
  readonly amount: bigint
  readonly pay: PricedSide
  readonly receive: PricedSide
  readonly spreadBps: number
  readonly feeBps: number
}): QuoteFigures | undefined => {
  const { pay, receive } = input
  if (input.amount <= 0n || pay.price <= 0n || receive.price <= 0n) return undefined
  const spread = BPS - BigInt(input.spreadBps)
  const fee = BigInt(input.feeBps)
  // receive = net * num / den
  const num = pay.price * pow10(receive.decimals) * spread
  const den = receive.price * pow10(pay.decimals) * BPS
  if (input.mode === "pay") {
    const payTotal = input.amount
    // The largest net whose fee still fits: net + ceil(net * fee / BPS) <= payTotal.
    let net = (payTotal * BPS) / (BPS + fee)
    while (net > 0n && net + ceilDiv(net * fee, BPS) > payTotal) net -= 1n
    const feeUnits = payTotal - net
    const received = (net * num) / den
    if (net <= 0n || received <= 0n) return undefined
    return { payTotal, net, fee: feeUnits, receive: received }
  }
  const received = input.amount
  const net = ceilDiv(received * den, num)
  const feeUnits = ceilDiv(net * fee, BPS)
  return { payTotal: net + feeUnits, net, fee: feeUnits, receive: received }
}

/** Units of the receive currency per one unit of the pay currency after the spread, as a decimal string (12 places, trimmed). */
export const rateOf = (pay: PricedSide, receive: PricedSide, spreadBps: number): string => {
  const scaled = (pay.price * (BPS - BigInt(spreadBps)) * 10n ** 12n) / (receive.price * BPS)
  const whole = scaled / 10n ** 12n
  const fraction = (scaled % 10n ** 12n).toString().padStart(12, "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

/** US cents of `units` minor units at `price` (USD per unit x 10^12), rounded down. */
export const usdCentsOf = (units: bigint, side: PricedSide): bigint => (units * side.price * 100n) / (pow10(side.decimals) * 10n ** 12n)
