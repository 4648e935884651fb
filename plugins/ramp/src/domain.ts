/**
 * The ramp's pure rules (spec 1 §3 "Ramp routing", "Payment method identifiers", §5 "Available payment
 * methods", issue 23): which provider buys or sells which currency on which network, the payment
 * methods per direction and fiat, the providers' fiat currencies and limits, the default fiat, and the
 * ramp transaction's statuses. No I/O: the server and the screens read the same rules.
 */
import { fiatOfCountry, isFiat } from "./fiat.ts"

export { FIATS, FIAT_CODES, isFiat, fiatOfCountry, countryOfFiat, type FiatInfo } from "./fiat.ts"

export const PROVIDERS = ["moonpay", "mercuryo"] as const
export type Provider = (typeof PROVIDERS)[number]
export const DIRECTIONS = ["buy", "sell"] as const
export type Direction = (typeof DIRECTIONS)[number]
export const INPUT_MODES = ["crypto", "fiat"] as const
export type InputMode = (typeof INPUT_MODES)[number]

/** Spec 1 §3: the payment method identifiers of the card providers. */
export const PAYMENT_METHODS = [
  "card",
  "google_pay",
  "apple_pay",
  "revolut_pay",
  "pix",
  "bni",
  "bri",
  "qris",
  "dana",
  "linkaja",
  "ovo",
  "shopeepay",
  "permata",
  "instapay_qrph",
  "interac_gk",
  "mandiri",
  "volt_banktransfer_eur",
  "sepa",
] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** Ramp transaction statuses (the wallet's own, whatever the provider calls them). */
export const RAMP_STATUSES = ["CREATED", "PENDING", "COMPLETED", "FAILED"] as const
export type RampStatus = (typeof RAMP_STATUSES)[number]
export const isFinal = (status: RampStatus): boolean => status === "COMPLETED" || status === "FAILED"
const RANK: Readonly<Record<RampStatus, number>> = { CREATED: 0, PENDING: 1, COMPLETED: 2, FAILED: 2 }
/** Whether a row may move from `from` to `to` (only forward; a final status never changes). */
export const canMove = (from: RampStatus, to: RampStatus): boolean => !isFinal(from) && RANK[to] > RANK[from]

/** The fixed ramp network list (spec 1 §2 off-ramp choose-asset `assetNetwork`). */
export const RAMP_NETWORKS = ["ton"] as const
export type RampNetwork = (typeof RAMP_NETWORKS)[number]

/** The ramp currency list: what the status page and the routes accept as `currency`. */
export const RAMP_CURRENCIES = ["TON", "USDT"] as const
export type RampCurrency = (typeof RAMP_CURRENCIES)[number]
export const isRampCurrency = (code: string): code is RampCurrency => (RAMP_CURRENCIES as ReadonlyArray<string>).includes(code)

export interface RouteConfig {
  /** The preferred provider (listed first on the provider screen). */
  readonly provider: Provider
  readonly providers: ReadonlyArray<Provider>
  readonly networks: ReadonlyArray<RampNetwork>
  readonly featureFlags: ReadonlyArray<string>
}

export interface RampRouting {
  readonly buy: Readonly<Record<string, RouteConfig>>
  readonly sell: Readonly<Record<string, RouteConfig>>
}

/** Spec 1 §3 "Ramp routing": buy through MoonPay first, Mercuryo second; sell through MoonPay. */
export const RAMP_ROUTING: RampRouting = {
  buy: {
    TON: { provider: "moonpay", providers: ["moonpay", "mercuryo"], networks: ["ton"], featureFlags: ["fiat_input", "crypto_input"] },
    USDT: { provider: "moonpay", providers: ["moonpay", "mercuryo"], networks: ["ton"], featureFlags: ["fiat_input", "crypto_input"] },
  },
  sell: {
    TON: { provider: "moonpay", providers: ["moonpay"], networks: ["ton"], featureFlags: ["crypto_input"] },
    USDT: { provider: "moonpay", providers: ["moonpay"], networks: ["ton"], featureFlags: ["crypto_input"] },
  },
}

export const routeOf = (direction: Direction, currency: string): RouteConfig | undefined => RAMP_ROUTING[direction][currency]
export const offers = (direction: Direction, currency: string, provider: Provider, network: string = "ton"): boolean => {
  const route = routeOf(direction, currency)
  return route !== undefined && route.providers.includes(provider) && (route.networks as ReadonlyArray<string>).includes(network)
}

/** The provider's code of a crypto currency on a network (MoonPay `ton`, `usdt_ton`; Mercuryo `TON`, `USDT`). */
export const providerCurrencyCode = (provider: Provider, currency: RampCurrency): string =>
  provider === "moonpay" ? (currency === "TON" ? "ton" : "usdt_ton") : currency

/**
 * A provider's fiat currency: the limits of one purchase (or sale) in that fiat, and whether the
 * provider flags it restricted (listed by the provider, not offered to our users).
 */
export interface ProviderFiat {
  readonly code: string
  readonly min: string
  readonly max: string
  readonly restricted: boolean
}

/** Approximate units per US dollar, only to scale a provider's USD limits to a fiat (rounded to a readable figure). */
const UNITS_PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 1,
  GBP: 1,
  CHF: 1,
  CAD: 1.5,
  AUD: 1.5,
  NZD: 1.5,
  SGD: 1.5,
  PLN: 4,
  CZK: 25,
  SEK: 10,
  NOK: 10,
  DKK: 7,
  HUF: 400,
  RON: 5,
  BGN: 2,
  TRY: 35,
  UAH: 40,
  KZT: 500,
  GEL: 3,
  AMD: 400,
  AZN: 2,
  INR: 85,
  IDR: 16000,
  PHP: 60,
  THB: 35,
  VND: 25000,
  MYR: 5,
  JPY: 150,
  KRW: 1400,
  HKD: 8,
  TWD: 32,
  BRL: 6,
  MXN: 20,
  ARS: 1000,
  COP: 4000,
  CLP: 950,
  PEN: 4,
  ZAR: 18,
  NGN: 1600,
  KES: 130,
  EGP: 50,
  ILS: 4,
  AED: 4,
  SAR: 4,
  QAR: 4,
}

