/**
 * The on-chain part of `@wallet/plugin-custody/api` (re-exported by ../api.ts): the custody plugin's on-chain HTTP contract (spec 1 §3
 * "Asset" addresses, §4 asset creation retries, §7 get-or-create wallet and create withdraw
 * request, §9 address retry delays; spec 2 §5 "Send address check"). Browser-safe: imports only
 * `effect` and `@wallet/kernel/api`. Every endpoint needs `Authorization: Bearer <access token>`.
 *
 * Amounts are integer minor units of the currency (`decimals` of currencies.ts) as `bigint`; on
 * the wire they are decimal strings ("1500000000").
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { authenticated, bigIntId, NotFound, OperationTokenError, OperationTokenHeaders, RateLimitedResponse, userText } from "@wallet/kernel/api"
import { CustodyForbidden } from "./forbidden.ts"

export const CUSTODY_CHAIN_API_PREFIX = "/api/custody"

// --- fields ------------------------------------------------------------------------------------

export const NETWORK_CODES = ["ton", "tron", "ethereum", "solana", "bitcoin"] as const
export const NetworkCodeSchema = Schema.Literals(NETWORK_CODES)
export type NetworkCodeValue = typeof NetworkCodeSchema.Type

/**
 * A currency code of currencies.ts ("TON", "USDT", ...) in the on-chain paths. Unknown codes answer
 * `unsupported_currency`. Not exported: ../api.ts's `CurrencyCode` is the contract's (this one keeps
 * its own message, which clients of these endpoints have always seen).
 */
const ChainCurrencyCode = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,16}$/, { message: "a currency code is 1-16 letters or digits" }))

/** Integer minor units, never negative (wire: a decimal string). */
export const MinorUnits = Schema.BigInt.check(Schema.isGreaterThanOrEqualToBigInt(0n))
/** Minor units a client sends: what fits the Ledger's `numeric(78,0)` columns (below 10^78). */
export const MinorUnitsInput = MinorUnits.check(Schema.isLessThanOrEqualToBigInt(10n ** 78n - 1n))

/** What the user typed as the receiver: an address of the network or a `.ton` name. */
export const AddressInput = userText({ maxLength: 256 })

/** A withdrawal comment (TON text comment / memo); at most 120 characters. */
export const WithdrawComment = userText({ maxLength: 120 })

/** Client-made idempotency key of a withdraw request (a uuid is fine): a retry returns the first answer. */
export const IdempotencyKey = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{8,64}$/, { message: "an idempotency key is 8-64 letters, digits, - or _" }))

// --- deposit addresses (get or create wallet) --------------------------------------------------

/** One deposit address of an asset (spec 1 §3 Asset.addresses). */
export const DepositAddress = Schema.Struct({
  address: Schema.String,
  network_code: NetworkCodeSchema,
  /** An older address of this network the client should replace (null: none). */
  wallet_to_replace: Schema.NullOr(Schema.String),
})
export type DepositAddress = typeof DepositAddress.Type

export const GetOrCreateWalletResponse = Schema.Struct({ addresses: Schema.Array(DepositAddress) })
export type GetOrCreateWalletResponse = typeof GetOrCreateWalletResponse.Type

/**
 * Spec 1 §9: retry delays of the get-or-create call while no address for the requested network
 * came back: 0 ms for the first 3 tries, 200 ms up to 6, 2000 ms up to 9, then 4000 ms.
 * `attempt` counts from 1 (the delay before that attempt).
 */
export const addressRetryDelayMs = (attempt: number): number => (attempt <= 3 ? 0 : attempt <= 6 ? 200 : attempt <= 9 ? 2000 : 4000)

/** Whether an answer already holds an address for `network` (else the client retries). */
export const hasAddressFor = (response: GetOrCreateWalletResponse, network: NetworkCodeValue): boolean =>
  response.addresses.some((entry) => entry.network_code === network)

// --- errors ------------------------------------------------------------------------------------

/** The raw codes the server answers for a receiver it does not accept (spec 2 §5 "Send address check"). */
export const ADDRESS_CHECK_CODES = [
  "invalid_domain",
  "invalid_number_of_characters",
  "withdraw_to_yourself_is_forbidden",
  "address_forbidden",
  "invalid_web3_domain",
  "invalid_address",
] as const
export const AddressCheckCode = Schema.Literals(ADDRESS_CHECK_CODES)
export type AddressCheckCode = typeof AddressCheckCode.Type

