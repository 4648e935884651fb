/**
 * Custody transfers to a Telegram user (spec 1 §3 custody transfer item, §4 status mapping):
 * create = a Ledger hold from the sender (key from the client's idempotency key) with a 14-day
 * expiry; approve (receiver) = post to the receiver; cancel (sender) = void; expiry = void back to
 * the sender. Each step locks the transfer row and runs its Ledger movement in the same SQL
 * transaction, so a transfer is resolved once whatever races.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Ledger, type Metadata } from "@wallet/kernel-server/ledger"
import {
  CustodyBadRequest,
  CustodyConflict,
  CustodyForbidden,
  CustodyNotFound,
  mapTransferStatus,
  TRANSFER_EXPIRY_DAYS,
  type CreateTransferRequest,
  type CustodyTransfer,
  type TgTransferStatus,
  type TransferRole,
} from "../api.ts"
import { currencyInfo, formatAmount, parseAmount } from "../currencies.ts"
import { recordTransaction, setTransferRowsStatus } from "./history.ts"
import { userAccount } from "./ledgerSetup.ts"
import { currentUser, displayName, findUser, findUsers, requireAccess, type CustodyUser } from "./users.ts"

const DAY_MS = 24 * 3_600_000

export interface TransferRow {
  readonly id: string
  readonly senderId: number
  readonly receiverId: number
  readonly currency: string
  readonly amount: bigint
  readonly comment: string | null
  readonly requestHash: string
  readonly holdId: string | null
  readonly status: TgTransferStatus
  readonly createdAt: Date
  readonly expiresAt: Date
  readonly resolvedAt: Date | null
}

interface RawTransfer {
  id: string
  sender_id: string | number
  receiver_id: string | number
  currency: string
  amount: string
  comment: string | null
  request_hash: string
  hold_id: string | null
  status: TgTransferStatus
  created_at: Date | string
  expires_at: Date | string
  resolved_at: Date | string | null
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value))

const toTransfer = (raw: RawTransfer): TransferRow => ({
  id: raw.id,
  senderId: Number(raw.sender_id),
  receiverId: Number(raw.receiver_id),
  currency: raw.currency,
  amount: BigInt(raw.amount),
  comment: raw.comment,
  requestHash: raw.request_hash,
  holdId: raw.hold_id,
  status: raw.status,
  createdAt: date(raw.created_at),
  expiresAt: date(raw.expires_at),
  resolvedAt: raw.resolved_at === null ? null : date(raw.resolved_at),
})

const columns = `id::text as id, sender_id, receiver_id, currency, amount::text as amount, comment, request_hash, hold_id, status, created_at, expires_at, resolved_at`

const selectTransfer = (id: string, lock: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawTransfer>(`select ${columns} from custody_transfers where id = $1::bigint${lock ? " for update" : ""}`, [id])
    return rows.length === 0 ? undefined : toTransfer(rows[0]!)
  })

const now = Effect.gen(function* () {
  const config = yield* ServerConfig
  return new Date(config.now())
})

/** Runs `effect` in one SQL transaction; database failures are defects (the caller may retry with its key). */
const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(effect)
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

export const holdKey = (senderId: number, idempotencyKey: string) => `custody:tg:${senderId}:${idempotencyKey}`

const requestHash = (receiverId: number, currency: string, amount: bigint, comment: string | null) =>
  createHash("sha256").update(JSON.stringify([receiverId, currency, amount.toString(), comment])).digest("hex")

const notFound = () => new CustodyNotFound({ code: "transfer_not_found", message: "No such transfer" })
const notPending = (status: TgTransferStatus) =>
  new CustodyConflict({ code: "transfer_not_pending", message: `The transfer is ${status}, not new`, tgTransferStatus: status })

/** The API item as `viewer` sees it. */
export const transferView = (row: TransferRow, users: ReadonlyMap<number, CustodyUser>, viewerId: number): CustodyTransfer => {
  const sender = users.get(row.senderId)
  const receiver = users.get(row.receiverId)
  const decimals = currencyInfo(row.currency)?.decimals ?? 0
  const role: TransferRole = row.senderId === viewerId ? "sender" : "receiver"
  return {
    id: row.id,
    currency: row.currency,
    amount: formatAmount(row.amount, decimals),
    comment: row.comment,
    sender_id: row.senderId,
    sender_username: sender?.username ?? null,
    sender_name: sender === undefined ? "" : displayName(sender),
    sender_photo_url: sender?.photoUrl ?? null,
    receiver_id: row.receiverId,
    receiver_username: receiver?.username ?? null,
    receiver_name: receiver === undefined ? "" : displayName(receiver),
    receiver_photo_url: receiver?.photoUrl ?? null,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    resolved_at: row.resolvedAt === null ? null : row.resolvedAt.toISOString(),
    crypto_tx_id: null,
    tg_transfer_status: row.status,
    status: mapTransferStatus(row.status),
    role,
  }
}

