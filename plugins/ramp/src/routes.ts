import { booleanParam, optionalEnumParam, routeRef, searchParams, stringParam } from "@wallet/kernel"
import { DIRECTIONS, INPUT_MODES, PAYMENT_METHODS, RAMP_NETWORKS } from "./domain.ts"

/**
 * The ramp's routes (spec 1 §2 "/purchase-options", "/sell-options", "On-ramp", "Off-ramp",
 * "/assets/ramp/asterium-trx-status", "/purchase-success", "/purchase-failed") as typed references
 * (decision 0170). The search checks drop wrong-typed values; the status page's search is checked
 * strictly by its screen (`statusSearchOf`), which rejects an invalid one.
 */
export const PURCHASE_SOURCES = ["asset", "external_asset", "insufficient_funds_error", "flexible_earn_deposit", "wpay_insufficient_funds", "main"] as const
export const SELL_SOURCES = ["asset", "external_asset", "main"] as const

export const PurchaseOptionsSearch = searchParams({
  assetCurrency: stringParam,
  amount: stringParam,
  source: optionalEnumParam(PURCHASE_SOURCES),
  successRedirect: stringParam,
  successButtonI18nKey: stringParam,
})
export const SellOptionsSearch = searchParams({ source: optionalEnumParam(SELL_SOURCES) })
export const OnrampAmountSearch = searchParams({
  assetCurrency: stringParam,
  assetNetwork: optionalEnumParam(RAMP_NETWORKS),
  fiatCurrency: stringParam,
  amount: stringParam,
  from: stringParam,
  paymentMethod: optionalEnumParam(PAYMENT_METHODS),
  inputMode: optionalEnumParam(INPUT_MODES),
})
/** `payload`: the chosen purchase or sale as JSON (see client/view.ts `Payload`). */
export const PayloadSearch = searchParams({ payload: stringParam, from: stringParam })
export const OfframpChooseAssetSearch = searchParams({ assetNetwork: optionalEnumParam(RAMP_NETWORKS), initial: optionalEnumParam(["true"] as const) })
export const OfframpAmountSearch = searchParams({
  inputMode: optionalEnumParam(INPUT_MODES),
  assetCurrency: stringParam,
  assetNetwork: optionalEnumParam(RAMP_NETWORKS),
  fiatCurrency: stringParam,
  amount: stringParam,
  from: stringParam,
})
export const TrxStatusSearch = searchParams({
  external_transaction_id: stringParam,
  direction: optionalEnumParam(DIRECTIONS),
  amount: stringParam,
  currency: stringParam,
  /** Present when the provider sent the user back (MoonPay `transactionStatus`, or any value). */
  transactionStatus: stringParam,
  transactionId: stringParam,
  embedded: booleanParam,
})
export const PurchaseSuccessSearch = searchParams({ amount: stringParam, merchant_tx_id: stringParam })
export const PurchaseFailedSearch = searchParams({ merchant_tx_id: stringParam })

export const purchaseOptionsRoute = routeRef("/purchase-options", PurchaseOptionsSearch)
export const sellOptionsRoute = routeRef("/sell-options", SellOptionsSearch)
export const onrampAmountRoute = routeRef("/assets/ramp/onramp/onramp-amount", OnrampAmountSearch)
export const onrampProviderRoute = routeRef("/assets/ramp/onramp/onramp-provider", PayloadSearch)
export const offrampChooseAssetRoute = routeRef("/assets/ramp/offramp/choose-asset", OfframpChooseAssetSearch)
export const offrampAmountRoute = routeRef("/assets/ramp/offramp/offramp-amount", OfframpAmountSearch)
export const offrampProviderRoute = routeRef("/assets/ramp/offramp/offramp-provider", PayloadSearch)
export const offrampSuccessRoute = routeRef("/assets/ramp/offramp/offramp-success", PayloadSearch)
export const trxStatusRoute = routeRef("/assets/ramp/asterium-trx-status", TrxStatusSearch)
export const purchaseSuccessRoute = routeRef("/purchase-success", PurchaseSuccessSearch)
export const purchaseFailedRoute = routeRef("/purchase-failed", PurchaseFailedSearch)
/** Custody's screens the ramp leads to. */
export const assetRoute = routeRef("/assets/$assetCurrency")
export const mainRoute = routeRef("/main")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [
  purchaseOptionsRoute,
  sellOptionsRoute,
  onrampAmountRoute,
  onrampProviderRoute,
  offrampChooseAssetRoute,
  offrampAmountRoute,
  offrampProviderRoute,
  offrampSuccessRoute,
  trxStatusRoute,
  purchaseSuccessRoute,
  purchaseFailedRoute,
  assetRoute,
  mainRoute,
] as const