export class AddressCheckError extends Schema.TaggedError<AddressCheckError>()(
  "AddressCheckError",
  { code: AddressCheckCode, message: Schema.String },
  { httpApiStatus: 422, description: "The receiver is not a valid address of this network; `code` says why" },
) {}

/** What the client shows for an address check failure (spec 2 §5). */
export type ClientAddressError = "invalid_domain" | "invalid_length" | "yourself" | "address_forbidden" | "invalid_web3_domain" | "invalid_address"

/** Raw server code (or anything else, e.g. an unknown future code) -> the client's error. */
export const toClientAddressError = (code: string | undefined | null): ClientAddressError => {
  switch (code) {
    case "invalid_domain":
      return "invalid_domain"
    case "invalid_number_of_characters":
      return "invalid_length"
    case "withdraw_to_yourself_is_forbidden":
      return "yourself"
    case "address_forbidden":
      return "address_forbidden"
    case "invalid_web3_domain":
      return "invalid_web3_domain"
    default:
      return "invalid_address"
  }
}

export const ChainRequestErrorCode = Schema.Literals([
  /** The currency is not in the table or is a stock token. */
  "unsupported_currency",
  /** The currency has no deposits/withdrawals on this network. */
  "unsupported_network",
  /** Below the network's minimum (fee/limits endpoint). */
  "amount_too_small",
  /** Above the network's maximum per withdrawal. */
  "amount_too_large",
  /** amount + fee exceed the available balance. */
  "insufficient_funds",
  /** The idempotency key was used for another request body. */
  "idempotency_conflict",
  /** The chain could not be reached (e.g. a `.ton` name lookup); retry later. */
  "chain_unavailable",
  /** Above what the user's verification level allows in its window (decision 0920); verify to a higher level. */
  "verification_limit_exceeded",
  /** A verification limit applies and the withdrawal's value is unknown now (no rate); retry later. */
  "rate_unavailable",
])
export type ChainRequestErrorCode = typeof ChainRequestErrorCode.Type

export class ChainRequestError extends Schema.TaggedError<ChainRequestError>()(
  "ChainRequestError",
  { code: ChainRequestErrorCode, message: Schema.String },
  { httpApiStatus: 400, description: "The deposit or withdraw request is not possible; `code` says why" },
) {}

// --- address check -----------------------------------------------------------------------------

export const ValidateAddressQuery = Schema.Struct({ currency: ChainCurrencyCode, network: NetworkCodeSchema, address: AddressInput })
export type ValidateAddressQuery = typeof ValidateAddressQuery.Type

export const ValidateAddressResponse = Schema.Struct({
  /** The address funds would go to (a `.ton` name resolved; TON addresses in user-friendly form). */
  address: Schema.String,
  network_code: NetworkCodeSchema,
  /** The name the user typed when it was a domain (e.g. "alice.ton"), else null. */
  domain: Schema.NullOr(Schema.String),
})
export type ValidateAddressResponse = typeof ValidateAddressResponse.Type

// --- withdraw fee and limits -------------------------------------------------------------------

export const WithdrawLimitsQuery = Schema.Struct({ currency: ChainCurrencyCode, network: NetworkCodeSchema })

export const WithdrawLimits = Schema.Struct({
  currency: Schema.String,
  network_code: NetworkCodeSchema,
  decimals: Schema.Int,
  /** Charged on top of the amount (same currency), to the platform's fee account. */
  fee: MinorUnits,
  /** Smallest amount the receiver may get. */
  min_amount: MinorUnits,
  /** Largest amount per withdrawal. */
  max_amount: MinorUnits,
  /** What the user can send now: min(max_amount, available - fee), 0 when below min_amount. */
  max_sendable: MinorUnits,
})
export type WithdrawLimits = typeof WithdrawLimits.Type

// --- withdraw requests -------------------------------------------------------------------------

/**
 * Withdrawal lifecycle: `pending` (funds held, not yet on chain) -> `processing` (sent, not final)
 * -> `success` (final on chain, posted) or `fail` (rejected/bounced, hold voided, balance back).
 * Generic client mapping (spec 1 §4): pending -> pending, success -> accepted, anything else -> failed
 * (show `processing` like pending).
 */