const viewOf = (row: TransferRow, viewerId: number) => Effect.map(findUsers([row.senderId, row.receiverId]), (users) => transferView(row, users, viewerId))

/** Expires a locked, still-new transfer: void back to the sender (or note the Ledger's own expiry). */
const expireLocked = (row: TransferRow, at: Date) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    if (row.holdId !== null) {
      yield* ledger.voidHold({ key: `custody:tg:${row.id}:expire`, holdId: row.holdId, metadata: { gateway: "tg_transfer", transferId: row.id, reason: "expired" } }).pipe(
        // The Ledger's own sweep may have expired the hold already: the money is back either way.
        Effect.catchTag("HoldNotPending", () => Effect.void),
        Effect.orDie,
      )
    }
    yield* sql`update custody_transfers set status = 'expired', resolved_at = ${at} where id = ${row.id}::bigint`
    yield* setTransferRowsStatus(row.id, "fail", "fail", at)
    return { ...row, status: "expired" as const, resolvedAt: at }
  })

/** `checkAccess: false` only for seeded demo data (a sender without custody today). */
export const createTransfer = (senderId: number, request: CreateTransferRequest, options: { readonly checkAccess?: boolean } = {}) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const sql = yield* SqlClient.SqlClient
    const sender = yield* currentUser(senderId)
    if (options.checkAccess !== false) yield* requireAccess(sender, undefined, "canWithdrawInner")
    const info = currencyInfo(request.currency)
    if (info === undefined) return yield* new CustodyBadRequest({ code: "unsupported_currency", message: `${request.currency} is not a custodial currency` })
    const amount = parseAmount(request.amount, info.decimals)
    if (amount === undefined || amount <= 0n) {
      return yield* new CustodyBadRequest({ code: "invalid_amount", message: `The amount must be above zero with at most ${info.decimals} decimals` })
    }
    if (request.receiverId === senderId) return yield* new CustodyBadRequest({ code: "self_transfer", message: "A transfer to yourself is not possible" })
    const receiver = yield* findUser(request.receiverId)
    if (receiver === undefined || receiver.isBlocked) return yield* new CustodyNotFound({ code: "receiver_not_found", message: "No such user of the app" })
    const comment = request.comment === undefined || request.comment.trim() === "" ? null : request.comment.trim()
    const hash = requestHash(receiver.id, info.code, amount, comment)
    const at = yield* now
    const expiresAt = new Date(at.getTime() + TRANSFER_EXPIRY_DAYS * DAY_MS)

    const row = yield* transaction(
      Effect.gen(function* () {
        const inserted = yield* sql.unsafe<RawTransfer>(
          `insert into custody_transfers (sender_id, receiver_id, currency, amount, comment, idempotency_key, request_hash, status, created_at, expires_at)
           values ($1, $2, $3, $4::numeric, $5, $6, $7, 'new', $8, $9)
           on conflict (sender_id, idempotency_key) do nothing
           returning ${columns}`,
          [senderId, receiver.id, info.code, amount.toString(), comment, request.idempotencyKey, hash, at, expiresAt],
        )
        if (inserted.length === 0) {
          // A retry: the first transfer with this key, if the body is the same.
          const existing = yield* sql.unsafe<RawTransfer>(`select ${columns} from custody_transfers where sender_id = $1 and idempotency_key = $2`, [
            senderId,
            request.idempotencyKey,
          ])
          const first = toTransfer(existing[0]!)
          if (first.requestHash !== hash) {
            return yield* new CustodyConflict({ code: "idempotency_conflict", message: "This idempotency key was used for another transfer" })
          }
          return first
        }
        const created = toTransfer(inserted[0]!)
        const from = userAccount(senderId, info.code)
        yield* ledger.openAccount(from)
        yield* ledger.openAccount(userAccount(receiver.id, info.code))
        const metadata: Metadata = { gateway: "tg_transfer", transferId: created.id, receiverId: receiver.id }
        const movement = yield* ledger.hold({ key: holdKey(senderId, request.idempotencyKey), from, to: userAccount(receiver.id, info.code), amount, expiresAt, metadata })
        yield* sql`update custody_transfers set hold_id = ${movement.holdId} where id = ${created.id}::bigint`
        const common = { gateway: "tg_transfer" as const, currency: info.code, amount, ledgerKey: holdKey(senderId, request.idempotencyKey), createdAt: at, comment, transferId: created.id }
        yield* recordTransaction({ ...common, userId: senderId, type: "withdraw", status: "pending", counterpartyId: receiver.id })
        yield* recordTransaction({ ...common, userId: receiver.id, type: "deposit", status: "new", counterpartyId: senderId })
        return { ...created, holdId: movement.holdId }
      }),
    ).pipe(
      Effect.catchTags({
        InsufficientFunds: (error) =>
          Effect.fail(
            new CustodyConflict({ code: "insufficient_funds", message: "Not enough balance", available: formatAmount(error.available < 0n ? 0n : error.available, info.decimals) }),
          ),
        IdempotencyConflict: () => Effect.fail(new CustodyConflict({ code: "idempotency_conflict", message: "This idempotency key was used for another transfer" })),
        UnknownAccount: (error) => Effect.die(error),
        UnknownCurrency: (error) => Effect.die(error),
        UnknownHold: (error) => Effect.die(error),
        HoldNotPending: (error) => Effect.die(error),
        InvalidMovement: (error) => Effect.die(error),
      }),
    )
    return yield* viewOf(row, senderId)
  })

