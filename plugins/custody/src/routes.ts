/**
 * Custody's routes and the routes its screens open, as typed references (decision 0170), with the
 * search checks of its routes (lenient, spec 1 §2: a wrong-typed value is dropped, an unknown enum
 * value becomes the default or is dropped). The route definitions (./routes/*.ts) use these same
 * checks, so a reference and its route cannot drift apart. Client-safe and tiny: no React.
 */
import { booleanParam, optionalEnumParam, routeRef, searchParams, stringParam } from "@wallet/kernel"

export const NETWORKS = ["ton", "tron", "ethereum", "solana", "bitcoin"] as const
export const RECEIVE_SOURCES = ["asset", "external_asset", "deposit_screen", "send", "asset_public", "main", "wallet_pay", "link"] as const
export const TRANSACTIONS_FROM = ["history", "onboarding", "direct_messages", "exchange", "dialog"] as const

// Wallet views (spec 1 §2).
export const ReceiveSearch = searchParams({
  assetCurrency: stringParam,
  source: optionalEnumParam(RECEIVE_SOURCES),
  freeze: optionalEnumParam(["true"]),
  assetNetwork: optionalEnumParam(NETWORKS),
})
export type ReceiveSearch = typeof ReceiveSearch.Type

export const ChooseAssetSearch = searchParams({
  assetCurrency: stringParam,
  fiatCurrency: stringParam,
  paymentMethod: stringParam,
  assetNetwork: optionalEnumParam(NETWORKS),
  address: stringParam,
  amount: stringParam,
})

export const PublicAssetSearch = searchParams({
  source: stringParam,
  category: stringParam,
  networks: stringParam,
  tradingHoursModal: stringParam,
  assetNoticeModal: stringParam,
})

export const TransactionsSearch = searchParams({
  transactionId: stringParam,
  correspondingTransactionId: stringParam,
  withdrawTransactionId: stringParam,
  from: optionalEnumParam(TRANSACTIONS_FROM),
})
export type TransactionsSearch = typeof TransactionsSearch.Type

export const TransactionsListSearch = searchParams({ assetCurrency: stringParam })

// Money leaving (spec 1 §2 /assets/send and friends).
export const SendSearch = searchParams({
  assetCurrency: stringParam,
  address: stringParam,
  assetNetwork: optionalEnumParam(NETWORKS),
  comment: stringParam,
  back: stringParam,
  currency: stringParam,
  value: stringParam,
  maxBalanceUsedAmount: stringParam,
  qr: booleanParam,
  scwAssetType: optionalEnumParam(["token", "collectible"]),
  assetListExpanded: booleanParam,
})

export const StatusSearch = searchParams({ transactionId: stringParam, qr: booleanParam })
export const FirstTransactionSearch = searchParams({ withdrawTransactionId: stringParam })
export const ReceiverSearchSearch = searchParams({ assetCurrency: stringParam, receiverId: stringParam, value: stringParam })
export const SendOptionsSearch = searchParams({ assetCurrency: stringParam })

// Custody's own routes.
export const assetRoute = routeRef("/assets/$assetCurrency")
export const publicAssetRoute = routeRef("/assets-public/$assetCurrency", PublicAssetSearch)
export const receiveRoute = routeRef("/receive", ReceiveSearch)
export const chooseAssetRoute = routeRef("/choose-asset/$type", ChooseAssetSearch)
export const chooseNetworkRoute = routeRef("/choose-network/$type/$assetCurrency")
export const transactionsRoute = routeRef("/transactions", TransactionsSearch)
export const transactionsListRoute = routeRef("/transactions/list", TransactionsListSearch)
export const walletOnboardingRoute = routeRef("/wallet-onboarding")
export const walletOnboardingStepsRoute = routeRef("/wallet-onboarding/steps")
export const walletOnboardingIncentiveRoute = routeRef("/wallet-onboarding/incentive")
export const sendOptionsRoute = routeRef("/send-options", SendOptionsSearch)
export const sendRoute = routeRef("/assets/send", SendSearch)
export const sendConfirmationRoute = routeRef("/assets/send-request-confirmation", SendSearch)
export const sendStatusRoute = routeRef("/assets/send-request-status", StatusSearch)
export const receiverSearchRoute = routeRef("/assets/receiver-search", ReceiverSearchSearch)
export const transfersRoute = routeRef("/transfers")
export const transferRoute = routeRef("/transfers/$transferId")
export const firstTransactionRoute = routeRef("/first-transaction", FirstTransactionSearch)

// Public paths of plugins custody does not depend on (the route-reference test checks they exist).
/** Wallet main (the home plugin). */
export const walletMainRoute = routeRef("/main")
/** The TON space's main screen. */
export const scwRoute = routeRef("/scw")
/** TonConnect's connect screen for a scanned link (its search: the link's query). */
export const tonConnectQrRoute = routeRef("/scw/tc/connect/qr")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [
  assetRoute,
  publicAssetRoute,
  receiveRoute,
  chooseAssetRoute,
  chooseNetworkRoute,
  transactionsRoute,
  transactionsListRoute,
  walletOnboardingRoute,
  walletOnboardingStepsRoute,
  walletOnboardingIncentiveRoute,
  sendOptionsRoute,
  sendRoute,
  sendConfirmationRoute,
  sendStatusRoute,
  receiverSearchRoute,
  transfersRoute,
  transferRoute,
  firstTransactionRoute,
  walletMainRoute,
  scwRoute,
  tonConnectQrRoute,
]
