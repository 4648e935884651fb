/**
 * The Ledger's public data types, request validation, request hashing and amount helpers.
 * Amounts are integer minor units (`bigint`) everywhere; never floats.
 */
import { createHash } from "node:crypto"
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { InvalidMovement, UnknownHold } from "./errors.ts"

/** An account is identified by its owner and currency: `{ owner: "user:42", currency: "TON" }`. */
export interface AccountRef {
  readonly owner: string
  readonly currency: string
}

/** The system accounts every currency gets when it is defined. */
export const System = {
  /** Money that entered from outside (chain deposits, faucet): the only account that goes negative. */
  deposits: "system:deposits",
  /** Money that left to the outside (posted withdrawals). */
  withdrawals: "system:withdrawals",
  /** Fees the platform earned. */
  fees: "system:fees",
  /** Funds of pending holds (frozen): its balance is the sum of the currency's pending holds. */
  holds: "system:holds",
  /**
   * The platform's inventory for conversions (`convert`): it receives what users pay and pays what they
   * receive. Never negative: a conversion it cannot cover is refused (decision 1100).
   */
  house: "system:house",
} as const

export const systemAccount = (owner: (typeof System)[keyof typeof System], currency: string): AccountRef => ({ owner, currency })
/** The owner string of a Telegram user's accounts. */
export const userOwner = (userId: number | bigint | string): string => `user:${userId}`
export const isSystemOwner = (owner: string): boolean => owner.startsWith("system:")

export interface Currency {
  readonly code: string
  readonly decimals: number
}

export type Metadata = Readonly<Record<string, string | number | boolean | null>>

export interface Leg {
  readonly from: AccountRef
  readonly to: AccountRef
  readonly amount: bigint
}

/**
 * A caller's own writes that must commit or roll back with its movements (decision 0407): `write` runs
 * inside the Ledger's transaction, once per batch, with every item of this group whose movement the batch
 * made (a replay of a committed key has its writes already and is not passed), after the movements are
 * written and before the commit. If it fails, the batch rolls back and the Ledger runs each movement on its
 * own, so the failure (an `SqlError`) is only that movement's. It must touch only the caller's tables and
 * take its row locks after the Ledger's (every batch locks holds, then accounts, then these).
 * A batch that rolls back and runs again calls `write` again, and a movement that then replays one
 * committed meanwhile is not passed: what `write` hands back to a caller (through its item) is from the
 * committed attempt only if it names the movement the Ledger answered (its `transactionId` or `holdId`:
 * ids come from a sequence and are never reused).
 */
export interface AlongGroup<T> {
  /** For errors and traces. */
  readonly name: string
  readonly write: (made: ReadonlyArray<{ readonly item: T; readonly movement: Movement }>) => Effect.Effect<void, SqlError, SqlClient.SqlClient>
}

/** One movement's part of an `AlongGroup` (made with `along`). */
export interface Along {
  readonly group: AlongGroup<unknown>
  readonly item: unknown
}

export const along = <T>(group: AlongGroup<T>, item: T): Along => ({ group: group as AlongGroup<unknown>, item })

interface Described {
  /** Idempotency key, 1-200 chars, global: namespace it ("custody:send:<uuid>"). */
  readonly key: string
  readonly memo?: string | undefined
  readonly metadata?: Metadata | undefined
  /** Writes of the caller's that commit with this movement (not part of the request's hash). */
  readonly along?: Along | undefined
}

/** One movement of one or more legs (e.g. amount to the receiver plus a fee leg), all or nothing. */
export interface TransferRequest extends Described {
  readonly legs: ReadonlyArray<Leg>
}

/** Moves `amount` from `from` into the currency's holds account until it is posted to `to`, voided or expired. */
export interface HoldRequest extends Described {
  readonly from: AccountRef
  readonly to: AccountRef
  readonly amount: bigint
  readonly expiresAt?: Date | undefined
}

/**
 * Posts a pending hold in one movement: of the posted `amount` (default: all of it), each of `fees`
 * (at most 8, each positive, in the hold's currency, never the holds account) goes to its `to`
 * account and the hold's `to` account gets the remainder (`amount - sum(fees)`, which may be 0);
 * the rest of the hold returns to `from`. Fees above the posted amount are `InvalidMovement`.
 */
export interface PostHoldRequest extends Described {
  readonly holdId: string
  readonly amount?: bigint | undefined
  readonly fees?: ReadonlyArray<{ readonly to: AccountRef; readonly amount: bigint }> | undefined
}

/** Returns a pending hold to its `from` account. */
export interface VoidHoldRequest extends Described {
  readonly holdId: string
}

