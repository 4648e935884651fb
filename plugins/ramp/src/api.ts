/**
 * `@wallet/plugin-ramp/api`: the ramp's HTTP contract (issue 23). Browser-safe. Every endpoint needs
 * `Authorization: Bearer <access token>`; the providers' webhooks (`/api/ramp/webhooks/moonpay` and
 * `/mercuryo`) are plain routes of the server module, verified by their signatures. Amounts are
 * decimal strings ("25", "1.5").
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ApiId, authenticated } from "@wallet/kernel/api"
import { AMOUNT_PATTERN, DIRECTIONS, INPUT_MODES, PAYMENT_METHODS, PROVIDERS, RAMP_CURRENCIES, RAMP_NETWORKS, RAMP_STATUSES } from "./domain.ts"

export const ProviderSchema = Schema.Literals(PROVIDERS)
export const DirectionSchema = Schema.Literals(DIRECTIONS)
export const RampCurrencySchema = Schema.Literals(RAMP_CURRENCIES)
export const RampNetworkSchema = Schema.Literals(RAMP_NETWORKS)
export const PaymentMethodSchema = Schema.Literals(PAYMENT_METHODS)
export const InputModeSchema = Schema.Literals(INPUT_MODES)
export const FiatCode = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "a three-letter fiat code (ISO 4217)" }))
export const AmountString = Schema.String.check(Schema.isPattern(AMOUNT_PATTERN, { message: "a decimal amount such as 25 or 1.5 (no sign, no exponent)" }))
export const RampId = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { message: "a ramp transaction id (a UUID in lower case)" }),
)
/** Where the provider sends the user back: an http(s) URL of the mini-app. */
export const ReturnUrl = Schema.String.check(Schema.isPattern(/^https?:\/\/[^\s]{1,500}$/, { message: "an http(s) URL" }), Schema.isMaxLength(500))

export const RouteConfigSchema = Schema.Struct({
  provider: ProviderSchema,
  providers: Schema.Array(ProviderSchema),
  networks: Schema.Array(RampNetworkSchema),
  featureFlags: Schema.Array(Schema.String),
})
export const RampRoutingSchema = Schema.Struct({
  buy: Schema.Record(Schema.String, RouteConfigSchema),
  sell: Schema.Record(Schema.String, RouteConfigSchema),
})
export type RampRoutingAnswer = typeof RampRoutingSchema.Type

export const RampOptions = Schema.Struct({
  /** Spec 1 §2: first recent purchase fiat, else the country's, else EUR. */
  defaultFiat: Schema.String,
  recentFiats: Schema.Array(Schema.String),
  country: Schema.NullOr(Schema.String),
  /** Every fiat some provider takes for a purchase, and for a sale. */
  buyFiats: Schema.Array(Schema.String),
  sellFiats: Schema.Array(Schema.String),
})
export type RampOptions = typeof RampOptions.Type

export const PaymentMethodsQuery = Schema.Struct({ direction: DirectionSchema, fiatCurrency: FiatCode })
export const PaymentMethodsAnswerSchema = Schema.Struct({
  direction: DirectionSchema,
  fiatCurrency: Schema.String,
  methods: Schema.Array(Schema.Struct({ id: PaymentMethodSchema, providers: Schema.Array(ProviderSchema) })),
})
export type PaymentMethodsView = typeof PaymentMethodsAnswerSchema.Type

export const PaymentCurrenciesQuery = Schema.Struct({ provider: ProviderSchema, direction: DirectionSchema })
export const PaymentCurrencies = Schema.Struct({
  provider: ProviderSchema,
  direction: DirectionSchema,
  fiats: Schema.Array(Schema.Struct({ code: Schema.String, min: Schema.String, max: Schema.String })),
})
export type PaymentCurrencies = typeof PaymentCurrencies.Type

export const QuoteRequest = Schema.Struct({
  direction: DirectionSchema,
  currency: RampCurrencySchema,
  network: RampNetworkSchema,
  fiatCurrency: FiatCode,
  /** In the crypto currency (inputMode crypto) or the fiat (inputMode fiat). */
  amount: AmountString,
  inputMode: InputModeSchema,
})
export type QuoteRequest = typeof QuoteRequest.Type

