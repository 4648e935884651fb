/**
 * Custody transfers to a Telegram user (spec 1 §3 custody transfer item, §4 status mapping):
 * create = a Ledger hold from the sender (key from the client's idempotency key) with a 14-day
 * expiry; approve (receiver) = post to the receiver; cancel (sender) = void; expiry = void back to
 * the sender (docs/decisions/0800).
 *
 * The Ledger is the source of truth and runs first: its movements are group-committed (every hold
 * touches the currency's holds account, so one SQL transaction per transfer would serialise them)
 * and idempotent by key; the transfer row and history rows follow, idempotent by their own keys.
 * A hold resolves once whatever races (post, void and expiry of one hold exclude each other in the
 * Ledger); the row is then brought to the hold's state (`settle`), also on every read, so a crash
 * between the two steps heals on the next read or retry. A hold whose rows are missing is enough
 * to write them: the sender's history sync and the minute repair do (docs/decisions/0801).
 */
import { createHash } from "node:crypto"
import { Context, Effect, Exit, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { along, Ledger, makeBatcher, type AlongGroup, type Batcher, type Hold, type HoldStatus, type Metadata } from "@wallet/kernel-server/ledger"
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
  type TransactionStatus,
  type TransferRole,
} from "../api.ts"
import { currencyInfo, formatAmount, parseAmount } from "../currencies.ts"
import { userAccount } from "./ledgerSetup.ts"
import { displayName, findUsers, requireAccess, userJson, userOfJson, type CustodyUser } from "./users.ts"

const DAY_MS = 24 * 3_600_000

export interface TransferRow {
  readonly id: string
  readonly senderId: number
  readonly receiverId: number
  readonly currency: string
  readonly amount: bigint
  readonly comment: string | null
  readonly requestHash: string
  readonly holdId: string
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
  holdId: raw.hold_id ?? "",
  status: raw.status,
  createdAt: date(raw.created_at),
  expiresAt: date(raw.expires_at),
  resolvedAt: raw.resolved_at === null ? null : date(raw.resolved_at),
})

const columns = `id::text as id, sender_id, receiver_id, currency, amount::text as amount, comment, request_hash, hold_id, status, created_at, expires_at, resolved_at`

const selectTransfer = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawTransfer>(`select ${columns} from custody_transfers where id = $1::bigint`, [id])
    return rows.length === 0 ? undefined : toTransfer(rows[0]!)
  })

const now = Effect.gen(function* () {
  const config = yield* ServerConfig
  return new Date(config.now())
})

export const holdKey = (senderId: number, idempotencyKey: string) => `custody:tg:${senderId}:${idempotencyKey}`
const postKey = (id: string) => `custody:tg:${id}:post`
const voidKey = (id: string) => `custody:tg:${id}:void`
const expireKey = (id: string) => `custody:tg:${id}:expire`

const requestHash = (receiverId: number, currency: string, amount: bigint, comment: string | null) =>
  createHash("sha256")
    .update(JSON.stringify([receiverId, currency, amount.toString(), comment]))
    .digest("hex")

const notFound = () => new CustodyNotFound({ code: "transfer_not_found", message: "No such transfer" })
const notPending = (status: TgTransferStatus) =>
  new CustodyConflict({ code: "transfer_not_pending", message: `The transfer is ${status}, not new`, tgTransferStatus: status })
const keyConflict = () => new CustodyConflict({ code: "idempotency_conflict", message: "This idempotency key was used for another transfer" })

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

const ROW_STATUS: Record<Exclude<TgTransferStatus, "new">, { readonly sender: TransactionStatus; readonly receiver: TransactionStatus }> = {
  accepted: { sender: "success", receiver: "success" },
  canceled: { sender: "canceled", receiver: "canceled" },
  expired: { sender: "fail", receiver: "fail" },
}

/** Moves a new transfer (and both history rows) to its final status, once; answers the row as it is then. */
const finalize = (row: TransferRow, status: Exclude<TgTransferStatus, "new">, at: Date) =>
  Effect.gen(function* () {
    const moved = yield* Effect.orDie(moveToFinal([{ id: row.id, status, at }]))
    if (moved.has(row.id)) return { ...row, status, resolvedAt: at }
    return (yield* selectTransfer(row.id).pipe(Effect.orDie)) ?? row
  })

/** The final status a resolved hold means for its transfer. */
const statusOfHold = (row: TransferRow, status: HoldStatus) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    if (status === "posted") return "accepted" as const
    if (status === "expired") return "expired" as const
    return (yield* Effect.orDie(ledger.movement(voidKey(row.id)))) !== undefined ? ("canceled" as const) : ("expired" as const)
  })

/**
 * Brings a new transfer to its hold's state: resolved in the Ledger -> the matching final status;
 * still pending but past its expiry -> voided back to the sender and expired.
 */
export const settle = (row: TransferRow) =>
  Effect.gen(function* () {
    if (row.status !== "new") return row
    const ledger = yield* Ledger
    const at = yield* now
    const hold = yield* Effect.orDie(ledger.getHold(row.holdId))
    if (hold.status !== "pending") return yield* finalize(row, yield* statusOfHold(row, hold.status), at)
    if (row.expiresAt.getTime() > at.getTime()) return row
    let movedBy: string | undefined
    const voided = yield* Effect.result(
      ledger.voidHold({
        key: expireKey(row.id),
        holdId: row.holdId,
        metadata: { gateway: "tg_transfer", transferId: row.id, reason: "expired" },
        along: along(resolutionAlong, { id: row.id, status: "expired", at, moved: (transactionId) => (movedBy = transactionId) }),
      }),
    )
    if (voided._tag === "Failure") {
      if (voided.failure._tag !== "HoldNotPending") return yield* Effect.die(voided.failure)
      return yield* finalize(row, yield* statusOfHold(row, voided.failure.status as HoldStatus), at)
    }
    return movedBy === voided.success.transactionId ? { ...row, status: "expired" as const, resolvedAt: at } : yield* finalize(row, "expired", at)
  })

