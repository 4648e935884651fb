/**
 * `@wallet/plugin-exchange/api`: the exchange's HTTP contract (decision 1100). Browser-safe. Every
 * endpoint needs `Authorization: Bearer <access token>`. Amounts are decimal strings in the currency's
 * unit ("1.5") with their minor units beside them ("1500000000").
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ApiId, authenticated, userText } from "@wallet/kernel/api"
import { CURRENCIES } from "@wallet/plugin-custody/currencies"
import { EXCHANGE_MODES, QUOTE_STATUSES } from "./domain.ts"

export const CurrencyCode = Schema.Literals(CURRENCIES.map((currency) => currency.code))
export const ExchangeModeSchema = Schema.Literals(EXCHANGE_MODES)
/** A positive decimal amount such as "10" or "0.25" (no sign, no exponent). */
export const AmountString = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]{0,20})(\.[0-9]{1,18})?$/, { message: "a decimal amount such as 1.5 (no sign, no exponent)" }),
)
export const QuoteUid = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { message: "a quote uid (a UUID in lower case)" }),
)
const Units = Schema.String.check(Schema.isPattern(/^(0|[1-9][0-9]*)$/))

export const ExchangeCurrency = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  decimals: Schema.Number,
  category: Schema.String,
  /** Stock and ETF tokens trade only in market hours. */
  marketHours: Schema.Boolean,
})

export const ExchangeSettings = Schema.Struct({
  currencies: Schema.Array(ExchangeCurrency),
  minUsdCents: Schema.Number,
  maxUsdCents: Schema.Number,
  quoteTtlMs: Schema.Number,
  spreadBps: Schema.Number,
  feeBps: Schema.Number,
  /** By the server's clock: whether stock tokens trade now, and when they next do (ISO). */
  marketOpen: Schema.Boolean,
  nextMarketOpening: Schema.String,
  serverTime: Schema.String,
})
export type ExchangeSettings = typeof ExchangeSettings.Type

export const Quote = Schema.Struct({
  uid: Schema.String,
  payCurrency: Schema.String,
  receiveCurrency: Schema.String,
  exchangeMode: ExchangeModeSchema,
  /** What leaves the user's account in all (the fee included). */
  payAmount: Schema.String,
  payUnits: Units,
  receiveAmount: Schema.String,
  receiveUnits: Units,
  fee: Schema.String,
  feeUnits: Units,
  /** Receive-currency units per pay-currency unit after the spread. */
  rate: Schema.String,
  spreadBps: Schema.Number,
  feeBps: Schema.Number,
  status: Schema.Literals(QUOTE_STATUSES),
  createdAt: Schema.String,
  expiresAt: Schema.String,
  /** The server's clock when it answered: the screen counts down `expiresAt - serverTime`. */
  serverTime: Schema.String,
  /** The user's balance of the pay currency is below `payAmount` (confirming would be refused). */
  insufficientBalance: Schema.Boolean,
  /** Sandbox prices are labelled as such (custody's Rates without a feed). */
  sandbox: Schema.Boolean,
})
export type Quote = typeof Quote.Type

export const QuoteRequest = Schema.Struct({
  payCurrency: CurrencyCode,
  receiveCurrency: CurrencyCode,
  exchangeMode: ExchangeModeSchema,
  /** In the pay currency (pay mode) or the receive currency (receive mode). */
  amount: AmountString,
  /** The Telegram client's platform (ios, macos, android, ...): the iOS/macOS level-1 rule. */
  platform: Schema.optional(userText({ maxLength: 32 })),
})
export type QuoteRequest = typeof QuoteRequest.Type

export const UidRequest = Schema.Struct({ uid: QuoteUid, platform: Schema.optional(userText({ maxLength: 32 })) })

export const Executed = Schema.Struct({ quote: Quote, transactionId: Schema.String })
export type Executed = typeof Executed.Type

export const REFUSAL_CODES = [
  "pair_not_offered",
  "invalid_amount",
  "amount_too_small",
  "amount_too_large",
  "insufficient_balance",
  "insufficient_liquidity",
  "trading_closed",
  "rates_unavailable",
] as const
export type RefusalCode = (typeof REFUSAL_CODES)[number]

export class ExchangeRefused extends Schema.TaggedError<ExchangeRefused>()(
  "ExchangeRefused",
  {
    code: Schema.Literals(REFUSAL_CODES),
    message: Schema.String,
    /** amount_too_small / amount_too_large: the bound in the amount's currency; trading_closed: the next opening (ISO). */
    limit: Schema.optional(Schema.String),
    nextOpening: Schema.optional(Schema.String),
  },
  { httpApiStatus: 400, description: "Refused; `code` says why and nothing moved" },
) {}

export class ExchangeForbidden extends Schema.TaggedError<ExchangeForbidden>()(
  "ExchangeForbidden",
  { code: Schema.Literals(["exchange_unavailable", "region_restricted", "stocks_unavailable"]), message: Schema.String },
  { httpApiStatus: 403, description: "The exchange (or stock trading) is closed to this user; region_restricted shows the region popup" },
) {}

export class ExchangeNotFound extends Schema.TaggedError<ExchangeNotFound>()(
  "ExchangeNotFound",
  { code: Schema.Literals(["quote_not_found"]), message: Schema.String },
  { httpApiStatus: 404 },
) {}

export class ExchangeConflict extends Schema.TaggedError<ExchangeConflict>()(
  "ExchangeConflict",
  { code: Schema.Literals(["quote_expired"]), message: Schema.String, fresh: Schema.optional(Quote) },
  { httpApiStatus: 409, description: "The quote expired unconfirmed (nothing moved); `fresh` is a new quote for the same request to confirm" },
) {}

const Errors = [ExchangeRefused, ExchangeForbidden, ExchangeNotFound, ExchangeConflict] as const

export const ExchangeGroup = authenticated(
  HttpApiGroup.make("exchange").add(
    HttpApiEndpoint.get("settings", "/api/exchange/settings", { success: ExchangeSettings }),
    HttpApiEndpoint.post("quote", "/api/exchange/quote", { payload: QuoteRequest, success: Quote, error: Errors }),
    HttpApiEndpoint.post("getQuote", "/api/exchange/quote/get", { payload: UidRequest, success: Quote, error: Errors }),
    HttpApiEndpoint.post("confirm", "/api/exchange/confirm", { payload: UidRequest, success: Executed, error: Errors }),
  ),
)

export const ExchangeApi = HttpApi.make(ApiId).add(ExchangeGroup)
