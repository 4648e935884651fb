/**
 * The user-facing history (`custody_transactions`): one row per user side of a movement, written
 * in the same SQL transaction as the Ledger movement it describes. Other custody parts (deposits,
 * withdrawals of the chain half) record theirs with `recordTransaction` (ledger_key unique per user:
 * recording twice is harmless) and move the status on with `setTransactionStatus`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Gateway, NetworkCode, TransactionStatus, TransactionType } from "../api.ts"

export interface NewTransaction {
  readonly userId: number
  readonly type: TransactionType
  readonly gateway: Gateway
  readonly currency: string
  /** Minor units, positive. */
  readonly amount: bigint
  readonly status: TransactionStatus
  /** The Ledger movement's idempotency key (unique per user). */
  readonly ledgerKey: string
  readonly createdAt: Date
  readonly counterpartyId?: number | null
  readonly address?: string | null
  readonly network?: NetworkCode | null
  readonly txHash?: string | null
  readonly fee?: bigint | null
  readonly comment?: string | null
  readonly transferId?: string | null
  /** Extra fields: inputAddresses, pairAmount/pairCurrency (minor units), platform, storeName ... */
  readonly details?: Readonly<Record<string, unknown>>
}

/** Inserts the row unless (user, ledgerKey) exists; returns its id either way. */
export const recordTransaction = (row: NewTransaction) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const inserted = yield* sql.unsafe<{ id: string }>(
      `insert into custody_transactions (user_id, type, gateway, currency, amount, status, counterparty_id, address, network, tx_hash, fee,
         comment, transfer_id, ledger_key, details, created_at, updated_at)
       values ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10, $11::numeric, $12, $13::bigint, $14, $15::jsonb, $16, $16)
       on conflict (user_id, ledger_key) do nothing
       returning id::text as id`,
      [
        row.userId,
        row.type,
        row.gateway,
        row.currency,
        row.amount.toString(),
        row.status,
        row.counterpartyId ?? null,
        row.address ?? null,
        row.network ?? null,
        row.txHash ?? null,
        row.fee === undefined || row.fee === null ? null : row.fee.toString(),
        row.comment ?? null,
        row.transferId ?? null,
        row.ledgerKey,
        JSON.stringify(row.details ?? {}),
        row.createdAt,
      ],
    )
    if (inserted.length > 0) return inserted[0]!.id
    const existing = yield* sql<{ id: string }>`select id::text as id from custody_transactions where user_id = ${row.userId} and ledger_key = ${row.ledgerKey}`
    return existing[0]!.id
  })

/** Moves the status of the row (user, ledgerKey) on; optional tx hash once known. */
export const setTransactionStatus = (userId: number, ledgerKey: string, status: TransactionStatus, at: Date, txHash?: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`update custody_transactions set status = ${status}, updated_at = ${at}, tx_hash = coalesce(${txHash ?? null}, tx_hash)
      where user_id = ${userId} and ledger_key = ${ledgerKey}`
  })

/** Both rows of a custody transfer. */
export const setTransferRowsStatus = (transferId: string, senderStatus: TransactionStatus, receiverStatus: TransactionStatus, at: Date) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`update custody_transactions set status = case when type = 'withdraw' then ${senderStatus} else ${receiverStatus} end, updated_at = ${at}
      where transfer_id = ${transferId}::bigint and gateway = 'tg_transfer'`
  })

export interface TransactionRow {
  readonly id: string
  readonly userId: number
  readonly type: TransactionType
  readonly gateway: Gateway
  readonly currency: string
  readonly amount: bigint
  readonly status: TransactionStatus
  readonly counterpartyId: number | null
  readonly address: string | null
  readonly network: NetworkCode | null
  readonly txHash: string | null
  readonly fee: bigint | null
  readonly comment: string | null
  readonly transferId: string | null
  readonly details: Readonly<Record<string, unknown>>
  readonly createdAt: Date
}

interface RawRow {
  id: string
  user_id: string | number
  type: TransactionType
  gateway: Gateway
  currency: string
  amount: string
  status: TransactionStatus
  counterparty_id: string | number | null
  address: string | null
  network: NetworkCode | null
  tx_hash: string | null
  fee: string | null
  comment: string | null
  transfer_id: string | null
  details: unknown
  created_at: Date | string
}

const selectColumns = `id::text as id, user_id, type, gateway, currency, amount::text as amount, status, counterparty_id, address, network, tx_hash,
  fee::text as fee, comment, transfer_id::text as transfer_id, details, created_at`

const toRow = (raw: RawRow): TransactionRow => ({
  id: raw.id,
  userId: Number(raw.user_id),
  type: raw.type,
  gateway: raw.gateway,
  currency: raw.currency,
  amount: BigInt(raw.amount),
  status: raw.status,
  counterpartyId: raw.counterparty_id === null ? null : Number(raw.counterparty_id),
  address: raw.address,
  network: raw.network,
  txHash: raw.tx_hash,
  fee: raw.fee === null ? null : BigInt(raw.fee),
  comment: raw.comment,
  transferId: raw.transfer_id,
  details: (typeof raw.details === "string" ? JSON.parse(raw.details) : (raw.details ?? {})) as Record<string, unknown>,
  createdAt: raw.created_at instanceof Date ? raw.created_at : new Date(raw.created_at),
})

/** A page position: the last row's date and id ("<ms>.<id>"). */
export const cursorOf = (row: TransactionRow): string => `${row.createdAt.getTime()}.${row.id}`
export const parseCursor = (cursor: string): { readonly at: Date; readonly id: string } | undefined => {
  const match = /^(\d{1,15})\.([1-9]\d{0,18})$/.exec(cursor)
  return match === null ? undefined : { at: new Date(Number(match[1])), id: match[2]! }
}

/**
 * Newest first (by date, then id), after `before`; `limit + 1` rows so the caller knows if more exist. An asset's
 * history also lists the exchanges that paid it out (their row is in the currency paid, the asset is the pair).
 */
export const listTransactions = (
  userId: number,
  options: { readonly before?: { readonly at: Date; readonly id: string }; readonly limit: number; readonly currency?: string },
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawRow>(
      `select ${selectColumns} from custody_transactions
        where user_id = $1 and ($2 = '' or currency = $2 or details->>'pairCurrency' = $2) and ($3::timestamptz is null or (created_at, id) < ($3::timestamptz, $4::bigint))
        order by created_at desc, id desc limit $5`,
      [userId, options.currency ?? "", options.before?.at ?? null, options.before?.id ?? "0", options.limit + 1],
    )
    return rows.map(toRow)
  })

export const findTransaction = (userId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawRow>(`select ${selectColumns} from custody_transactions where user_id = $1 and id = $2::bigint`, [userId, id])
    return rows.length === 0 ? undefined : toRow(rows[0]!)
  })