interface NewTransferRows {
  readonly senderId: number
  readonly receiverId: number
  readonly currency: string
  readonly amount: bigint
  readonly comment: string | null
  readonly idempotencyKey: string
  readonly requestHash: string
  readonly holdId: string
  readonly createdAt: Date
  readonly expiresAt: Date
}

const pairKey = (senderId: number, idempotencyKey: string) => `${senderId}:${idempotencyKey}`

/**
 * Transfer rows and both history rows of each, in one statement for the whole list; answers the
 * rows it inserted by `pairKey` (a row that existed is left as it is and missing from the answer).
 */
const insertTransferRowsOrFail = (list: ReadonlyArray<NewTransferRows>) =>
  Effect.gen(function* () {
    if (list.length === 0) return new Map<string, TransferRow>()
    const sql = yield* SqlClient.SqlClient
    const inserted = yield* sql.unsafe<RawTransfer>(
      `with v as (
           select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::numeric[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::timestamptz[])
             with ordinality as v(sender_id, receiver_id, currency, amount, comment, idempotency_key, request_hash, hold_id, created_at, expires_at, n)
         ),
         t as (
           insert into custody_transfers (sender_id, receiver_id, currency, amount, comment, idempotency_key, request_hash, hold_id, status, created_at, expires_at)
           select sender_id, receiver_id, currency, amount, nullif(comment, ''), idempotency_key, request_hash, hold_id, 'new', created_at, expires_at from v order by n
           on conflict (sender_id, idempotency_key) do nothing
           returning *
         ),
         h as (
           insert into custody_transactions (user_id, type, gateway, currency, amount, status, counterparty_id, comment, transfer_id, ledger_key, created_at, updated_at)
           select t.sender_id, 'withdraw', 'tg_transfer', t.currency, t.amount, 'pending', t.receiver_id, t.comment, t.id, 'custody:tg:' || t.sender_id || ':' || t.idempotency_key, t.created_at, t.created_at from t
           union all
           select t.receiver_id, 'deposit', 'tg_transfer', t.currency, t.amount, 'new', t.sender_id, t.comment, t.id, 'custody:tg:' || t.sender_id || ':' || t.idempotency_key, t.created_at, t.created_at from t
           -- A row without its link (imported from the Ledger entry by an older server, docs/decisions/0801) gets it now.
           on conflict (user_id, ledger_key) do update set transfer_id = excluded.transfer_id, counterparty_id = excluded.counterparty_id,
             comment = excluded.comment, status = excluded.status, details = '{}'::jsonb, updated_at = excluded.updated_at
           where custody_transactions.transfer_id is null
         )
         select ${columns}, idempotency_key from t`,
      [
        list.map((r) => String(r.senderId)),
        list.map((r) => String(r.receiverId)),
        list.map((r) => r.currency),
        list.map((r) => r.amount.toString()),
        list.map((r) => r.comment ?? ""),
        list.map((r) => r.idempotencyKey),
        list.map((r) => r.requestHash),
        list.map((r) => r.holdId),
        list.map((r) => r.createdAt.toISOString()),
        list.map((r) => r.expiresAt.toISOString()),
      ],
    )
    return new Map(
      (inserted as ReadonlyArray<RawTransfer & { idempotency_key: string }>).map((raw) => [
        pairKey(Number(raw.sender_id), raw.idempotency_key),
        toTransfer(raw),
      ]),
    )
  })

const insertTransferRows = (list: ReadonlyArray<NewTransferRows>) => Effect.orDie(insertTransferRowsOrFail(list))

/** A creation's rows, waiting for the hold they ride along with (decision 0407). */
interface RowsAlong {
  readonly rows: Omit<NewTransferRows, "holdId">
  /**
   * Takes the rows as inserted. A batch the Ledger rolled back and ran again calls it again, or not at
   * all if the movement then replays one committed meanwhile: trust a row only if its hold is the hold
   * the Ledger answered (hold ids come from a sequence, so a rolled-back attempt's id is never reused).
   */
  readonly deliver: (row: TransferRow) => void
}

/**
 * The transfer row and both history rows of every hold a Ledger batch placed, in that batch's
 * transaction: a creation is one transaction (the brief's rule), with no gap for a crash or a read
 * between the hold and its rows.
 */
const transferRowsAlong: AlongGroup<RowsAlong> = {
  name: "custody transfer rows",
  write: (made) =>
    Effect.gen(function* () {
      const inserted = yield* insertTransferRowsOrFail(made.map(({ item, movement }) => ({ ...item.rows, holdId: movement.holdId! })))
      for (const { item } of made) {
        const row = inserted.get(pairKey(item.rows.senderId, item.rows.idempotencyKey))
        if (row !== undefined) item.deliver(row)
      }
    }),
}

/**
 * Existing transfer rows by (sender, idempotency key), one query for the list: a lateral lookup
 * per pair on the unique (sender_id, idempotency_key) index (a join with the unnest was planned
 * as a sequential scan, and `sender_id = any(...)` alone reads each sender's whole history).
 */