interface ProviderTable {
  readonly buy: { readonly minUsd: number; readonly maxUsd: number; readonly fiats: ReadonlyArray<string> }
  readonly sell?: { readonly minUsd: number; readonly maxUsd: number; readonly fiats: ReadonlyArray<string> }
  /** Listed by the provider and flagged restricted: never offered. */
  readonly restricted: ReadonlyArray<string>
  /** Crypto limits of one transaction, in whole units. */
  readonly crypto: Readonly<Record<RampCurrency, { readonly min: string; readonly max: string }>>
}

const MAJOR = Object.keys(UNITS_PER_USD)

/** The providers' own tables (their currency APIs in production; the sandboxes behave the same). */
export const PROVIDER_TABLES: Readonly<Record<Provider, ProviderTable>> = {
  moonpay: {
    buy: { minUsd: 20, maxUsd: 5_000, fiats: MAJOR.filter((code) => code !== "UAH" && code !== "KZT") },
    sell: { minUsd: 20, maxUsd: 10_000, fiats: ["USD", "EUR", "GBP", "CHF", "PLN", "CZK", "SEK", "NOK", "DKK", "CAD", "AUD", "BRL"] },
    restricted: ["NGN", "EGP"],
    crypto: { TON: { min: "1", max: "5000" }, USDT: { min: "5", max: "20000" } },
  },
  mercuryo: {
    buy: { minUsd: 20, maxUsd: 5_000, fiats: MAJOR },
    restricted: ["ARS"],
    crypto: { TON: { min: "0.5", max: "3000" }, USDT: { min: "2", max: "10000" } },
  },
}

const readable = (value: number): string => {
  if (value < 10) return String(Math.ceil(value))
  const digits = Math.floor(Math.log10(value))
  const step = 10 ** Math.max(0, digits - 1)
  return String(Math.ceil(value / step) * step)
}

/** A provider's fiat list for a direction, with limits; `restricted` marks those it lists but does not offer. */
export const providerFiats = (provider: Provider, direction: Direction): ReadonlyArray<ProviderFiat> => {
  const table = PROVIDER_TABLES[provider]
  const side = direction === "buy" ? table.buy : table.sell
  if (side === undefined) return []
  return side.fiats.concat(table.restricted.filter((code) => !side.fiats.includes(code))).map((code) => {
    const rate = UNITS_PER_USD[code] ?? 1
    return { code, min: readable(side.minUsd * rate), max: readable(Math.floor(side.maxUsd * rate)), restricted: table.restricted.includes(code) }
  })
}

/** Spec 1 §5: the payment currency list of one provider excludes those flagged restricted. */
export const paymentCurrencies = (provider: Provider, direction: Direction): ReadonlyArray<ProviderFiat> =>
  providerFiats(provider, direction).filter((fiat) => !fiat.restricted)

export const fiatLimits = (provider: Provider, direction: Direction, fiat: string): ProviderFiat | undefined =>
  paymentCurrencies(provider, direction).find((entry) => entry.code === fiat)

export const cryptoLimits = (provider: Provider, currency: RampCurrency) => PROVIDER_TABLES[provider].crypto[currency]

/** The fiats any provider offers in a direction (after restrictions). */
export const supportedFiats = (direction: Direction): ReadonlyArray<string> => [
  ...new Set(PROVIDERS.flatMap((provider) => paymentCurrencies(provider, direction).map((fiat) => fiat.code))),
]

const LOCAL_METHODS: Readonly<Record<string, ReadonlyArray<PaymentMethod>>> = {
  EUR: ["sepa", "volt_banktransfer_eur", "revolut_pay"],
  GBP: ["revolut_pay"],
  BRL: ["pix"],
  IDR: ["qris", "dana", "ovo", "shopeepay", "linkaja", "bni", "bri", "mandiri", "permata"],
  PHP: ["instapay_qrph"],
  CAD: ["interac_gk"],
}

