import { booleanParam, optionalEnumParam, routeRef, searchParams, stringParam } from "@wallet/kernel"
import { EXCHANGE_MODES, TRADING_MODES } from "./domain.ts"

/**
 * The exchange's routes (spec 1 §2 "/exchange") as typed references (decision 0170), with their search
 * checks: an unknown exchangeMode, searchBy or tradingMode is dropped (the screens default to pay).
 */
export const ExchangeSearch = searchParams({
  payCurrency: stringParam,
  receiveCurrency: stringParam,
  currenciesLocked: booleanParam,
  source: stringParam,
  exchangeMode: optionalEnumParam(EXCHANGE_MODES),
  tradingMode: optionalEnumParam(TRADING_MODES),
  successRedirect: stringParam,
  successButtonI18nKey: stringParam,
  payValue: stringParam,
  receiveValue: stringParam,
  prevPayValue: stringParam,
  prevReceiveValue: stringParam,
  confirmExchangeUid: stringParam,
  showSuccessBottomsheet: booleanParam,
})
export const ExchangeSearchSearch = searchParams({
  searchBy: optionalEnumParam(EXCHANGE_MODES),
  payCurrency: stringParam,
  receiveCurrency: stringParam,
  exchangeMode: optionalEnumParam(EXCHANGE_MODES),
  tradingMode: optionalEnumParam(TRADING_MODES),
  successRedirect: stringParam,
  successButtonI18nKey: stringParam,
  payValue: stringParam,
  receiveValue: stringParam,
})
export const ConfirmationSearch = searchParams({ uid: stringParam, successRedirect: stringParam, successButtonI18nKey: stringParam })

export const exchangeRoute = routeRef("/exchange", ExchangeSearch)
export const exchangeSearchRoute = routeRef("/exchange/search", ExchangeSearchSearch)
export const exchangeConfirmationRoute = routeRef("/exchange/confirmation", ConfirmationSearch)
/** Custody's asset page: where a finished exchange lands without a successRedirect. */
export const assetRoute = routeRef("/assets/$assetCurrency")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [exchangeRoute, exchangeSearchRoute, exchangeConfirmationRoute, assetRoute] as const