const selectByKeys = (pairs: ReadonlyArray<{ readonly senderId: number; readonly idempotencyKey: string }>) =>
  Effect.gen(function* () {
    if (pairs.length === 0) return new Map<string, TransferRow>()
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawTransfer & { idempotency_key: string }>(
      `select c.* from unnest($1::bigint[], $2::text[]) as v(sender_id, idempotency_key)
         cross join lateral (
           select ${columns}, idempotency_key from custody_transfers t
            where t.sender_id = v.sender_id and t.idempotency_key = v.idempotency_key
         ) c`,
      [pairs.map((p) => String(p.senderId)), pairs.map((p) => p.idempotencyKey)],
    )
    return new Map(rows.map((raw) => [pairKey(Number(raw.sender_id), raw.idempotency_key), toTransfer(raw)]))
  }).pipe(Effect.orDie)

export interface CreateTransferItem {
  readonly senderId: number
  readonly request: CreateTransferRequest
  /** false only for seeded demo data (a sender without custody today). */
  readonly checkAccess?: boolean
}

export type CreateTransferError = CustodyBadRequest | CustodyForbidden | CustodyNotFound | CustodyConflict

interface Placing {
  readonly index: number
  readonly senderId: number
  readonly receiverId: number
  readonly currency: string
  readonly decimals: number
  readonly amount: bigint
  readonly comment: string | null
  readonly idempotencyKey: string
  readonly hash: string
}

/** A creation's transfer row and history rows, but for the hold they belong to. */
const rowsOfPlacing = (item: Placing, createdAt: Date, expiresAt: Date): Omit<NewTransferRows, "holdId"> => ({
  senderId: item.senderId,
  receiverId: item.receiverId,
  currency: item.currency,
  amount: item.amount,
  comment: item.comment,
  idempotencyKey: item.idempotencyKey,
  requestHash: item.hash,
  createdAt,
  expiresAt,
})

/**
 * The hold of one transfer (through the Ledger's group-commit queue; a retry with its key replays
 * it), with its rows in the same transaction when `deliver` takes them. Without `deliver` it places
 * the hold alone, as servers before decision 0407 did first (`placeOrphanHold`).
 */
const placeHold = (item: Placing, at: Date, deliver?: (row: TransferRow) => void) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const key = holdKey(item.senderId, item.idempotencyKey)
    const from = userAccount(item.senderId, item.currency)
    const to = userAccount(item.receiverId, item.currency)
    const expiresAt = new Date(at.getTime() + TRANSFER_EXPIRY_DAYS * DAY_MS)
    const rows = rowsOfPlacing(item, at, expiresAt)
    const hold = ledger.hold({
      key,
      from,
      to,
      amount: item.amount,
      expiresAt,
      metadata: { gateway: "tg_transfer", receiverId: item.receiverId, requestHash: item.hash, comment: item.comment } satisfies Metadata,
      ...(deliver === undefined ? {} : { along: along(transferRowsAlong, { rows, deliver }) }),
    })
    return yield* hold.pipe(
      Effect.catchTag("UnknownAccount", () => Effect.andThen(Effect.all([ledger.openAccount(from), ledger.openAccount(to)]), hold)),
      Effect.map((movement) => ({ holdId: movement.holdId!, createdAt: at, expiresAt })),
      // Another request with this key placed its hold first (expiry differs by a few ms): the same
      // transfer if its request hash matches.
      Effect.catchTag("IdempotencyConflict", () =>
        Effect.gen(function* () {
          const first = yield* Effect.orDie(ledger.movement(key))
          if (first === undefined || first.metadata.requestHash !== item.hash) return yield* keyConflict()
          const placedFirst = yield* Effect.orDie(ledger.getHold(first.holdId!))
          return { holdId: first.holdId!, createdAt: placedAt(placedFirst), expiresAt: placedFirst.expiresAt ?? expiresAt }
        }),
      ),
      Effect.catchTags({
        InsufficientFunds: (error) =>
          Effect.fail(
            new CustodyConflict({
              code: "insufficient_funds",
              message: "Not enough balance",
              available: formatAmount(error.available < 0n ? 0n : error.available, item.decimals),
            }),
          ),
        UnknownAccount: (error) => Effect.die(error),
        UnknownCurrency: (error) => Effect.die(error),
        UnknownHold: (error) => Effect.die(error),
        HoldNotPending: (error) => Effect.die(error),
        InvalidMovement: (error) => Effect.die(error),
        SqlError: (error) => Effect.die(error),
      }),
    )
  })

/**
 * Tests only: the hold of a creation without its rows, as a server before decision 0407 left it when it
 * stopped between the two (the rows are then written by a retry, a read of the history or the sweep, 0801).
 */
export const placeOrphanHold = (senderId: number, request: CreateTransferRequest) =>
  Effect.gen(function* () {
    const info = currencyInfo(request.currency)!
    const amount = parseAmount(request.amount, info.decimals)!
    const comment = request.comment === undefined || request.comment.trim() === "" ? null : request.comment.trim()
    const placing: Placing = {
      index: 0,
      senderId,
      receiverId: request.receiverId,
      currency: info.code,
      decimals: info.decimals,
      amount,
      comment,
      idempotencyKey: request.idempotencyKey,
      hash: requestHash(request.receiverId, info.code, amount, comment),
    }
    return yield* placeHold(placing, yield* now)
  })

/**
 * Creates many transfers at once, each with its own answer (docs/decisions/0403): one query for
 * the users, the holds through the Ledger's queue (so they share its group commit; a used key
 * replays there), each new transfer's rows in the Ledger's transaction with its hold (decision
 * 0407). A failing item (no funds,
 * restricted, a key conflict) fails alone; the others go on. The same (sender, key) twice in one
 * call runs once, then again after it (so it replays the first).
 */