export const Offer = Schema.Struct({
  provider: ProviderSchema,
  fiatAmount: Schema.String,
  cryptoAmount: Schema.String,
  fiatMin: Schema.String,
  fiatMax: Schema.String,
  /** null: inside the provider's limits; else why not. */
  refusal: Schema.NullOr(Schema.Literals(["amount_too_small", "amount_too_large"])),
})
export const Quote = Schema.Struct({ offers: Schema.Array(Offer), estimated: Schema.Boolean })
export type Quote = typeof Quote.Type

export const BuyRequest = Schema.Struct({
  provider: ProviderSchema,
  currency: RampCurrencySchema,
  network: RampNetworkSchema,
  fiatCurrency: FiatCode,
  amount: AmountString,
  inputMode: InputModeSchema,
  paymentMethod: PaymentMethodSchema,
  returnUrl: Schema.optional(ReturnUrl),
})
export type BuyRequest = typeof BuyRequest.Type

export const SellRequest = Schema.Struct({
  provider: ProviderSchema,
  currency: RampCurrencySchema,
  network: RampNetworkSchema,
  fiatCurrency: FiatCode,
  /** The crypto to sell. */
  amount: AmountString,
  returnUrl: Schema.optional(ReturnUrl),
})
export type SellRequest = typeof SellRequest.Type

export const RampTransaction = Schema.Struct({
  id: Schema.String,
  provider: ProviderSchema,
  direction: DirectionSchema,
  currency: RampCurrencySchema,
  network: RampNetworkSchema,
  fiatCurrency: Schema.String,
  fiatAmount: Schema.NullOr(Schema.String),
  cryptoAmount: Schema.NullOr(Schema.String),
  paymentMethod: Schema.NullOr(Schema.String),
  status: Schema.Literals(RAMP_STATUSES),
  failureReason: Schema.NullOr(Schema.String),
  providerTransactionId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type RampTransaction = typeof RampTransaction.Type

export const Started = Schema.Struct({ transaction: RampTransaction, widgetUrl: Schema.String })
export type Started = typeof Started.Type

export const TransactionQuery = Schema.Struct({ id: RampId })

export const REFUSAL_CODES = [
  "unsupported_fiat_currency",
  "unsupported_currency",
  "invalid_amount",
  "amount_too_small",
  "amount_too_large",
  "insufficient_balance",
  "rates_unavailable",
  "return_url_not_allowed",
] as const
export type RefusalCode = (typeof REFUSAL_CODES)[number]

export class RampRefused extends Schema.TaggedError<RampRefused>()(
  "RampRefused",
  { code: Schema.Literals(REFUSAL_CODES), message: Schema.String, limit: Schema.optional(Schema.String) },
  { httpApiStatus: 400, description: "Refused; `code` says why and nothing was created (amount limits carry `limit`)" },
) {}

export class RampNotFound extends Schema.TaggedError<RampNotFound>()(
  "RampNotFound",
  { code: Schema.Literals(["transaction_not_found"]), message: Schema.String },
  { httpApiStatus: 404 },
) {}

export class RampUnavailable extends Schema.TaggedError<RampUnavailable>()(
  "RampUnavailable",
  { code: Schema.Literals(["provider_not_configured", "custody_unavailable"]), message: Schema.String },
  { httpApiStatus: 403 },
) {}

const Errors = [RampRefused, RampNotFound, RampUnavailable] as const

export const RampGroup = authenticated(
  HttpApiGroup.make("ramp").add(
    HttpApiEndpoint.get("routing", "/api/ramp/routing", { success: RampRoutingSchema }),
    HttpApiEndpoint.get("options", "/api/ramp/options", { success: RampOptions }),
    HttpApiEndpoint.get("paymentMethods", "/api/ramp/payment-methods", { query: PaymentMethodsQuery, success: PaymentMethodsAnswerSchema, error: Errors }),
    HttpApiEndpoint.get("paymentCurrencies", "/api/ramp/payment-currencies", { query: PaymentCurrenciesQuery, success: PaymentCurrencies }),
    HttpApiEndpoint.post("quote", "/api/ramp/quote", { payload: QuoteRequest, success: Quote, error: Errors }),
    HttpApiEndpoint.post("buy", "/api/ramp/buy", { payload: BuyRequest, success: Started, error: Errors }),
    HttpApiEndpoint.post("sell", "/api/ramp/sell", { payload: SellRequest, success: Started, error: Errors }),
    HttpApiEndpoint.get("transaction", "/api/ramp/transaction", { query: TransactionQuery, success: RampTransaction, error: Errors }),
  ),
)

export const RampApi = HttpApi.make(ApiId).add(RampGroup)
