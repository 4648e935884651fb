/**
 * Search params of the wallet routes (spec 1 §2), lenient: a wrong-typed value is dropped and an
 * unknown enum value becomes the default (or is dropped when there is none).
 */
import { Schema } from "effect"
import { optionalEnumParam, stringParam } from "@wallet/kernel"

export const RECEIVE_SOURCES = ["asset", "external_asset", "deposit_screen", "send", "asset_public", "main", "wallet_pay", "link"] as const
export const NETWORKS = ["ton", "tron", "ethereum", "solana", "bitcoin"] as const

export const ReceiveSearch = Schema.Struct({
  assetCurrency: stringParam,
  source: optionalEnumParam(RECEIVE_SOURCES),
  freeze: optionalEnumParam(["true"]),
  assetNetwork: optionalEnumParam(NETWORKS),
})
export type ReceiveSearch = typeof ReceiveSearch.Type

export const ChooseAssetSearch = Schema.Struct({
  assetCurrency: stringParam,
  fiatCurrency: stringParam,
  paymentMethod: stringParam,
  assetNetwork: optionalEnumParam(NETWORKS),
  address: stringParam,
  amount: stringParam,
})

export const PublicAssetSearch = Schema.Struct({
  source: stringParam,
  category: stringParam,
  networks: stringParam,
  tradingHoursModal: stringParam,
  assetNoticeModal: stringParam,
})

export const TRANSACTIONS_FROM = ["history", "onboarding", "direct_messages", "exchange", "dialog"] as const

export const TransactionsSearch = Schema.Struct({
  transactionId: stringParam,
  correspondingTransactionId: stringParam,
  withdrawTransactionId: stringParam,
  from: optionalEnumParam(TRANSACTIONS_FROM),
})
export type TransactionsSearch = typeof TransactionsSearch.Type

export const TransactionsListSearch = Schema.Struct({ assetCurrency: stringParam })