export const createTransfers = (
  items: ReadonlyArray<CreateTransferItem>,
): Effect.Effect<ReadonlyArray<Exit.Exit<CustodyTransfer, CreateTransferError>>, never, Ledger | SqlClient.SqlClient | ServerConfig> =>
  Effect.gen(function* () {
    const answers: Array<Exit.Exit<CustodyTransfer, CreateTransferError>> = []
    const seen = new Set<string>()
    const first: Array<number> = []
    const later: Array<number> = []
    items.forEach((item, index) => {
      const pair = pairKey(item.senderId, item.request.idempotencyKey)
      if (seen.has(pair)) later.push(index)
      else {
        seen.add(pair)
        first.push(index)
      }
    })
    const fail = (index: number, error: CreateTransferError) => (answers[index] = Exit.fail(error))

    // 1. What needs no database.
    const checked: Array<{ readonly index: number; readonly info: NonNullable<ReturnType<typeof currencyInfo>>; readonly amount: bigint }> = []
    for (const index of first) {
      const { request } = items[index]!
      const info = currencyInfo(request.currency)
      if (info === undefined) {
        fail(index, new CustodyBadRequest({ code: "unsupported_currency", message: `${request.currency} is not a custodial currency` }))
        continue
      }
      const amount = parseAmount(request.amount, info.decimals)
      if (amount === undefined || amount <= 0n) {
        fail(index, new CustodyBadRequest({ code: "invalid_amount", message: `The amount must be above zero with at most ${info.decimals} decimals` }))
        continue
      }
      checked.push({ index, info, amount })
    }

    // 2. Senders and receivers: one query. (A used key needs no look-up here: its hold replays in
    // the Ledger, or conflicts there when the body differs, and its row already exists.)
    const users = yield* findUsers([...new Set(checked.flatMap(({ index }) => [items[index]!.senderId, items[index]!.request.receiverId]))])
    const view = (row: TransferRow, senderId: number) => transferView(row, users, senderId)

    // 3. Per item: access, receiver.
    const placing: Array<Placing> = []
    for (const { index, info, amount } of checked) {
      const { senderId, request, checkAccess } = items[index]!
      const sender = users.get(senderId)
      if (sender === undefined) {
        fail(index, new CustodyForbidden({ code: "custody_unavailable", message: "The custodial wallet is not available to this user" }))
        continue
      }
      if (checkAccess !== false) {
        const denied = Effect.runSyncExit(requireAccess(sender, undefined, "canWithdrawInner"))
        if (Exit.isFailure(denied)) {
          answers[index] = denied as Exit.Exit<never, CustodyForbidden>
          continue
        }
      }
      if (request.receiverId === senderId) {
        fail(index, new CustodyBadRequest({ code: "self_transfer", message: "A transfer to yourself is not possible" }))
        continue
      }
      const receiver = users.get(request.receiverId)
      if (receiver === undefined || receiver.isBlocked) {
        fail(index, new CustodyNotFound({ code: "receiver_not_found", message: "No such user of the app" }))
        continue
      }
      const comment = request.comment === undefined || request.comment.trim() === "" ? null : request.comment.trim()
      const hash = requestHash(receiver.id, info.code, amount, comment)
      placing.push({
        index,
        senderId,
        receiverId: receiver.id,
        currency: info.code,
        decimals: info.decimals,
        amount,
        comment,
        idempotencyKey: request.idempotencyKey,
        hash,
      })
    }

    // 4. The holds, through the Ledger's queue (so they share its batches), each with its rows in the
    // same transaction (decision 0407); a used key replays, its rows written before.
    const at = yield* now
    const delivered = new Map<number, TransferRow>()
    const placed = yield* Effect.forEach(placing, (item, n) => Effect.exit(placeHold(item, at, (row) => delivered.set(n, row))), {
      concurrency: "unbounded",
    })

    // 5. A hold without delivered rows is a replay (or another request's with this key): its rows are
    // read and settled (the transfer may have moved since), or written if a server before decision 0407
    // stopped between its hold and its rows (a retry inserts nothing twice).
    const rows: Array<{ readonly item: Placing; readonly rows: NewTransferRows }> = []
    placing.forEach((item, n) => {
      const exit = placed[n]!
      if (Exit.isFailure(exit)) {
        answers[item.index] = Exit.failCause(exit.cause)
        return
      }
      const row = delivered.get(n)
      if (row !== undefined && row.holdId === exit.value.holdId) {
        answers[item.index] = Exit.succeed(view(row, item.senderId))
        return
      }
      rows.push({ item, rows: { ...rowsOfPlacing(item, exit.value.createdAt, exit.value.expiresAt), holdId: exit.value.holdId } })
    })
    const inserted = yield* insertTransferRows(rows.map((r) => r.rows))
    const existing = yield* selectByKeys(rows.filter((r) => !inserted.has(pairKey(r.item.senderId, r.item.idempotencyKey))).map((r) => r.item))
    for (const { item } of rows) {
      const pair = pairKey(item.senderId, item.idempotencyKey)
      const row = inserted.get(pair) ?? existing.get(pair)
      if (row === undefined) answers[item.index] = Exit.die(new Error("custody: transfer row missing after insert"))
      else if (row.requestHash !== item.hash) answers[item.index] = Exit.fail(keyConflict())
      else if (inserted.has(pair)) answers[item.index] = Exit.succeed(view(row, item.senderId))
      else answers[item.index] = Exit.map(yield* Effect.exit(settle(row)), (current) => view(current, item.senderId))
    }

    // 6. Repeated keys of this call, now that their first ran.
    if (later.length > 0) {
      const again = yield* createTransfers(later.map((index) => items[index]!))
      later.forEach((index, n) => (answers[index] = again[n]!))
    }
    return answers
  })

/**
 * Queues transfer creations so concurrent requests share one `createTransfers` call (wired by the
 * server plugin); without it (tests, tooling) each creation runs alone.
 */
