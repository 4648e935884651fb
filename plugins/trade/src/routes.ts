/**
 * The trade plugin's routes (spec 1 §2 "/trade", "/stocks-bonus") as typed references (decision
 * 0170) with their search checks: a wrong-typed value is dropped, an unknown ranking or tab becomes
 * the default (spec 1 §2). Client-safe and tiny: no React.
 */
import { booleanParam, enumParam, optionalEnumParam, routeRef, searchParams, stringParam } from "@wallet/kernel"
import { RANKINGS, SEARCH_TABS } from "./keys.ts"

/** /trade: the layout's search field and, on its index, the ranking tab (absent: the default tab rule). */
export const TradeSearch = searchParams({ searchQuery: stringParam, searchAutoFocus: booleanParam, ranking: optionalEnumParam(RANKINGS) })
export type TradeSearch = typeof TradeSearch.Type
export const TradeSearchPageSearch = searchParams({ searchQuery: stringParam, searchAutoFocus: booleanParam, activeTab: enumParam(SEARCH_TABS, "all") })
export type TradeSearchPageSearch = typeof TradeSearchPageSearch.Type
export const CoinPageSearch = searchParams({ source: stringParam, assetNoticeModal: booleanParam })
export type CoinPageSearch = typeof CoinPageSearch.Type

export const tradeRoute = routeRef("/trade", TradeSearch)
export const tradeSearchRoute = routeRef("/trade/search", TradeSearchPageSearch)
export const tradeGalleryRoute = routeRef("/trade/ui-gallery")
export const coinRoute = routeRef("/trade/coins/$symbol", CoinPageSearch)
export const stocksBonusRoute = routeRef("/stocks-bonus")

/** The exchange plugin's form (issue 22): Buy and Sell of a custodial coin open it on the pair. */
export const ExchangeLinkSearch = searchParams({ payCurrency: stringParam, receiveCurrency: stringParam, source: stringParam })
export const exchangeRoute = routeRef("/exchange", ExchangeLinkSearch)
export const p2pRoute = routeRef("/p2p")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [tradeRoute, tradeSearchRoute, tradeGalleryRoute, coinRoute, stocksBonusRoute, exchangeRoute, p2pRoute]