/**
 * One conversion between a user and the house (decision 1100), all legs or none: the user pays `pay` to
 * the house in one currency, the house pays `receive` to the user in another, and an optional `fee` goes
 * from the user to `system:fees` in the pay currency. Refused (`InsufficientFunds`, nothing moves) when
 * the user cannot pay `pay + fee` or the house cannot pay `receive`.
 */
export interface ConvertRequest extends Described {
  /** The user's owner string (`userOwner(id)`); never a `system:` owner. */
  readonly user: string
  readonly pay: { readonly currency: string; readonly amount: bigint }
  readonly receive: { readonly currency: string; readonly amount: bigint }
  /** In the pay currency, on top of `pay.amount`. */
  readonly fee?: bigint | undefined
}

export type MovementKind = "transfer" | "hold" | "post" | "void" | "expire" | "convert"

/** One side of a movement: negative debits the account, positive credits it. */
export interface Entry {
  readonly owner: string
  readonly currency: string
  readonly amount: bigint
}

/** The committed result of a movement; a retry with the same key returns an equal value. */
export interface Movement {
  readonly transactionId: string
  readonly key: string
  readonly kind: MovementKind
  /** The hold placed (kind "hold": equals transactionId) or resolved (post, void, expire). */
  readonly holdId: string | null
  readonly memo: string | null
  readonly metadata: Metadata
  readonly createdAt: Date
  readonly entries: ReadonlyArray<Entry>
}

export interface Balance {
  readonly owner: string
  readonly currency: string
  /** What the account can spend now. */
  readonly available: bigint
  /** Frozen in its pending holds (not part of `available`). */
  readonly held: bigint
}

export type HoldStatus = "pending" | "posted" | "voided" | "expired"

export interface Hold {
  readonly id: string
  readonly from: AccountRef
  readonly to: AccountRef
  readonly amount: bigint
  readonly status: HoldStatus
  readonly postedAmount: bigint | null
  readonly expiresAt: Date | null
  readonly createdAt: Date
  readonly resolvedAt: Date | null
  readonly resolvedBy: string | null
}

/** A pending hold with the key and metadata of the movement that placed it (`Ledger.pendingHolds`). */
export interface PendingHold extends Hold {
  readonly key: string
  readonly metadata: Metadata
}

export interface HistoryEntry {
  readonly entryId: string
  readonly currency: string
  readonly transactionId: string
  readonly key: string
  readonly kind: MovementKind
  readonly holdId: string | null
  readonly amount: bigint
  readonly memo: string | null
  readonly metadata: Metadata
  readonly createdAt: Date
}

// --- internal commands ----------------------------------------------------------------------------

interface CommandBase {
  readonly key: string
  readonly hash: string
  readonly memo: string | null
  readonly metadata: Metadata
  readonly along: Along | null
}

export type Command =
  | (CommandBase & { readonly kind: "transfer" | "convert"; readonly legs: ReadonlyArray<Leg> })
  | (CommandBase & { readonly kind: "hold"; readonly from: AccountRef; readonly to: AccountRef; readonly amount: bigint; readonly expiresAt: Date | null })
  | (CommandBase & {
      readonly kind: "post"
      readonly holdId: string
      readonly amount: bigint | null
      readonly fees: ReadonlyArray<{ readonly to: AccountRef; readonly amount: bigint }>
    })
  | (CommandBase & { readonly kind: "void"; readonly holdId: string })
  | (CommandBase & { readonly kind: "expire"; readonly holdId: string; readonly now: Date })

const MAX_LEGS = 64
const MAX_FEES = 8
const MAX_MEMO = 1000
const MAX_METADATA = 4096
const HOLD_ID = /^[1-9][0-9]{0,18}$/

const sortKeys = (metadata: Metadata): Array<[string, unknown]> =>
  Object.keys(metadata)
    .sort()
    .map((key) => [key, metadata[key]])

/** sha256 of the canonical request body: a retry must hash equal, any other body must not. */
const hashOf = (body: unknown): string =>
  createHash("sha256")
    .update(JSON.stringify(body, (_key, value) => (typeof value === "bigint" ? value.toString() : value)))
    .digest("base64url")

const refKey = (ref: AccountRef) => [ref.owner, ref.currency]

/** The holds account moves only through holds (its balance must equal the pending holds). */
const checkRef = (ref: AccountRef, what: string): string | undefined =>
  typeof ref?.owner !== "string" || ref.owner.length === 0 || ref.owner.length > 200 || typeof ref.currency !== "string" || ref.currency.length === 0
    ? `${what}: owner and currency are required`
    : ref.owner === System.holds
      ? `${what}: the holds account moves only through hold, postHold and voidHold`
      : undefined

/** Keys the Ledger makes itself (expiry) start with this; callers may not use it. */
const RESERVED_KEY_PREFIX = "ledger:"

