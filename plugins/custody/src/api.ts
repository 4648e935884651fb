/**
 * `@wallet/plugin-custody/api`: the custodial wallet's HTTP contract (spec 1 sections 3, 4, 7, 8, 9):
 * accounts data, frozen balances, rates and charts, receiver search, custody transfers to a
 * Telegram user, the transactions history and notification settings. Browser-safe: imports only
 * `effect` and `@wallet/kernel/api`. Every endpoint needs `Authorization: Bearer <access token>`.
 *
 * ## Amounts on the wire (never JS numbers)
 * - Crypto amounts (`amount`, `balance`): decimal strings in the currency's own unit with at most
 *   the currency's `decimals` (currencies.ts), no exponent, no sign unless stated: "1.5" TON is
 *   1_500_000_000 nano. The server answers the shortest exact form ("1.5", "0", "0.000000001").
 *   Requests with more fractional digits than the currency has are refused (`invalid_amount`).
 * - Fiat amounts (`fiatBalance`, `usdBalance`, totals, `fiatAmount`): decimal strings with exactly
 *   2 decimals ("12.30"), rounded half up from the exact value.
 * - Prices (`rate`, `prices`, chart points): decimal strings with up to 12 significant fractional
 *   digits; `absoluteChange` is the signed 24h price change per unit ("-0.0123").
 * - `percentChange` is a plain number (a ratio for display, not money), percent with 2 decimals.
 * Parse with `parseAmount` / format with `formatAmount` (exact, bigint) from `./currencies.ts`.
 *
 * ## Errors (each with a machine `code` and a human `message`)
 * `CustodyForbidden` 403 (access flag off, restricted user, custody unavailable, not your transfer),
 * `CustodyNotFound` 404, `CustodyConflict` 409 (transfer no longer pending, idempotency conflict,
 * insufficient funds), `CustodyBadRequest` 400 (transfer to yourself, invalid amount, unknown currency
 * or fiat, bad cursor).
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, authenticated, bigIntId, OperationTokenError, OperationTokenHeaders, RateLimitedResponse, TelegramUserId, userText } from "@wallet/kernel/api"

export { formatAmount, parseAmount } from "./currencies.ts"

export const CUSTODY_API_PREFIX = "/api/custody"

/** Spec 4: a custody transfer the receiver neither approved nor the sender cancelled expires after 14 days. */
export const TRANSFER_EXPIRY_DAYS = 14
/** Transactions page size when `limit` is not given, and its maximum. */
export const TRANSACTIONS_PAGE_SIZE = 20
export const TRANSACTIONS_MAX_PAGE_SIZE = 100

// --- field schemas ---------------------------------------------------------------------------

/** A non-negative decimal string ("1.5", "0.000000001", "12"). */
export const DecimalString = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]{0,38})(\.[0-9]{1,36})?$/, { message: "a decimal string such as 1.5 (no sign, no exponent)" }),
)
/** A signed decimal string ("-0.0123", "4.2"). */
export const SignedDecimalString = Schema.String.check(
  Schema.isPattern(/^-?(0|[1-9][0-9]{0,38})(\.[0-9]{1,36})?$/, { message: "a signed decimal string such as -1.5" }),
)
/** A crypto amount to move: positive, decimal string in the currency's unit (see the header). */
export const AmountInput = DecimalString.check(Schema.isPattern(/[1-9]/, { message: "the amount must be above zero" }))
/** Currency code of currencies.ts ("TON", "USDT", "TSLAx"). */
export const CurrencyCode = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,16}$/, { message: "a currency code such as TON" }))
/** ISO 4217 fiat code ("USD", "EUR"); unknown codes fall back to the user's fiat (or USD) where said. */
export const FiatCode = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "an ISO 4217 code such as USD" }))
/** ISO 8601 instant (UTC), e.g. "2026-01-01T00:00:00.000Z". */
export const Instant = Schema.String.annotate({ description: "ISO 8601 instant (UTC)" })

export const NetworkCode = Schema.Literals(["ton", "tron", "ethereum", "solana", "bitcoin"])
export type NetworkCode = typeof NetworkCode.Type
export const AssetCategory = Schema.Literals(["onchain", "trading", "stock", "etf"])
export type AssetCategory = typeof AssetCategory.Type

