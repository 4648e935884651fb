/** The Ledger's typed errors (all `Schema.TaggedError`, so they cross HTTP and logs intact). */
import { Schema } from "effect"

/** The debited account's available balance is below the amount (nothing was written). */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  owner: Schema.String,
  currency: Schema.String,
  available: Schema.BigInt,
  requested: Schema.BigInt,
}) {}

/** The idempotency key was already used for a different request body. */
export class IdempotencyConflict extends Schema.TaggedError<IdempotencyConflict>()("IdempotencyConflict", {
  key: Schema.String,
}) {}

/** No account for (owner, currency): open it first with `openAccount`. */
export class UnknownAccount extends Schema.TaggedError<UnknownAccount>()("UnknownAccount", {
  owner: Schema.String,
  currency: Schema.String,
}) {}

export class UnknownCurrency extends Schema.TaggedError<UnknownCurrency>()("UnknownCurrency", {
  currency: Schema.String,
}) {}

export class UnknownHold extends Schema.TaggedError<UnknownHold>()("UnknownHold", {
  holdId: Schema.String,
}) {}

/** The hold was already posted, voided or expired (by another request). */
export class HoldNotPending extends Schema.TaggedError<HoldNotPending>()("HoldNotPending", {
  holdId: Schema.String,
  status: Schema.String,
}) {}

/** A malformed request: non-positive amount, mixed currencies in a leg, same account both sides ... */
export class InvalidMovement extends Schema.TaggedError<InvalidMovement>()("InvalidMovement", {
  message: Schema.String,
}) {}

/** What a movement may fail with (besides `SqlError`). */
export type MovementError = InsufficientFunds | IdempotencyConflict | UnknownAccount | UnknownCurrency | UnknownHold | HoldNotPending | InvalidMovement
