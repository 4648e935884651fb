/**
 * Search params of the wallet routes (spec 1 §2), lenient: a wrong-typed value is dropped and an
 * unknown enum value becomes the default (or is dropped when there is none).
 */
import { optionalEnumParam, searchParams, stringParam } from "@wallet/kernel"

export const RECEIVE_SOURCES = ["asset", "external_asset", "deposit_screen", "send", "asset_public", "main", "wallet_pay", "link"] as const
export const NETWORKS = ["ton", "tron", "ethereum", "solana", "bitcoin"] as const

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

export const TRANSACTIONS_FROM = ["history", "onboarding", "direct_messages", "exchange", "dialog"] as const

export const TransactionsSearch = searchParams({
  transactionId: stringParam,
  correspondingTransactionId: stringParam,
  withdrawTransactionId: stringParam,
  from: optionalEnumParam(TRANSACTIONS_FROM),
})
export type TransactionsSearch = typeof TransactionsSearch.Type

export const TransactionsListSearch = searchParams({ assetCurrency: stringParam })