// --- errors ----------------------------------------------------------------------------------

export const CustodyForbiddenCode = Schema.Literals([
  /** An access flag (spec 1 §3) is off for this user: `flag` names it (functionality-unavailable popup). */
  "access_denied",
  /** The user is restricted (restriction_code set, e.g. unsupported_region): custody movements refused. */
  "user_restricted",
  /** Custody is not available to this user (is_custody_available false). */
  "custody_unavailable",
  /** The transfer exists but the caller is not in the role the call needs (approve: receiver; cancel: sender). */
  "wrong_transfer_role",
])
export type CustodyForbiddenCode = typeof CustodyForbiddenCode.Type

export const AccessFlagName = Schema.Literals([
  "accessToWithdraws",
  "accessToExchanges",
  "accessToExchangesByCountry",
  "accessToRewardPayments",
  "accessToUnstake",
  "accessToP2p",
  "accessToCreateAddress",
  "accessToSetUserCurrency",
  "accessToSavingSettings",
  "accessToTransactionList",
  "accessToAssetCharts",
  "accessToTradeStocksAndEtfs",
  "accessToTradeStocksAndEtfsByCountry",
])
export type AccessFlagName = typeof AccessFlagName.Type

export class CustodyForbidden extends Schema.TaggedError<CustodyForbidden>()(
  "CustodyForbidden",
  { code: CustodyForbiddenCode, message: Schema.String, flag: Schema.optionalKey(AccessFlagName) },
  { httpApiStatus: 403, description: "Refused for this user; `code` says why (`flag` names the access flag that is off)" },
) {}

export const CustodyNotFoundCode = Schema.Literals(["transfer_not_found", "transaction_not_found", "receiver_not_found", "currency_not_found"])
export class CustodyNotFound extends Schema.TaggedError<CustodyNotFound>()(
  "CustodyNotFound",
  { code: CustodyNotFoundCode, message: Schema.String },
  { httpApiStatus: 404, description: "Unknown transfer, transaction, receiver or currency" },
) {}

export const CustodyConflictCode = Schema.Literals([
  /** Approve or cancel of a transfer that is no longer new: `tgTransferStatus` is its status now. */
  "transfer_not_pending",
  /** The idempotency key was used before with another body. */
  "idempotency_conflict",
  /** Not enough available balance: `available` is what there is (decimal string). */
  "insufficient_funds",
])
export class CustodyConflict extends Schema.TaggedError<CustodyConflict>()(
  "CustodyConflict",
  {
    code: CustodyConflictCode,
    message: Schema.String,
    tgTransferStatus: Schema.optionalKey(Schema.String),
    available: Schema.optionalKey(DecimalString),
  },
  { httpApiStatus: 409, description: "The state does not allow it; `code` says why" },
) {}

export const CustodyBadRequestCode = Schema.Literals([
  /** A transfer to yourself. */
  "self_transfer",
  /** Zero, or more fractional digits than the currency has. */
  "invalid_amount",
  /** Not a custodial currency, or one that cannot be sent (stock/ETF tokens). */
  "unsupported_currency",
  /** Not an ISO code of the fiat list. */
  "unsupported_fiat",
  /** A paging cursor this server did not issue. */
  "invalid_cursor",
])
export class CustodyBadRequest extends Schema.TaggedError<CustodyBadRequest>()(
  "CustodyBadRequest",
  { code: CustodyBadRequestCode, message: Schema.String },
  { httpApiStatus: 400, description: "The request is well-formed but not acceptable; `code` says why" },
) {}

// --- accounts data (spec 1 §3 "Asset", "Accounts response totals") ---------------------------

export const AssetAction = Schema.Struct({
  isEnabled: Schema.Boolean,
  isPopular: Schema.Boolean,
  /** Not yet available until this instant (spec 1 §4 "Action availability"); null otherwise. */
  scheduledAt: Schema.NullOr(Instant),
})
export type AssetAction = typeof AssetAction.Type

export const AssetActionName = Schema.Literals(["send", "receive", "exchange", "buy", "sell"])
export type AssetActionName = typeof AssetActionName.Type

export const AssetActions = Schema.Struct({
  send: AssetAction,
  receive: AssetAction,
  exchange: AssetAction,
  buy: AssetAction,
  sell: AssetAction,
})
export type AssetActions = typeof AssetActions.Type

