/** The transfers group: receiver search and custody transfers to a Telegram user (re-exported by ../api.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { authenticated, bigIntId, OperationTokenError, OperationTokenHeaders, RateLimitedResponse, TelegramUserId, userText } from "@wallet/kernel/api"
import { CustodyForbidden } from "./forbidden.ts"
import { AmountInput, CurrencyCode, DecimalString, Instant, CustodyBadRequest, CustodyConflict, CustodyNotFound } from "./fields.ts"

/** Spec 4: a custody transfer the receiver neither approved nor the sender cancelled expires after 14 days. */
export const TRANSFER_EXPIRY_DAYS = 14

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