export class TransferCreates extends Context.Service<TransferCreates, Batcher<CreateTransferItem, CustodyTransfer, CreateTransferError>>()(
  "custody/TransferCreates",
) {
  static readonly layer = Layer.effect(TransferCreates, makeBatcher({ execute: createTransfers }))
  static readonly layerWith = (options: { readonly maxBatch?: number; readonly workers?: number; readonly onBatch?: (size: number) => void }) =>
    Layer.effect(TransferCreates, makeBatcher({ ...options, execute: createTransfers }))
}

/**
 * Whether this (sender, idempotency key) already placed its hold for this same request: a retry
 * that replays the first transfer, which needs no second operation token (decision 0550).
 */
export const isTransferReplay = (senderId: number, request: CreateTransferRequest) =>
  Effect.gen(function* () {
    const info = currencyInfo(request.currency)
    const amount = info === undefined ? undefined : parseAmount(request.amount, info.decimals)
    if (info === undefined || amount === undefined) return false
    const ledger = yield* Ledger
    const first = yield* Effect.orDie(ledger.movement(holdKey(senderId, request.idempotencyKey)))
    const comment = request.comment === undefined || request.comment.trim() === "" ? null : request.comment.trim()
    return first !== undefined && first.metadata.requestHash === requestHash(request.receiverId, info.code, amount, comment)
  })

/** `checkAccess: false` only for seeded demo data (a sender without custody today). */
export const createTransfer = (senderId: number, request: CreateTransferRequest, options: { readonly checkAccess?: boolean } = {}) =>
  Effect.gen(function* () {
    const item: CreateTransferItem = { senderId, request, ...(options.checkAccess !== undefined ? { checkAccess: options.checkAccess } : {}) }
    const sql = yield* SqlClient.SqlClient
    const queue = yield* Effect.serviceOption(TransferCreates)
    // Inside a caller's transaction (and on PGlite's one connection) run here, not in a worker.
    const inTransaction = Option.isSome(yield* Effect.serviceOption(sql.transactionService))
    if (Option.isSome(queue) && !inTransaction) return yield* queue.value.run(item)
    const [exit] = yield* createTransfers([item])
    return yield* exit!
  })

/** A transfer the caller is party to (settled first). */
export const getTransfer = (userId: number, id: string) =>
  Effect.gen(function* () {
    const found = yield* selectTransfer(id).pipe(Effect.orDie)
    if (found === undefined || (found.senderId !== userId && found.receiverId !== userId)) return yield* notFound()
    const row = yield* settle(found)
    return transferView(row, yield* findUsers([row.senderId, row.receiverId]), userId)
  })

type Resolution = "approve" | "cancel"

export interface ResolveTransferItem {
  readonly userId: number
  readonly transferId: string
}

export type ResolveTransferError = CustodyForbidden | CustodyNotFound | CustodyConflict

const TRANSFER_ID = /^[1-9][0-9]{0,18}$/
const MAX_ID = 9_223_372_036_854_775_807n

/** Transfer rows by id with both parties (one statement for the batch). */
const selectForResolution = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const found = new Map<string, { readonly row: TransferRow; readonly users: ReadonlyMap<number, CustodyUser> }>()
    if (ids.length === 0) return found
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawTransfer & { sender: unknown; receiver: unknown }>(
      `select ${columns}, ${userJson("t.sender_id")} as sender, ${userJson("t.receiver_id")} as receiver
         from custody_transfers t where t.id = any($1::bigint[])`,
      [ids],
    )
    for (const raw of rows) {
      const users = new Map<number, CustodyUser>()
      for (const user of [userOfJson(raw.sender), userOfJson(raw.receiver)]) if (user !== undefined) users.set(user.id, user)
      found.set(raw.id, { row: toTransfer(raw), users })
    }
    return found
  }).pipe(Effect.orDie)

/**
 * Brings many new transfers (distinct ids) and both history rows of each to their final status in
 * one statement, each only if still new; answers the ids it moved.
 */
const moveToFinal = (list: ReadonlyArray<{ readonly id: string; readonly status: Exclude<TgTransferStatus, "new">; readonly at: Date }>) =>
  Effect.gen(function* () {
    if (list.length === 0) return new Set<string>()
    const sql = yield* SqlClient.SqlClient
    const updated = yield* sql.unsafe<{ id: string }>(
      `with v as (
         select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) as v(id, status, sender_status, receiver_status, at)
       ),
       t as (
         update custody_transfers c set status = v.status, resolved_at = v.at
           from v where c.id = v.id and c.id = any($1::bigint[]) and c.status = 'new'
         returning c.id, v.sender_status, v.receiver_status, v.at
       ),
       h as (
         update custody_transactions h set status = case when h.type = 'withdraw' then t.sender_status else t.receiver_status end,
           updated_at = t.at
           from t where h.transfer_id = t.id and h.gateway = 'tg_transfer'
       )
       select id::text as id from t`,
      [
        list.map((item) => item.id),
        list.map((item) => item.status),
        list.map((item) => ROW_STATUS[item.status].sender),
        list.map((item) => ROW_STATUS[item.status].receiver),
        list.map((item) => item.at.toISOString()),
      ],
    )
    return new Set(updated.map((row) => row.id))
  })

const finalizeMany = (list: ReadonlyArray<{ readonly id: string; readonly status: Exclude<TgTransferStatus, "new"> }>, at: Date) =>
  Effect.orDie(moveToFinal(list.map((item) => ({ ...item, at }))))

/** A resolution's row update, waiting for the post or void it rides along with (decision 0407). */
interface ResolutionAlong {
  readonly id: string
  readonly status: Exclude<TgTransferStatus, "new">
  readonly at: Date
  /**
   * Called with the movement's transaction id when the row moved. A rolled-back attempt may have called
   * it: trust it only for the movement the Ledger answered (ids come from a sequence, never reused).
   */
  readonly moved: (transactionId: string) => void
}

