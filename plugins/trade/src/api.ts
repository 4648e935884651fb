/**
 * `@wallet/plugin-trade/api`: the trade catalog's HTTP contract (spec 1 §7 "Coins: details, list,
 * trending list, catalog list (path fiat_currency)"; issue 22). Browser-safe (only `effect`,
 * `@wallet/kernel/api` and the pure rules). Every endpoint needs `Authorization: Bearer <access token>`.
 * Prices, volumes and market caps are decimal strings in the asked fiat; the 24 h change is percent.
 * Every answer says where its prices come from: `source` "sandbox" (the local market simulation,
 * labelled as such on the screens) or "feed" (a production rates feed).
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ApiId, authenticated, userText } from "@wallet/kernel/api"
import { COIN_CATEGORIES, DISPLAY_MODES, RANKINGS } from "./rules.ts"

/** A non-negative decimal string ("1.5", "0.000021"). */
export const Decimal = Schema.String.check(Schema.isPattern(/^(0|[1-9][0-9]{0,38})(\.[0-9]{1,36})?$/, { message: "a decimal string such as 1.5" }))
export const FiatCode = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "an ISO 4217 code such as USD" }))
/** A catalog symbol as the custodial currencies write them ("TON", "TSLAx", "tsTON"). */
export const CoinSymbol = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,16}$/, { message: "a coin symbol such as TON" }))
export const RankingSchema = Schema.Literals(RANKINGS)
export const CoinCategorySchema = Schema.Literals(COIN_CATEGORIES)
export const PriceSourceSchema = Schema.Literals(["sandbox", "feed"])
export type PriceSource = typeof PriceSourceSchema.Type

export const CoinRow = Schema.Struct({
  symbol: CoinSymbol,
  name: Schema.String,
  category: CoinCategorySchema,
  /** Recently listed: the 'new' badge. */
  isNew: Schema.Boolean,
  /** A currency of the custodial wallet: it can be bought and sold through the exchange. */
  custodial: Schema.Boolean,
  price: Decimal,
  /** 24 h change in percent with 2 decimals (-1.25 is -1.25 %). */
  change24h: Schema.Number,
  volume24h: Schema.NullOr(Decimal),
  marketCap: Schema.NullOr(Decimal),
})
export type CoinRow = typeof CoinRow.Type

const Market = {
  source: PriceSourceSchema,
  fiat: FiatCode,
  /** When the numbers were taken (ISO 8601). */
  updatedAt: Schema.String,
}

export const CoinListQuery = Schema.Struct({
  fiat: FiatCode,
  /** Absent: all_limit. */
  ranking: Schema.optionalKey(RankingSchema),
  /** Symbol or name; with it the ranking is ignored and the matches come best first. */
  search: Schema.optionalKey(userText({ minLength: 1, maxLength: 64 })),
})
export const CoinList = Schema.Struct({ ...Market, ranking: RankingSchema, items: Schema.Array(CoinRow) })
export type CoinList = typeof CoinList.Type

export const CoinParams = Schema.Struct({ symbol: CoinSymbol, fiat: FiatCode })
export const CoinQuery = Schema.Struct({ lang: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[a-zA-Z-]{2,10}$/, { message: "a language code" }))) })
export const CoinDetails = Schema.Struct({
  ...Market,
  coin: CoinRow,
  /** In the asked language when there is one (en, ru), else English. */
  description: Schema.NullOr(Schema.String),
  descriptionLanguage: Schema.Literals(["en", "ru"]),
})
export type CoinDetails = typeof CoinDetails.Type

export const FiatParams = Schema.Struct({ fiat: FiatCode })
export const TrendingList = Schema.Struct({ ...Market, items: Schema.Array(CoinRow) })
export type TrendingList = typeof TrendingList.Type

export const CatalogActionSchema = Schema.Union([
  Schema.Struct({ type: Schema.Literal("ranking"), ranking: RankingSchema }),
  Schema.Struct({ type: Schema.Literal("route"), to: Schema.String }),
])
/** Spec 1 §3 "Coin catalog" entry, with the first coins of its first tab. */
export const CatalogEntry = Schema.Struct({
  catalog_id: Schema.String,
  /** An i18n key of the trade namespace (`catalog.<title>`). */
  title: Schema.String,
  display_mode: Schema.Literals(DISPLAY_MODES),
  order: Schema.Number,
  tabs: Schema.Array(RankingSchema),
  display_new_badge: Schema.Boolean,
  action: CatalogActionSchema,
  items: Schema.Array(CoinRow),
})
export type CatalogEntry = typeof CatalogEntry.Type
export const Catalog = Schema.Struct({ ...Market, entries: Schema.Array(CatalogEntry), display_products_section: Schema.Boolean })
export type Catalog = typeof Catalog.Type

export class TradeBadRequest extends Schema.TaggedError<TradeBadRequest>()(
  "TradeBadRequest",
  { code: Schema.Literals(["unsupported_fiat"]), message: Schema.String },
  { httpApiStatus: 400, description: "A fiat the market is not priced in" },
) {}
export class TradeNotFound extends Schema.TaggedError<TradeNotFound>()(
  "TradeNotFound",
  { code: Schema.Literals(["coin_not_found"]), message: Schema.String },
  { httpApiStatus: 404, description: "A coin the catalog does not list" },
) {}
export class TradeUnavailable extends Schema.TaggedError<TradeUnavailable>()(
  "TradeUnavailable",
  { code: Schema.Literals(["market_unavailable"]), message: Schema.String },
  { httpApiStatus: 503, description: "The rates feed did not answer; try again later" },
) {}

const Errors = [TradeBadRequest, TradeNotFound, TradeUnavailable] as const

export const TradeGroup = authenticated(
  HttpApiGroup.make("trade").add(
    HttpApiEndpoint.get("coins", "/api/trade/coins", { query: CoinListQuery, success: CoinList, error: Errors }),
    HttpApiEndpoint.get("coin", "/api/trade/coins/:symbol/:fiat", { params: CoinParams, query: CoinQuery, success: CoinDetails, error: Errors }),
    HttpApiEndpoint.get("trending", "/api/trade/trending/:fiat", { params: FiatParams, success: TrendingList, error: Errors }),
    HttpApiEndpoint.get("catalog", "/api/trade/catalog/:fiat", { params: FiatParams, success: Catalog, error: Errors }),
  ),
)

export const TradeApi = HttpApi.make(ApiId).add(TradeGroup)
