/** The rates group: token rates and asset charts (re-exported by ../api.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { authenticated } from "@wallet/kernel/api"
import { CustodyForbidden } from "./forbidden.ts"
import { CurrencyCode, DecimalString, FiatCode, Instant, SignedDecimalString, CustodyBadRequest, CustodyNotFound } from "./fields.ts"

// --- rates and charts (spec 1 §7 "Rates", "Asset charts") ------------------------------------

/** tokens: comma-separated currency codes (native coin as TON); currencies: one fiat code. */
export const RatesQuery = Schema.Struct({
  tokens: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,16}(,[A-Za-z0-9]{1,16}){0,63}$/, { message: "comma-separated currency codes" })),
  currencies: FiatCode,
})
export const TokenRate = Schema.Struct({
  /** prices[fiat]: price of one token. */
  prices: Schema.Record(Schema.String, DecimalString),
  /** diff_24h[fiat]: 24h change in percent with sign, e.g. "+1.25%" / "-0.40%" (tonapi form). */
  diff_24h: Schema.Record(Schema.String, Schema.String),
})
export type TokenRate = typeof TokenRate.Type
/** rates[token].prices[currency]; unknown tokens are left out. */
export const Rates = Schema.Struct({ rates: Schema.Record(Schema.String, TokenRate) })
export type Rates = typeof Rates.Type

export const ChartPeriod = Schema.Literals(["day", "week", "month", "year", "all"])
export type ChartPeriod = typeof ChartPeriod.Type
export const ChartParams = Schema.Struct({ crypto: CurrencyCode, fiat: FiatCode })
export const ChartQuery = Schema.Struct({ period: ChartPeriod })
export const ChartPoint = Schema.Struct({ time: Instant, price: DecimalString })
export type ChartPoint = typeof ChartPoint.Type
export const AssetChart = Schema.Struct({
  crypto: CurrencyCode,
  fiat: FiatCode,
  period: ChartPeriod,
  /** Oldest first; the last point is the current price. */
  points: Schema.Array(ChartPoint),
  /** Change over the period: last vs first, percent with 2 decimals. */
  percentChange: Schema.Number,
  absoluteChange: SignedDecimalString,
})
export type AssetChart = typeof AssetChart.Type

export const RatesGroup = authenticated(
  HttpApiGroup.make("custodyRates").add(
    HttpApiEndpoint.get("rates", "/api/custody/rates", { query: RatesQuery, success: Rates, error: CustodyBadRequest }),
    HttpApiEndpoint.get("chart", "/api/custody/charts/:crypto/:fiat", {
      params: ChartParams,
      query: ChartQuery,
      success: AssetChart,
      error: [CustodyBadRequest, CustodyNotFound, CustodyForbidden],
    }),
  ),
)