export const AssetAddress = Schema.Struct({
  address: Schema.String,
  networkCode: NetworkCode,
  /** An older address this one replaces (shown as deprecated), or null. */
  walletToReplace: Schema.NullOr(Schema.String),
})
export type AssetAddress = typeof AssetAddress.Type

export const Asset = Schema.Struct({
  currency: CurrencyCode,
  name: Schema.String,
  decimals: Schema.Int,
  category: AssetCategory,
  /** Available balance (excludes held and frozen amounts), crypto decimal string. */
  balance: DecimalString,
  /** Price of one unit in `fiatCurrency`. */
  rate: DecimalString,
  /** 24h change of `rate` in `fiatCurrency`, signed. */
  absoluteChange: SignedDecimalString,
  /** 24h change in percent, 2 decimals (e.g. -1.25). */
  percentChange: Schema.Number,
  /** Value of `balance` in USD, 2 decimals; sort and hide by this (spec 1 §5). */
  usdBalance: DecimalString,
  fiatBalance: DecimalString,
  fiatCurrency: FiatCode,
  /** The user has an account in this currency (first use opens it). */
  isCreated: Schema.Boolean,
  /** Pinned on main whatever the balance (the default set, spec 1 §5). */
  isAlwaysOnMain: Schema.Boolean,
  /** Pinned while the balance is zero (BTC, ETH, XAUT). */
  isPinnedWithoutBalance: Schema.Boolean,
  /** Show the 'new' badge while the balance is zero; cleared by `setNewCurrencySeen`. */
  isNewCurrency: Schema.Boolean,
  /** Networks deposits and withdrawals run on, the default first. */
  networks: Schema.Array(NetworkCode),
  /** Deposit addresses known so far (the chain half creates them). */
  addresses: Schema.Array(AssetAddress),
  actions: AssetActions,
  /** Market capitalisation in `fiatCurrency`, 2 decimals, or null when unknown. */
  marketCap: Schema.NullOr(DecimalString),
  description: Schema.NullOr(Schema.String),
})
export type Asset = typeof Asset.Type

/** Spec 1 §3 access flags; false -> the functionality-unavailable popup. */
export const AccessFlags = Schema.Struct({
  accessToWithdraws: Schema.Boolean,
  accessToExchanges: Schema.Boolean,
  accessToExchangesByCountry: Schema.Boolean,
  accessToRewardPayments: Schema.Boolean,
  accessToUnstake: Schema.Boolean,
  accessToP2p: Schema.Boolean,
  accessToCreateAddress: Schema.Boolean,
  accessToSetUserCurrency: Schema.Boolean,
  accessToSavingSettings: Schema.Boolean,
  accessToTransactionList: Schema.Boolean,
  accessToAssetCharts: Schema.Boolean,
  accessToTradeStocksAndEtfs: Schema.Boolean,
  accessToTradeStocksAndEtfsByCountry: Schema.Boolean,
})
export type AccessFlags = typeof AccessFlags.Type

export const AccountsData = Schema.Struct({
  /** Every custodial currency, in the order of currencies.ts (the client applies spec 1 §5 sorting). */
  assets: Schema.Array(Asset),
  /** Sum of the assets' fiat balances, 2 decimals. */
  availableBalanceTotalFiatAmount: DecimalString,
  /** Sum of the assets' usd balances, 2 decimals. */
  availableBalanceTotalUsdAmount: DecimalString,
  availableBalanceTotalFiatCurrency: FiatCode,
  /** Promotional fee, null when none. */
  promoFee: Schema.NullOr(DecimalString),
  accessFlags: AccessFlags,
  isCustodyAvailable: Schema.Boolean,
  /** restriction_code of the user (e.g. unsupported_region), null when not restricted. */
  restrictionCode: Schema.NullOr(Schema.String),
})
export type AccountsData = typeof AccountsData.Type

/** Optional fiat override; default: the user's settings fiatCurrency (USD when unset or unknown). */
export const FiatQuery = Schema.Struct({ fiatCurrency: Schema.optionalKey(FiatCode) })

export const NewCurrencySeenQuery = Schema.Struct({ currency: CurrencyCode })

export const FrozenReason = Schema.Literals(["FR_1", "FR_2", "FR_3", "FR_4"])
export type FrozenReason = typeof FrozenReason.Type