/**
 * Every transfer row a Ledger batch resolved, and both history rows of each, moved to their final
 * status in that batch's transaction, each only if still new: an approve, cancel or expiry is one
 * conditional update plus one Ledger command in one transaction (the brief's rule).
 */
const resolutionAlong: AlongGroup<ResolutionAlong> = {
  name: "custody transfer resolutions",
  write: (made) =>
    Effect.gen(function* () {
      const moved = yield* moveToFinal(made.map((m) => m.item))
      for (const { item, movement } of made) if (moved.has(item.id)) item.moved(movement.transactionId)
    }),
}

/** Transfer rows by id (one statement). */
const selectTransfers = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (ids.length === 0) return new Map<string, TransferRow>()
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawTransfer>(`select ${columns} from custody_transfers where id = any($1::bigint[])`, [ids])
    return new Map(rows.map((raw) => [raw.id, toTransfer(raw)]))
  }).pipe(Effect.orDie)

interface Resolving {
  readonly index: number
  readonly row: TransferRow
  readonly users: ReadonlyMap<number, CustodyUser>
  /** Past its expiry: voided back to the sender (as `settle` does) instead of the action. */
  readonly expire: boolean
}

/**
 * Approves (receiver) or cancels (sender) many transfers at once, each with its own answer
 * (docs/decisions/0405): one statement reads every row with both parties, the checks run in memory
 * (party, role, state, expiry, the receiver's access), every post/void goes through the Ledger's
 * queue at once (one Ledger batch, each movement with its own key and outcome: the Ledger lets a
 * hold resolve once, so racing approvals move money once and approve-vs-cancel has one winner),
 * each with the conditional update of its row and history rows in its transaction (decision 0407).
 * The same transfer twice in
 * one call runs once, then again after it (a replay or a state error, as a second request would get).
 */
const resolveTransfers =
  (action: Resolution) =>
  (
    items: ReadonlyArray<ResolveTransferItem>,
  ): Effect.Effect<ReadonlyArray<Exit.Exit<CustodyTransfer, ResolveTransferError>>, never, Ledger | SqlClient.SqlClient | ServerConfig> =>
    Effect.gen(function* () {
      const answers: Array<Exit.Exit<CustodyTransfer, ResolveTransferError>> = []
      const seen = new Set<string>()
      const first: Array<number> = []
      const later: Array<number> = []
      items.forEach((item, index) => {
        if (!TRANSFER_ID.test(item.transferId) || BigInt(item.transferId) > MAX_ID) answers[index] = Exit.fail(notFound())
        else if (seen.has(item.transferId)) later.push(index)
        else {
          seen.add(item.transferId)
          first.push(index)
        }
      })
      const done: TgTransferStatus = action === "approve" ? "accepted" : "canceled"
      const needed: TransferRole = action === "approve" ? "receiver" : "sender"
      // A row in its final state: the transfer as it is when that is this action's, else a state error.
      const answerOf = (row: TransferRow, users: ReadonlyMap<number, CustodyUser>, userId: number): Exit.Exit<CustodyTransfer, ResolveTransferError> =>
        row.status === done ? Exit.succeed(transferView(row, users, userId)) : Exit.fail(notPending(row.status))

      // 1. Every row and both parties: one statement.
      const loaded = yield* selectForResolution(first.map((index) => items[index]!.transferId))
      const at = yield* now

      // 2. Per item, in memory.
      const resolving: Array<Resolving> = []
      for (const index of first) {
        const { userId, transferId } = items[index]!
        const found = loaded.get(transferId)
        if (found === undefined || (found.row.senderId !== userId && found.row.receiverId !== userId)) {
          answers[index] = Exit.fail(notFound())
          continue
        }
        const { row, users } = found
        const role: TransferRole = row.senderId === userId ? "sender" : "receiver"
        if (role !== needed) {
          answers[index] = Exit.fail(new CustodyForbidden({ code: "wrong_transfer_role", message: `Only the ${needed} may ${action} this transfer` }))
          continue
        }
        // A repeated approve (or cancel) answers the transfer as it is: the movement ran once.
        if (row.status !== "new") {
          answers[index] = answerOf(row, users, userId)
          continue
        }
        if (row.expiresAt.getTime() <= at.getTime()) {
          resolving.push({ index, row, users, expire: true })
          continue
        }
        if (action === "approve") {
          const user = users.get(userId)
          const denied: Exit.Exit<void, ResolveTransferError> =
            user === undefined ? Exit.fail(notFound()) : Effect.runSyncExit(requireAccess(user, undefined, "canReceive"))
          if (Exit.isFailure(denied)) {
            // The access check comes after the row is brought to its hold's state (a transfer the
            // Ledger already resolved answers what it became): rare, so this item alone reads its hold.
            const settled = yield* Effect.exit(settle(row))
            answers[index] = Exit.isFailure(settled)
              ? Exit.failCause(settled.cause)
              : settled.value.status === "new"
                ? Exit.failCause(denied.cause)
                : answerOf(settled.value, users, userId)
            continue
          }
        }
        resolving.push({ index, row, users, expire: false })
      }

      // 3. Every movement through the Ledger's queue at once (one Ledger batch); inside a caller's
      // transaction one after the other (they run there, on its connection).
      const ledger = yield* Ledger
      const sql = yield* SqlClient.SqlClient
      const inTransaction = Option.isSome(yield* Effect.serviceOption(sql.transactionService))
      // Each with its row update in the same transaction (decision 0407).
      const movedWith = new Map<string, string>()
      const outcomes = yield* Effect.forEach(
        resolving,
        ({ row, expire }) => {
          const metadata: Metadata = expire ? { gateway: "tg_transfer", transferId: row.id, reason: "expired" } : { gateway: "tg_transfer", transferId: row.id }
          const status: Exclude<TgTransferStatus, "new"> = expire ? "expired" : (done as Exclude<TgTransferStatus, "new">)
          const rows = along(resolutionAlong, { id: row.id, status, at, moved: (transactionId) => movedWith.set(row.id, transactionId) })
          return Effect.result(
            expire
              ? ledger.voidHold({ key: expireKey(row.id), holdId: row.holdId, metadata, along: rows })
              : action === "approve"
                ? ledger.postHold({ key: postKey(row.id), holdId: row.holdId, metadata, along: rows })
                : ledger.voidHold({ key: voidKey(row.id), holdId: row.holdId, metadata, along: rows }),
          )
        },
        { concurrency: inTransaction ? 1 : "unbounded" },
      )

      // 4. What each row becomes: the movement's status, or (resolved meanwhile by the other action
      // or the expiry) what the hold became.
      const targets: Array<{ readonly item: Resolving; readonly status: Exclude<TgTransferStatus, "new"> }> = []
      for (const [n, item] of resolving.entries()) {
        const outcome = outcomes[n]!
        if (outcome._tag === "Success") {
          // Moved with this very movement, or (a replay, a rolled-back attempt's call) still to check.
          if (movedWith.get(item.row.id) !== outcome.success.transactionId) movedWith.delete(item.row.id)
          targets.push({ item, status: item.expire ? "expired" : (done as Exclude<TgTransferStatus, "new">) })
          continue
        }
        movedWith.delete(item.row.id)
        if (outcome.failure._tag !== "HoldNotPending") {
          answers[item.index] = Exit.die(outcome.failure)
          continue
        }
        const status = yield* Effect.exit(statusOfHold(item.row, outcome.failure.status as HoldStatus))
        if (Exit.isFailure(status)) answers[item.index] = Exit.failCause(status.cause)
        else targets.push({ item, status: status.value })
      }

      // 5. A row its movement moved is answered as it became. The others (a replay of a movement
      // committed before, or a hold the other action or the expiry resolved first) are moved now if a
      // server before decision 0407 left them new (one statement, only rows still new move), then read.
      const rest = targets.filter(({ item }) => !movedWith.has(item.row.id))
      const moved = yield* finalizeMany(
        rest.map(({ item, status }) => ({ id: item.row.id, status })),
        at,
      )
      const current = yield* selectTransfers(rest.filter(({ item }) => !moved.has(item.row.id)).map(({ item }) => item.row.id))
      for (const { item, status } of targets) {
        const row = movedWith.has(item.row.id) || moved.has(item.row.id) ? { ...item.row, status, resolvedAt: at } : (current.get(item.row.id) ?? item.row)
        answers[item.index] = answerOf(row, item.users, items[item.index]!.userId)
      }

      // 6. Repeated transfers of this call, now that their first ran.
      if (later.length > 0) {
        const again = yield* resolveTransfers(action)(later.map((index) => items[index]!))
        later.forEach((index, n) => (answers[index] = again[n]!))
      }
      return answers
    })