/** A transfer the caller is party to (a new one past its expiry is expired first). */
export const getTransfer = (userId: number, id: string) =>
  Effect.gen(function* () {
    const row = yield* expireIfDue(id)
    if (row === undefined || (row.senderId !== userId && row.receiverId !== userId)) return yield* notFound()
    return yield* viewOf(row, userId)
  })

const expireIfDue = (id: string) =>
  Effect.gen(function* () {
    const at = yield* now
    const row = yield* selectTransfer(id, false).pipe(Effect.orDie)
    if (row === undefined || row.status !== "new" || row.expiresAt.getTime() > at.getTime()) return row
    return yield* transaction(
      Effect.gen(function* () {
        const locked = (yield* selectTransfer(id, true))!
        return locked.status === "new" ? yield* expireLocked(locked, at) : locked
      }),
    )
  })

type Resolution = "approve" | "cancel"

const resolve = (userId: number, id: string, action: Resolution) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const user = yield* currentUser(userId)
    const row = yield* transaction(
      Effect.gen(function* () {
        const locked = yield* selectTransfer(id, true)
        if (locked === undefined || (locked.senderId !== userId && locked.receiverId !== userId)) return yield* notFound()
        const role: TransferRole = locked.senderId === userId ? "sender" : "receiver"
        const needed: TransferRole = action === "approve" ? "receiver" : "sender"
        if (role !== needed) {
          return yield* new CustodyForbidden({ code: "wrong_transfer_role", message: `Only the ${needed} may ${action} this transfer` })
        }
        const done: TgTransferStatus = action === "approve" ? "accepted" : "canceled"
        // A repeated approve (or cancel) answers the transfer as it is: the movement ran once.
        if (locked.status === done) return locked
        if (locked.status === "new" && locked.expiresAt.getTime() <= at.getTime()) {
          yield* expireLocked(locked, at)
          return yield* notPending("expired")
        }
        if (locked.status !== "new") return yield* notPending(locked.status)
        if (action === "approve") yield* requireAccess(user, undefined, "canReceive")
        const metadata: Metadata = { gateway: "tg_transfer", transferId: locked.id }
        const movement =
          action === "approve"
            ? ledger.postHold({ key: `custody:tg:${locked.id}:post`, holdId: locked.holdId!, metadata })
            : ledger.voidHold({ key: `custody:tg:${locked.id}:void`, holdId: locked.holdId!, metadata })
        const outcome = yield* Effect.result(movement)
        if (outcome._tag === "Failure") {
          if (outcome.failure._tag === "HoldNotPending") {
            // The Ledger's sweep expired the hold first: the money went back to the sender.
            yield* expireLocked(locked, at)
            return yield* notPending("expired")
          }
          return yield* Effect.die(outcome.failure)
        }
        yield* sql`update custody_transfers set status = ${done}, resolved_at = ${at} where id = ${locked.id}::bigint`
        yield* setTransferRowsStatus(locked.id, action === "approve" ? "success" : "canceled", action === "approve" ? "success" : "canceled", at)
        return { ...locked, status: done, resolvedAt: at }
      }),
    )
    return yield* viewOf(row, userId)
  })

export const approveTransfer = (userId: number, id: string) => resolve(userId, id, "approve")
export const cancelTransfer = (userId: number, id: string) => resolve(userId, id, "cancel")

/** Incoming transfers still waiting for the caller (past-due ones are expired first). */
export const incomingTransfers = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const due = yield* sql<{ id: string }>`select id::text as id from custody_transfers where receiver_id = ${userId} and status = 'new' and expires_at <= ${at}`.pipe(Effect.orDie)
    for (const { id } of due) yield* expireIfDue(id)
    const rows = yield* sql
      .unsafe<RawTransfer>(`select ${columns} from custody_transfers where receiver_id = $1 and status = 'new' order by id desc limit 200`, [userId])
      .pipe(Effect.orDie)
    const transfers = rows.map(toTransfer)
    const users = yield* findUsers([...new Set(transfers.flatMap((row) => [row.senderId, row.receiverId]))])
    return transfers.map((row) => transferView(row, users, userId))
  })

/** Expires every new transfer past its expiry (housekeeping); returns how many. */
export const expireDueTransfers = (limit = 200) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const due = yield* sql<{ id: string }>`select id::text as id from custody_transfers where status = 'new' and expires_at <= ${at} order by expires_at limit ${limit}`.pipe(
      Effect.orDie,
    )
    let expired = 0
    for (const { id } of due) {
      const row = yield* expireIfDue(id)
      if (row?.status === "expired") expired++
    }
    return expired
  })
