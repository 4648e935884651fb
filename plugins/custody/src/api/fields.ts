/** Field schemas and the 400 / 404 / 409 errors of the custody contract (re-exported by ../api.ts). */
import { Schema } from "effect"

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