const checkCommon = (request: Described): string | undefined => {
  if (typeof request.key !== "string" || request.key.length === 0 || request.key.length > 200) return "key must be 1-200 characters"
  if (request.key.startsWith(RESERVED_KEY_PREFIX)) return `keys starting with "${RESERVED_KEY_PREFIX}" are reserved for the ledger`
  if (request.memo !== undefined && (typeof request.memo !== "string" || request.memo.length > MAX_MEMO)) return `memo must be at most ${MAX_MEMO} characters`
  if (request.metadata !== undefined) {
    if (typeof request.metadata !== "object" || request.metadata === null || Array.isArray(request.metadata)) return "metadata must be an object"
    if (JSON.stringify(request.metadata).length > MAX_METADATA) return `metadata must be at most ${MAX_METADATA} characters as JSON`
    for (const value of Object.values(request.metadata)) {
      if (value !== null && !["string", "boolean"].includes(typeof value) && !(typeof value === "number" && Number.isFinite(value))) {
        return "metadata values must be strings, finite numbers, booleans or null"
      }
    }
  }
  return undefined
}

/** numeric(78,0) holds 78 digits; balances are sums, so single amounts stay well below. */
const MAX_AMOUNT = 10n ** 60n

const checkAmount = (amount: unknown, what: string): string | undefined =>
  typeof amount !== "bigint" || amount <= 0n ? `${what} must be a positive bigint (minor units)` : amount >= MAX_AMOUNT ? `${what} is too large` : undefined

const sameAccount = (a: AccountRef, b: AccountRef) => a.owner === b.owner && a.currency === b.currency

const base = (request: Described) => ({
  key: request.key,
  memo: request.memo === undefined || request.memo === "" ? null : request.memo,
  metadata: request.metadata ?? {},
  along: request.along ?? null,
})

export type ValidationError = InvalidMovement | UnknownHold

export const transferCommand = (request: TransferRequest): Command | ValidationError => {
  const problem =
    checkCommon(request) ??
    (!Array.isArray(request.legs) || request.legs.length === 0 || request.legs.length > MAX_LEGS ? `legs: 1 to ${MAX_LEGS}` : undefined) ??
    request.legs
      .map(
        (leg, index) =>
          checkRef(leg.from, `legs[${index}].from`) ??
          checkRef(leg.to, `legs[${index}].to`) ??
          checkAmount(leg.amount, `legs[${index}].amount`) ??
          (leg.from.currency !== leg.to.currency ? `legs[${index}]: from and to must hold the same currency` : undefined) ??
          (sameAccount(leg.from, leg.to) ? `legs[${index}]: from and to are the same account` : undefined),
      )
      .find((message) => message !== undefined)
  if (problem !== undefined) return new InvalidMovement({ message: problem })
  const common = base(request)
  const legs = request.legs.map((leg) => ({
    from: { owner: leg.from.owner, currency: leg.from.currency },
    to: { owner: leg.to.owner, currency: leg.to.currency },
    amount: leg.amount,
  }))
  return {
    kind: "transfer",
    ...common,
    legs,
    hash: hashOf(["transfer", legs.map((leg) => [refKey(leg.from), refKey(leg.to), leg.amount]), common.memo, sortKeys(common.metadata)]),
  }
}

export const convertCommand = (request: ConvertRequest): Command | ValidationError => {
  const fee = request.fee ?? 0n
  const problem =
    checkCommon(request) ??
    (typeof request.user !== "string" || request.user.length === 0 || request.user.length > 200 ? "user must be 1-200 characters" : undefined) ??
    (isSystemOwner(request.user) ? "user: a conversion is between a user and the house, not a system account" : undefined) ??
    (typeof request.pay?.currency !== "string" || typeof request.receive?.currency !== "string" ? "pay and receive need a currency" : undefined) ??
    (request.pay.currency === request.receive.currency ? "pay and receive must be different currencies" : undefined) ??
    checkAmount(request.pay.amount, "pay.amount") ??
    checkAmount(request.receive.amount, "receive.amount") ??
    (fee === 0n ? undefined : checkAmount(fee, "fee"))
  if (problem !== undefined) return new InvalidMovement({ message: problem })
  const common = base(request)
  const user = (currency: string): AccountRef => ({ owner: request.user, currency })
  const house = (currency: string): AccountRef => ({ owner: System.house, currency })
  const legs: Array<Leg> = [
    { from: user(request.pay.currency), to: house(request.pay.currency), amount: request.pay.amount },
    { from: house(request.receive.currency), to: user(request.receive.currency), amount: request.receive.amount },
  ]
  if (fee > 0n) legs.push({ from: user(request.pay.currency), to: { owner: System.fees, currency: request.pay.currency }, amount: fee })
  return {
    kind: "convert",
    ...common,
    legs,
    hash: hashOf([
      "convert",
      request.user,
      [request.pay.currency, request.pay.amount],
      [request.receive.currency, request.receive.amount],
      fee,
      common.memo,
      sortKeys(common.metadata),
    ]),
  }
}