/** Approves many transfers (receivers), each with its own answer (docs/decisions/0405). */
export const approveTransfers = resolveTransfers("approve")
/** Cancels many transfers (senders), each with its own answer (docs/decisions/0405). */
export const cancelTransfers = resolveTransfers("cancel")

type ResolveBatcher = Batcher<ResolveTransferItem, CustodyTransfer, ResolveTransferError>
type BatcherOptions = { readonly maxBatch?: number; readonly workers?: number; readonly onBatch?: (size: number) => void }

/** Queues approvals so concurrent requests share one `approveTransfers` call (wired by the server plugin). */
export class TransferApprovals extends Context.Service<TransferApprovals, ResolveBatcher>()("custody/TransferApprovals") {
  static readonly layer = Layer.effect(TransferApprovals, makeBatcher({ execute: approveTransfers }))
  static readonly layerWith = (options: BatcherOptions) => Layer.effect(TransferApprovals, makeBatcher({ ...options, execute: approveTransfers }))
}

/** Queues cancellations so concurrent requests share one `cancelTransfers` call (wired by the server plugin). */
export class TransferCancels extends Context.Service<TransferCancels, ResolveBatcher>()("custody/TransferCancels") {
  static readonly layer = Layer.effect(TransferCancels, makeBatcher({ execute: cancelTransfers }))
  static readonly layerWith = (options: BatcherOptions) => Layer.effect(TransferCancels, makeBatcher({ ...options, execute: cancelTransfers }))
}

/** One item through its queue when there is one and no caller's transaction is open, else a batch of one. */
const resolveOne = (action: Resolution, userId: number, transferId: string) =>
  Effect.gen(function* () {
    const item: ResolveTransferItem = { userId, transferId }
    const sql = yield* SqlClient.SqlClient
    const queue = action === "approve" ? yield* Effect.serviceOption(TransferApprovals) : yield* Effect.serviceOption(TransferCancels)
    // Inside a caller's transaction (and on PGlite's one connection) run here, not in a worker.
    const inTransaction = Option.isSome(yield* Effect.serviceOption(sql.transactionService))
    if (Option.isSome(queue) && !inTransaction) return yield* queue.value.run(item)
    const [exit] = yield* resolveTransfers(action)([item])
    return yield* exit!
  })

export const approveTransfer = (userId: number, id: string) => resolveOne("approve", userId, id)
export const cancelTransfer = (userId: number, id: string) => resolveOne("cancel", userId, id)