export const FrozenBalance = Schema.Struct({
  reason: FrozenReason,
  currency: CurrencyCode,
  amount: DecimalString,
  /** Value in `fiatCurrency`, 2 decimals (server form fiat_amount per the spec). */
  fiat_amount: DecimalString,
  fiatCurrency: FiatCode,
})
export type FrozenBalance = typeof FrozenBalance.Type
export const FrozenBalances = Schema.Struct({ items: Schema.Array(FrozenBalance) })
export type FrozenBalances = typeof FrozenBalances.Type

export const AccountsGroup = authenticated(
  HttpApiGroup.make("custodyAccounts").add(
    HttpApiEndpoint.get("accounts", "/api/custody/accounts", { query: FiatQuery, success: AccountsData, error: [CustodyBadRequest] }),
    HttpApiEndpoint.post("setNewCurrencySeen", "/api/custody/accounts/new-currency-seen", {
      query: NewCurrencySeenQuery,
      success: HttpApiSchema.NoContent,
      error: CustodyNotFound,
    }),
    HttpApiEndpoint.get("frozenBalances", "/api/custody/frozen-balances", { query: FiatQuery, success: FrozenBalances, error: CustodyBadRequest }),
  ),
)

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

// --- receiver search and custody transfers (spec 1 §3 "Custody transfer item", §4, §7) ---------

export const ReceiverSearchQuery = Schema.Struct({
  /** Username (with or without @) or name prefix; at least 1 character, case-insensitive. */
  query: userText({ minLength: 1, maxLength: 64 }),
})
export const Receiver = Schema.Struct({
  userId: Schema.Int,
  username: Schema.NullOr(Schema.String),
  firstName: Schema.String,
  lastName: Schema.NullOr(Schema.String),
  photoUrl: Schema.NullOr(Schema.String),
})
export type Receiver = typeof Receiver.Type
/** At most 20 users of the app, the caller excluded, exact username first. */
export const Receivers = Schema.Struct({ items: Schema.Array(Receiver) })
export type Receivers = typeof Receivers.Type

export const CreateTransferRequest = Schema.Struct({
  /** The client's idempotency key (a uuid per send attempt): a retry returns the first transfer. */
  idempotencyKey: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{8,64}$/, { message: "8-64 characters of A-Z a-z 0-9 _ -" })),
  /** Telegram user id of the receiver (from the receiver search). */
  receiverId: TelegramUserId,
  currency: CurrencyCode,
  amount: AmountInput,
  comment: Schema.optionalKey(userText({ maxLength: 256 })),
})
export type CreateTransferRequest = typeof CreateTransferRequest.Type

/** Raw state: new (awaiting the receiver), accepted, canceled (by the sender), expired (after 14 days, back to the sender). */
export const TgTransferStatus = Schema.Literals(["new", "accepted", "canceled", "expired"])
export type TgTransferStatus = typeof TgTransferStatus.Type
/** Spec 1 §4 mapping: new -> pending; success|accepted -> accepted; canceled|rejected -> rejected; else failed. */
export const TransferStatus = Schema.Literals(["pending", "accepted", "rejected", "failed"])
export type TransferStatus = typeof TransferStatus.Type

export const mapTransferStatus = (raw: string): TransferStatus =>
  raw === "new" ? "pending" : raw === "success" || raw === "accepted" ? "accepted" : raw === "canceled" || raw === "rejected" ? "rejected" : "failed"

export const TransferRole = Schema.Literals(["sender", "receiver"])
export type TransferRole = typeof TransferRole.Type

/** Spec 1 §3 custody transfer item (snake_case as the spec names it) plus the receiver and role. */
export const CustodyTransfer = Schema.Struct({
  id: Schema.String,
  currency: CurrencyCode,
  amount: DecimalString,
  comment: Schema.NullOr(Schema.String),
  sender_id: Schema.Int,
  sender_username: Schema.NullOr(Schema.String),
  sender_name: Schema.String,
  sender_photo_url: Schema.NullOr(Schema.String),
  receiver_id: Schema.Int,
  receiver_username: Schema.NullOr(Schema.String),
  receiver_name: Schema.String,
  receiver_photo_url: Schema.NullOr(Schema.String),
  created_at: Instant,
  expires_at: Instant,
  /** When accepted, canceled or expired; null while new. */
  resolved_at: Schema.NullOr(Instant),
  /** Always null for custody transfers (no chain transaction); kept for the escrow mapping. */
  crypto_tx_id: Schema.NullOr(Schema.String),
  tg_transfer_status: TgTransferStatus,
  status: TransferStatus,
  /** The caller's role in this transfer. */
  role: TransferRole,
})
export type CustodyTransfer = typeof CustodyTransfer.Type

