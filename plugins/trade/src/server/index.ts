/**
 * `@wallet/plugin-trade/server`: the trade catalog's server module (issue 22): the coin list per
 * ranking, coin details, the trending list and the catalog per fiat, all read from custody's `Rates`
 * service (its sandbox market or its feed). No tables: market data is not the user's state.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatAmount } from "@wallet/kernel"
import { defineServerPlugin, ServerConfig, type ServerPlugin } from "@wallet/kernel-server"
import { percentChange, Rates, type MarketCoin, type MarketSnapshot } from "@wallet/plugin-custody/server"
import { TradeApi, TradeBadRequest, TradeGroup, TradeNotFound, TradeUnavailable, type CatalogEntry, type CoinRow } from "../api.ts"
import { CATALOG_ENTRIES, entryCoins, orderEntries, rankCoins, searchCoins, type Ranking } from "../rules.ts"

const PRICE_DECIMALS = 12
/** Fiat sums (volume, market cap) with cents: the scaled value cut to 2 decimals. */
const CENTS_DIVISOR = 10n ** BigInt(PRICE_DECIMALS - 2)

/** Percent with 2 decimals, as the lists and the §5 rule read it. */
const change = (coin: MarketCoin): number => Math.round(percentChange(coin.price, coin.price24hAgo) * 100) / 100

export const coinRow = (coin: MarketCoin): CoinRow => ({
  symbol: coin.symbol,
  name: coin.name,
  category: coin.category,
  isNew: coin.isNew,
  custodial: coin.custodial,
  price: formatAmount(coin.price, PRICE_DECIMALS),
  change24h: change(coin),
  volume24h: coin.volume24h === null ? null : formatAmount(coin.volume24h / CENTS_DIVISOR, 2),
  marketCap: coin.marketCap === null ? null : formatAmount(coin.marketCap / CENTS_DIVISOR, 2),
})

const market = (snapshot: Pick<MarketSnapshot, "source" | "fiat" | "at">) => ({
  source: snapshot.source,
  fiat: snapshot.fiat,
  updatedAt: snapshot.at.toISOString(),
})

/** Rates, once `fiat` is one it prices (else a 400). */
const ratesIn = (fiat: string) =>
  Effect.gen(function* () {
    const rates = yield* Rates
    if (!rates.isFiat(fiat)) return yield* Effect.fail(new TradeBadRequest({ code: "unsupported_fiat", message: `No prices in ${fiat}` }))
    return rates
  })

/** A feed that does not answer is a 503 the screens can retry. */
const unavailable = (error: { readonly message: string }) => new TradeUnavailable({ code: "market_unavailable", message: error.message })

export const coinList = (query: { readonly fiat: string; readonly ranking?: Ranking; readonly search?: string }) =>
  Effect.gen(function* () {
    const rates = yield* ratesIn(query.fiat)
    const snapshot = yield* rates.catalog(query.fiat).pipe(Effect.mapError(unavailable))
    const rows = snapshot.coins.map(coinRow)
    const ranking = query.ranking ?? "all_limit"
    return { ...market(snapshot), ranking, items: query.search === undefined ? rankCoins(rows, ranking) : searchCoins(rows, query.search) }
  })

export const coinDetails = (symbol: string, fiat: string, lang: string | undefined) =>
  Effect.gen(function* () {
    const rates = yield* ratesIn(fiat)
    const found = yield* rates.coin(symbol, fiat).pipe(Effect.mapError(unavailable))
    if (found === undefined) return yield* Effect.fail(new TradeNotFound({ code: "coin_not_found", message: `${symbol} is not in the catalog` }))
    const language = lang?.toLowerCase().startsWith("ru") ? ("ru" as const) : ("en" as const)
    return { ...market({ ...found, fiat }), coin: coinRow(found.coin), description: found.coin.description[language], descriptionLanguage: language }
  })

export const trendingList = (fiat: string) =>
  Effect.gen(function* () {
    const rates = yield* ratesIn(fiat)
    const trending = yield* rates.trending(fiat).pipe(Effect.mapError(unavailable))
    return { ...market(trending), items: trending.coins.map(coinRow) }
  })

export const catalogList = (fiat: string) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const raw = (config.pluginConfig.trade ?? {}) as { displayProductsSection?: unknown }
    const rates = yield* ratesIn(fiat)
    const snapshot = yield* rates.catalog(fiat).pipe(Effect.mapError(unavailable))
    const rows = snapshot.coins.map(coinRow)
    const entries: Array<CatalogEntry> = orderEntries(CATALOG_ENTRIES).map((entry) => ({
      ...entry,
      tabs: [...entry.tabs],
      items: [...entryCoins(entry, rows)],
    }))
    return { ...market(snapshot), entries, display_products_section: raw.displayProductsSection !== false }
  })

const handlers = HttpApiBuilder.group(TradeApi, "trade", (group) =>
  group
    .handle("coins", ({ query }) => coinList(query))
    .handle("coin", ({ params, query }) => coinDetails(params.symbol, params.fiat, query.lang))
    .handle("trending", ({ params }) => trendingList(params.fiat))
    .handle("catalog", ({ params }) => catalogList(params.fiat)),
)

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "trade",
  dependsOn: ["custody"],
  migrations: [],
  groups: [TradeGroup],
  handlers: handlers.pipe(Layer.provide(Rates.layer)),
})
export default serverPlugin