/** Incoming transfers still waiting for the caller (past-due ones are settled first). */
export const incomingTransfers = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql
      .unsafe<RawTransfer>(`select ${columns} from custody_transfers where receiver_id = $1 and status = 'new' order by id desc limit 200`, [userId])
      .pipe(Effect.orDie)
    const at = yield* now
    const open: Array<TransferRow> = []
    for (const raw of rows) {
      // Only past-due rows need the Ledger here; any other drift heals on get, approve or cancel.
      const listed = toTransfer(raw)
      const row = listed.expiresAt.getTime() <= at.getTime() ? yield* settle(listed) : listed
      if (row.status === "new") open.push(row)
    }
    const users = yield* findUsers([...new Set(open.flatMap((row) => [row.senderId, row.receiverId]))])
    return open.map((row) => transferView(row, users, userId))
  })

/** Expires every new transfer past its expiry and settles any the Ledger resolved (housekeeping); returns how many expired. */
export const expireDueTransfers = (limit = 200) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const due = yield* sql
      .unsafe<RawTransfer>(`select ${columns} from custody_transfers where status = 'new' and expires_at <= $1 order by expires_at limit $2`, [at, limit])
      .pipe(Effect.orDie)
    let expired = 0
    for (const raw of due) {
      const row = yield* settle(toTransfer(raw))
      if (row.status === "expired") expired++
    }
    return expired
  })

/** A transfer hold as the Ledger keeps it: the key and metadata of the movement that placed it, and the hold. */
interface TransferHold {
  readonly key: string
  readonly metadata: Metadata
  readonly hold: Hold
}

const HOLD_KEY = /^custody:tg:(\d+):(.+)$/

/**
 * The rows a transfer hold stands for, from its key (`custody:tg:<sender>:<idempotency key>`),
 * entries and metadata (receiver, request hash, comment); undefined for any other hold. The
 * creation time is the one its request gave it (the hold's expiry minus the transfer's lifetime),
 * so rows written from the hold equal the rows the request writes (docs/decisions/0801).
 */
const rowsOfHold = ({ key, metadata, hold }: TransferHold): NewTransferRows | undefined => {
  const match = HOLD_KEY.exec(key)
  if (match === null) return undefined
  const senderId = Number(match[1])
  const { receiverId, requestHash: storedHash, comment } = metadata
  if (hold.from.owner !== userAccount(senderId, hold.from.currency).owner || typeof receiverId !== "number" || typeof storedHash !== "string") return undefined
  return {
    senderId,
    receiverId,
    currency: hold.from.currency,
    amount: hold.amount,
    comment: typeof comment === "string" ? comment : null,
    idempotencyKey: match[2]!,
    requestHash: storedHash,
    holdId: hold.id,
    createdAt: placedAt(hold),
    expiresAt: hold.expiresAt ?? new Date(hold.createdAt.getTime() + TRANSFER_EXPIRY_DAYS * DAY_MS),
  }
}

/** When the request placed the hold (by its clock): its expiry minus the transfer's lifetime. */
const placedAt = (hold: Hold): Date => (hold.expiresAt === null ? hold.createdAt : new Date(hold.expiresAt.getTime() - TRANSFER_EXPIRY_DAYS * DAY_MS))

/**
 * The history sync's part (docs/decisions/0801): the sender's Ledger entries of transfer holds
 * become the transfer row and both history rows, linked, exactly as the creation writes them, when
 * they are not there yet: a history read between a creation's hold and its rows, or after the
 * process stopped there, shows a row that opens and cancels the transfer. Rows written here are
 * settled (the hold may have been resolved or be past due). Answers the keys of the entries that
 * are not transfer holds after all (the caller imports those as plain rows).
 */
export const linkTransferHolds = (entries: ReadonlyArray<{ readonly key: string; readonly holdId: string; readonly metadata: Metadata }>) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const unlinked = new Set<string>()
    const parsed = entries.flatMap((entry) => {
      const match = HOLD_KEY.exec(entry.key)
      if (match === null) unlinked.add(entry.key)
      return match === null ? [] : [{ entry, senderId: Number(match[1]), idempotencyKey: match[2]! }]
    })
    const existing = yield* selectByKeys(parsed)
    const rows: Array<NewTransferRows> = []
    for (const { entry, senderId, idempotencyKey } of parsed) {
      if (existing.has(pairKey(senderId, idempotencyKey))) continue
      const hold = yield* Effect.orDie(ledger.getHold(entry.holdId))
      const built = rowsOfHold({ key: entry.key, metadata: entry.metadata, hold })
      if (built === undefined) unlinked.add(entry.key)
      else rows.push(built)
    }
    const written = yield* insertTransferRows(rows)
    for (const row of written.values()) yield* settle(row)
    return unlinked
  })

/**
 * Rebuilds the rows of transfer holds that have none (the process stopped between the Ledger hold
 * and the row insert, and neither a retry nor a history read of the sender came): from the hold's
 * key, entries and metadata. Holds younger than `olderThanSeconds` are left to their request.
 * Returns how many were rebuilt.
 */
export const repairOrphanHolds = (olderThanSeconds = 60) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    let repaired = 0
    let afterId: string | undefined
    for (;;) {
      const page = yield* Effect.orDie(
        ledger.pendingHolds({ keyPrefix: "custody:tg:", minAgeSeconds: olderThanSeconds, limit: 500, ...(afterId !== undefined ? { afterId } : {}) }),
      )
      if (page.length === 0) return repaired
      afterId = page[page.length - 1]!.id
      const candidates = page.flatMap((hold) => rowsOfHold({ key: hold.key, metadata: hold.metadata, hold }) ?? [])
      const existing = yield* selectByKeys(candidates)
      repaired += (yield* insertTransferRows(candidates.filter((rows) => !existing.has(pairKey(rows.senderId, rows.idempotencyKey))))).size
    }
  })