export type PaymentMethodsAnswer =
  | { readonly ok: true; readonly methods: ReadonlyArray<PaymentMethod> }
  | { readonly ok: false; readonly code: "unsupported_fiat_currency" }

/**
 * Spec 1 §5 "Available payment methods" per direction and fiat: cards and wallets for every offered
 * fiat, local methods where the fiat has them (sell pays out to a card or SEPA). A fiat no provider
 * offers in that direction is `unsupported_fiat_currency` (the screens show an empty list).
 */
export const paymentMethods = (direction: Direction, fiat: string): PaymentMethodsAnswer => {
  if (!isFiat(fiat) || !supportedFiats(direction).includes(fiat)) return { ok: false, code: "unsupported_fiat_currency" }
  if (direction === "sell") return { ok: true, methods: fiat === "EUR" ? ["card", "sepa"] : ["card"] }
  return { ok: true, methods: ["card", "apple_pay", "google_pay", ...(LOCAL_METHODS[fiat] ?? [])] }
}

/** The methods list the screens show: an unsupported fiat is an empty list. */
export const methodsOrEmpty = (answer: PaymentMethodsAnswer): ReadonlyArray<PaymentMethod> => (answer.ok ? answer.methods : [])

/** Which providers take a payment method (card-like methods: both; local ones: MoonPay; bank transfers: Mercuryo too). */
export const providersOfMethod = (direction: Direction, method: PaymentMethod, fiat: string): ReadonlyArray<Provider> =>
  PROVIDERS.filter((provider) => {
    if (fiatLimits(provider, direction, fiat) === undefined) return false
    if (method === "card" || method === "apple_pay" || method === "google_pay") return true
    if (method === "sepa") return true
    return provider === "moonpay"
  })

/**
 * Spec 1 §2 /purchase-options: the default fiat is the first recent purchase fiat, else the one of
 * the user's country, else EUR (each only if it is in the fixed list).
 */
export const defaultFiat = (recentPurchaseFiats: ReadonlyArray<string>, country: string | null | undefined): string => {
  const recent = recentPurchaseFiats.find((code) => isFiat(code))
  if (recent !== undefined) return recent
  const local = fiatOfCountry(country)
  return local !== undefined && isFiat(local) ? local : "EUR"
}

/** A decimal amount such as "10" or "0.25" (no sign, no exponent). */
export const AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,15})(\.[0-9]{1,18})?$/

/** Compares two non-negative decimal strings (-1, 0, 1) without floats. */
export const compareDecimal = (a: string, b: string): number => {
  const [ai = "0", af = ""] = a.split(".")
  const [bi = "0", bf = ""] = b.split(".")
  const width = Math.max(af.length, bf.length)
  const x = BigInt(ai + af.padEnd(width, "0"))
  const y = BigInt(bi + bf.padEnd(width, "0"))
  return x < y ? -1 : x > y ? 1 : 0
}

export type LimitCheck = { readonly ok: true } | { readonly ok: false; readonly code: "amount_too_small" | "amount_too_large"; readonly limit: string }

export const withinLimits = (amount: string, limits: { readonly min: string; readonly max: string }): LimitCheck =>
  compareDecimal(amount, limits.min) < 0
    ? { ok: false, code: "amount_too_small", limit: limits.min }
    : compareDecimal(amount, limits.max) > 0
      ? { ok: false, code: "amount_too_large", limit: limits.max }
      : { ok: true }

/** A provider amount (MoonPay sends numbers) as a decimal string with at most `decimals` digits, or undefined. */
export const decimalOf = (value: unknown, decimals: number): string | undefined => {
  const text =
    typeof value === "number" ? (Number.isFinite(value) && value >= 0 ? value.toFixed(Math.min(decimals, 20)) : "") : typeof value === "string" ? value : ""
  const match = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(text)
  if (match === null) return undefined
  const fraction = (match[2] ?? "").slice(0, decimals).replace(/0+$/, "")
  return fraction.length > 0 ? `${match[1]}.${fraction}` : match[1]!
}

/** MoonPay's buy and sell statuses, Mercuryo's buy statuses, as the wallet's. */
export const moonpayStatus = (status: string): RampStatus | undefined =>
  status === "completed"
    ? "COMPLETED"
    : status === "failed"
      ? "FAILED"
      : status === "pending" || status === "waitingAuthorization" || status === "waitingPayment" || status === "waitingForDeposit"
        ? "PENDING"
        : undefined
export const mercuryoStatus = (status: string): RampStatus | undefined =>
  status === "succeeded"
    ? "COMPLETED"
    : status === "failed" || status === "cancelled"
      ? "FAILED"
      : status === "new" || status === "pending" || status === "paid"
        ? "PENDING"
        : undefined

/** The gateway of a ramp movement (custody's history): MoonPay buys are onramp, Mercuryo's card; sells offramp. */
export const gatewayOf = (provider: Provider, direction: Direction): "onramp" | "card" | "offramp" =>
  direction === "sell" ? "offramp" : provider === "moonpay" ? "onramp" : "card"
