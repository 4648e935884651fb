/** The transactions group: the history list and one transaction (re-exported by ../api.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { authenticated, bigIntId, userText } from "@wallet/kernel/api"
import { CustodyForbidden } from "./forbidden.ts"
import { CurrencyCode, DecimalString, FiatCode, Instant, NetworkCode, CustodyBadRequest, CustodyNotFound } from "./fields.ts"

/** Transactions page size when `limit` is not given, and its maximum. */
export const TRANSACTIONS_PAGE_SIZE = 20
export const TRANSACTIONS_MAX_PAGE_SIZE = 100

// --- transactions (spec 1 §3 "Transaction list item", §4 "Transaction row appearance") ----------

export const Gateway = Schema.Literals([
  "tg_transfer",
  "tg_transfer_onchain",
  "internal",
  "wpay_payment",
  "wpay_payout",
  "withdraw_onchain",
  "earn_reward",
  "earn_v2_reward",
  "earn_v2_bonus",
  "top_up",
  "manual",
  "card",
  "purchase",
  "onramp",
  "offramp",
  "bonus_any",
  "p2p_order",
  "p2p_offer",
  "p2p_order_inactive_offer",
  "p2p_refund",
  "crypto_exchange",
  "payouts",
  "multi_use",
  "part_multi_use",
  "single_use",
  "giveaway",
  "earn",
  "earn_v2",
  "earn_v2_crypto_exchange",
  "forced_transfer",
])
export type Gateway = typeof Gateway.Type

/**
 * Row status (spec 1 §4 appearance: new and pending muted, success as deposit/withdraw, fail error,
 * canceled canceled). A pending outgoing custody transfer is `pending`, its incoming side `new`.
 */
export const TransactionStatus = Schema.Literals(["new", "pending", "success", "fail", "canceled"])
export type TransactionStatus = typeof TransactionStatus.Type
export const TransactionType = Schema.Literals(["deposit", "withdraw"])
export type TransactionType = typeof TransactionType.Type

export const Transaction = Schema.Struct({
  id: Schema.String,
  status: TransactionStatus,
  type: TransactionType,
  gateway: Gateway,
  /** Signed by type is not applied: always positive; `type` says the direction. */
  amount: DecimalString,
  currency: CurrencyCode,
  /** Value at the time of listing in the user's fiat, 2 decimals. */
  fiatAmount: DecimalString,
  fiatCurrency: FiatCode,
  date: Instant,
  /** Counterparty of a Telegram transfer (or giveaway/P2P user), else null. */
  name: Schema.NullOr(Schema.String),
  userId: Schema.NullOr(Schema.Int),
  username: Schema.NullOr(Schema.String),
  photoUrl: Schema.NullOr(Schema.String),
  /** Withdrawals: where it went. */
  recipientAddress: Schema.NullOr(Schema.String),
  network: Schema.NullOr(NetworkCode),
  /** Deposits: where it came from. */
  inputAddresses: Schema.Array(Schema.String),
  /** Chain transaction hash when there is one. */
  txHash: Schema.NullOr(Schema.String),
  fee: Schema.NullOr(DecimalString),
  comment: Schema.NullOr(Schema.String),
  /** The custody transfer behind a tg_transfer row (open it with transfers get). */
  transferId: Schema.NullOr(Schema.String),
  cryptocurrencyExchange: Schema.NullOr(Schema.Struct({ image: Schema.NullOr(Schema.String), platform: Schema.String })),
  storeName: Schema.NullOr(Schema.String),
  storeId: Schema.NullOr(Schema.String),
  /** Exchanges: the other side. */
  pairTransactionAmount: Schema.NullOr(DecimalString),
  pairTransactionCurrency: Schema.NullOr(CurrencyCode),
})
export type Transaction = typeof Transaction.Type

export const TransactionsQuery = Schema.Struct({
  /** From the previous page's `nextCursor`; absent for the first (newest) page. */
  cursor: Schema.optionalKey(userText({ maxLength: 64 })),
  limit: Schema.optionalKey(Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: TRANSACTIONS_MAX_PAGE_SIZE }))),
  /** Only this currency (the asset page's history, /transactions/list?assetCurrency). */
  currency: Schema.optionalKey(CurrencyCode),
  /** `fiatAmount` in this fiat; default the user's settings fiatCurrency (USD when unset). */
  fiatCurrency: Schema.optionalKey(FiatCode),
})
export const TransactionsPage = Schema.Struct({
  /** Newest first. */
  items: Schema.Array(Transaction),
  /** null on the last page. */
  nextCursor: Schema.NullOr(Schema.String),
})
export type TransactionsPage = typeof TransactionsPage.Type

/** A transaction id: 1..2^63-1 (a bigint column). */
export const TransactionParams = Schema.Struct({ transaction_id: bigIntId({ message: "a transaction id" }) })

export const TransactionsGroup = authenticated(
  HttpApiGroup.make("custodyTransactions").add(
    HttpApiEndpoint.get("list", "/api/custody/transactions", {
      query: TransactionsQuery,
      success: TransactionsPage,
      error: [CustodyBadRequest, CustodyForbidden],
    }),
    HttpApiEndpoint.get("get", "/api/custody/transactions/:transaction_id", {
      params: TransactionParams,
      success: Transaction,
      error: [CustodyNotFound, CustodyForbidden],
    }),
  ),
)