export const holdCommand = (request: HoldRequest): Command | ValidationError => {
  const problem =
    checkCommon(request) ??
    checkRef(request.from, "from") ??
    checkRef(request.to, "to") ??
    checkAmount(request.amount, "amount") ??
    (request.from.currency !== request.to.currency ? "from and to must hold the same currency" : undefined) ??
    (sameAccount(request.from, request.to) ? "from and to are the same account" : undefined) ??
    (request.expiresAt !== undefined && (!(request.expiresAt instanceof Date) || Number.isNaN(request.expiresAt.getTime()))
      ? "expiresAt must be a valid Date"
      : undefined)
  if (problem !== undefined) return new InvalidMovement({ message: problem })
  const common = base(request)
  const from = { owner: request.from.owner, currency: request.from.currency }
  const to = { owner: request.to.owner, currency: request.to.currency }
  const expiresAt = request.expiresAt ?? null
  return {
    kind: "hold",
    ...common,
    from,
    to,
    amount: request.amount,
    expiresAt,
    hash: hashOf(["hold", refKey(from), refKey(to), request.amount, expiresAt?.getTime() ?? null, common.memo, sortKeys(common.metadata)]),
  }
}

const checkFees = (fees: PostHoldRequest["fees"], amount: bigint | undefined): string | undefined => {
  if (fees === undefined) return undefined
  if (!Array.isArray(fees) || fees.length > MAX_FEES) return `fees: at most ${MAX_FEES}`
  let total = 0n
  for (const [index, fee] of fees.entries()) {
    const problem = checkRef(fee?.to, `fees[${index}].to`) ?? checkAmount(fee.amount, `fees[${index}].amount`)
    if (problem !== undefined) return problem
    total += fee.amount
  }
  return amount !== undefined && total > amount ? `fees ${total} exceed the posted amount ${amount}` : undefined
}

export const postCommand = (request: PostHoldRequest): Command | ValidationError => {
  const problem =
    checkCommon(request) ?? (request.amount !== undefined ? checkAmount(request.amount, "amount") : undefined) ?? checkFees(request.fees, request.amount)
  if (problem !== undefined) return new InvalidMovement({ message: problem })
  if (typeof request.holdId !== "string" || !HOLD_ID.test(request.holdId)) return new UnknownHold({ holdId: String(request.holdId) })
  const common = base(request)
  const amount = request.amount ?? null
  const fees = (request.fees ?? []).map((fee) => ({ to: { owner: fee.to.owner, currency: fee.to.currency }, amount: fee.amount }))
  // Without fees the body hashes exactly as before fees existed (stored hashes stay valid).
  const body: Array<unknown> = ["post", request.holdId, amount, common.memo, sortKeys(common.metadata)]
  if (fees.length > 0) body.push(fees.map((fee) => [...refKey(fee.to), fee.amount]))
  return { kind: "post", ...common, holdId: request.holdId, amount, fees, hash: hashOf(body) }
}

export const voidCommand = (request: VoidHoldRequest): Command | ValidationError => {
  const problem = checkCommon(request)
  if (problem !== undefined) return new InvalidMovement({ message: problem })
  if (typeof request.holdId !== "string" || !HOLD_ID.test(request.holdId)) return new UnknownHold({ holdId: String(request.holdId) })
  const common = base(request)
  return { kind: "void", ...common, holdId: request.holdId, hash: hashOf(["void", request.holdId, common.memo, sortKeys(common.metadata)]) }
}

/** The key of the movement that expires a hold: every expirer uses it, so racing expirers replay one result. */
export const expireKey = (holdId: string) => `${RESERVED_KEY_PREFIX}expire:${holdId}`

export const expireCommand = (holdId: string, now: Date): Command => ({
  kind: "expire",
  key: expireKey(holdId),
  memo: null,
  metadata: {},
  along: null,
  holdId,
  now,
  hash: hashOf(["expire", holdId]),
})

// --- amounts ---------------------------------------------------------------------------------------

/** "1.5" with 9 decimals -> 1500000000n. Rejects more fraction digits than the currency has. */
export const parseAmount = (text: string, decimals: number): bigint | undefined => {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim())
  if (match === null) return undefined
  const fraction = match[2] ?? ""
  if (fraction.length > decimals) return undefined
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0")
}

/** 1500000000n with 9 decimals -> "1.5" (the kernel's exact formatter, decision 0130). */
export { formatAmount } from "@wallet/kernel"