/** Only `new` is supported (the incoming transfers waiting for the caller). */
export const TransfersQuery = Schema.Struct({ tg_transfer_status: Schema.Literal("new") })
export const CustodyTransfers = Schema.Struct({ items: Schema.Array(CustodyTransfer) })
export type CustodyTransfers = typeof CustodyTransfers.Type

/** A transfer id: 1..2^63-1 (a bigint column). */
export const TransferParams = Schema.Struct({ transfer_id: bigIntId({ message: "a transfer id" }) })
/** Spec 1 §7: approve carries `address`; custody transfers credit the custodial account and ignore it. */
export const ApproveQuery = Schema.Struct({ address: Schema.optionalKey(userText({ maxLength: 256 })) })

export const TransfersGroup = authenticated(
  HttpApiGroup.make("custodyTransfers").add(
    HttpApiEndpoint.get("searchReceivers", "/api/custody/receivers", { query: ReceiverSearchQuery, success: Receivers }),
    HttpApiEndpoint.post("create", "/api/custody/transfers", {
      payload: CreateTransferRequest,
      /** The operation token and its device serial (decision 0550): needed by passcode-forced users and above the limit. */
      headers: OperationTokenHeaders,
      success: CustodyTransfer,
      /** RateLimited: money calls per user (decision 0206). */
      error: [CustodyForbidden, CustodyNotFound, CustodyConflict, CustodyBadRequest, OperationTokenError, RateLimitedResponse],
    }),
    HttpApiEndpoint.get("list", "/api/custody/transfers", { query: TransfersQuery, success: CustodyTransfers }),
    HttpApiEndpoint.get("get", "/api/custody/transfers/:transfer_id", { params: TransferParams, success: CustodyTransfer, error: CustodyNotFound }),
    HttpApiEndpoint.post("approve", "/api/custody/transfers/:transfer_id/approve", {
      params: TransferParams,
      query: ApproveQuery,
      success: CustodyTransfer,
      error: [CustodyForbidden, CustodyNotFound, CustodyConflict],
    }),
    HttpApiEndpoint.post("cancel", "/api/custody/transfers/:transfer_id/cancel", {
      params: TransferParams,
      success: CustodyTransfer,
      error: [CustodyForbidden, CustodyNotFound, CustodyConflict],
    }),
  ),
)

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

// --- notification settings (spec 1 §2 /settings/notifications/{type}) ------------------------

export const NotificationType = Schema.Literals(["market_trends", "product", "marketing", "educational", "feedback"])
export type NotificationType = typeof NotificationType.Type
export const NotificationSetting = Schema.Struct({ type: NotificationType, enabled: Schema.Boolean })
export type NotificationSetting = typeof NotificationSetting.Type
/** Every type, in the order above; a type never set is enabled. */
export const NotificationSettings = Schema.Struct({ items: Schema.Array(NotificationSetting) })
export type NotificationSettings = typeof NotificationSettings.Type
export const NotificationParams = Schema.Struct({ type: NotificationType })
export const SetNotificationRequest = Schema.Struct({ enabled: Schema.Boolean })

export const NotificationsGroup = authenticated(
  HttpApiGroup.make("custodyNotifications").add(
    HttpApiEndpoint.get("list", "/api/custody/notification-settings", { success: NotificationSettings }),
    HttpApiEndpoint.put("set", "/api/custody/notification-settings/:type", {
      params: NotificationParams,
      payload: SetNotificationRequest,
      success: NotificationSetting,
    }),
  ),
)

/** The custody groups as one API (the client: `HttpApiClient.make(CustodyApi, { baseUrl })`). */
export const CustodyApi = HttpApi.make(ApiId).add(AccountsGroup, RatesGroup, TransfersGroup, TransactionsGroup, NotificationsGroup)