export const WithdrawStatus = Schema.Literals(["pending", "processing", "success", "fail"])
export type WithdrawStatus = typeof WithdrawStatus.Type

export const WithdrawTransaction = Schema.Struct({
  id: Schema.String,
  status: WithdrawStatus,
  currency: Schema.String,
  network_code: NetworkCodeSchema,
  /** What the receiver gets. */
  amount: MinorUnits,
  fee: MinorUnits,
  /** What left the balance: amount + fee. */
  total: MinorUnits,
  /** The receiver's address (a domain already resolved). */
  address: Schema.String,
  comment: Schema.NullOr(Schema.String),
  /** The on-chain transaction (TON: the trace/event id) once sent. */
  tx_hash: Schema.NullOr(Schema.String),
  /** Why it failed (status fail). */
  failure_reason: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String,
  gateway: Schema.Literal("withdraw_onchain"),
})
export type WithdrawTransaction = typeof WithdrawTransaction.Type

export const CreateWithdrawRequest = Schema.Struct({
  /** What the receiver gets (minor units). Ignored when max_value is true. */
  amount: MinorUnitsInput,
  currency: ChainCurrencyCode,
  /** Send the whole available balance: the receiver gets it minus the fee. */
  max_value: Schema.Boolean,
  address: AddressInput,
  comment: Schema.optionalKey(WithdrawComment),
  network: NetworkCodeSchema,
  idempotency_key: IdempotencyKey,
})
export type CreateWithdrawRequest = typeof CreateWithdrawRequest.Type

/** An alerting banner (e.g. withdrawals of a network suspended): shown as a toast (spec 1 §7). */
export const AlertingBanner = Schema.Struct({
  code: Schema.String,
  title: Schema.String,
  message: Schema.String,
})
export type AlertingBanner = typeof AlertingBanner.Type

export const CreateWithdrawResponse = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("transaction"), transaction: WithdrawTransaction }),
  Schema.Struct({ kind: Schema.Literal("alerting_banner"), alerting_banner: AlertingBanner }),
])
export type CreateWithdrawResponse = typeof CreateWithdrawResponse.Type

// --- the group ---------------------------------------------------------------------------------

export const CustodyChainGroup = authenticated(
  HttpApiGroup.make("custodyChain").add(
    /** Get-or-create wallet (spec 1 §7): the user's deposit address(es) of `currency` on `network`. */
    HttpApiEndpoint.post("getOrCreateWallet", "/api/custody/wallets/:currency", {
      params: { currency: ChainCurrencyCode },
      query: { network: NetworkCodeSchema },
      success: GetOrCreateWalletResponse,
      /** CustodyForbidden: custody unavailable, restricted, or accessToCreateAddress off. */
      error: [ChainRequestError, CustodyForbidden],
    }),
    HttpApiEndpoint.get("validateAddress", "/api/custody/addresses/validate", {
      query: ValidateAddressQuery,
      success: ValidateAddressResponse,
      error: [AddressCheckError, ChainRequestError],
    }),
    HttpApiEndpoint.get("withdrawLimits", "/api/custody/withdrawals/limits", {
      query: WithdrawLimitsQuery,
      success: WithdrawLimits,
      error: ChainRequestError,
    }),
    /** Create withdraw request (spec 1 §7): holds amount + fee, then the processor sends it. */
    HttpApiEndpoint.post("createWithdraw", "/api/custody/withdrawals", {
      payload: CreateWithdrawRequest,
      /** The operation token and its device serial (decision 0550): needed by passcode-forced users and above the limit. */
      headers: OperationTokenHeaders,
      success: CreateWithdrawResponse,
      /** CustodyForbidden: custody unavailable, restricted, or accessToWithdraws off. OperationTokenError: 403, the token check. */
      /** RateLimited: money calls per user, counted with transfers (decision 0206). */
      error: [AddressCheckError, ChainRequestError, CustodyForbidden, OperationTokenError, RateLimitedResponse],
    }),
    HttpApiEndpoint.get("getWithdraw", "/api/custody/withdrawals/:id", {
      /** A withdrawal id: 1..2^63-1 (a bigint column). */
      params: { id: bigIntId({ message: "a withdrawal id" }) },
      success: WithdrawTransaction,
      error: NotFound,
    }),
  ),
)
