/**
 * Tables of custody on chain (all `custody_chain_*`) and the queries on them. Amounts are
 * numeric(78,0) in the database and bigint here (read as text, never as float).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { NetworkCode } from "../../currencies.ts"
import type { WithdrawStatus, WithdrawTransaction } from "../../api.ts"

// --- rows --------------------------------------------------------------------------------------

export interface WithdrawalRow {
  readonly id: string
  readonly userId: number
  readonly idempotencyKey: string
  readonly requestHash: string
  readonly network: NetworkCode
  readonly currency: string
  readonly amount: bigint
  readonly fee: bigint
  readonly address: string
  readonly canonical: string
  readonly domain: string | null
  readonly comment: string | null
  readonly status: WithdrawStatus
  readonly amountHoldId: string | null
  readonly feeHoldId: string | null
  readonly batchId: string | null
  readonly txHash: string | null
  readonly failureReason: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

interface RawWithdrawal {
  id: string
  user_id: string
  idempotency_key: string
  request_hash: string
  network: NetworkCode
  currency: string
  amount: string
  fee: string
  address: string
  canonical: string
  domain: string | null
  comment: string | null
  status: WithdrawStatus
  amount_hold_id: string | null
  fee_hold_id: string | null
  batch_id: string | null
  tx_hash: string | null
  failure_reason: string | null
  created_at: Date | string
  updated_at: Date | string
}

export const withdrawalColumns = `id::text as id, user_id::text as user_id, idempotency_key, request_hash, network, currency, amount::text as amount,
  fee::text as fee, address, canonical, domain, comment, status, amount_hold_id, fee_hold_id, batch_id::text as batch_id, tx_hash,
  failure_reason, created_at, updated_at`

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value))

export const withdrawalRow = (row: RawWithdrawal): WithdrawalRow => ({
  id: row.id,
  userId: Number(row.user_id),
  idempotencyKey: row.idempotency_key,
  requestHash: row.request_hash,
  network: row.network,
  currency: row.currency,
  amount: BigInt(row.amount),
  fee: BigInt(row.fee),
  address: row.address,
  canonical: row.canonical,
  domain: row.domain,
  comment: row.comment,
  status: row.status,
  amountHoldId: row.amount_hold_id,
  feeHoldId: row.fee_hold_id,
  batchId: row.batch_id,
  txHash: row.tx_hash,
  failureReason: row.failure_reason,
  createdAt: toDate(row.created_at),
  updatedAt: toDate(row.updated_at),
})

export const withdrawalJson = (row: WithdrawalRow): WithdrawTransaction => ({
  id: row.id,
  status: row.status,
  currency: row.currency,
  network_code: row.network,
  amount: row.amount,
  fee: row.fee,
  total: row.amount + row.fee,
  address: row.address,
  comment: row.comment,
  tx_hash: row.txHash,
  failure_reason: row.failureReason,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  gateway: "withdraw_onchain",
})

export const selectWithdrawals = (where: string, params: ReadonlyArray<unknown>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RawWithdrawal>(`select ${withdrawalColumns} from custody_chain_withdrawals where ${where}`, params as Array<unknown>)
      .unprepared
    return rows.map(withdrawalRow)
  })

// --- addresses ---------------------------------------------------------------------------------

export interface AddressRow {
  readonly userId: number
  readonly network: NetworkCode
  readonly address: string
  readonly canonical: string
  readonly cursor: string | null
}

export const userAddresses = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ network: NetworkCode; address: string; canonical: string; cursor: string | null }>`
      select network, address, canonical, cursor from custody_chain_addresses where user_id = ${userId} order by network`.unprepared
    return rows.map((row): AddressRow => ({ userId, ...row }))
  })

export const saveAddress = (userId: number, network: NetworkCode, address: string, canonical: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`insert into custody_chain_addresses (user_id, network, address, canonical) values (${userId}, ${network}, ${address}, ${canonical})
      on conflict (user_id, network) do nothing`
  })

export const networkAddresses = (network: NetworkCode) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ user_id: string; address: string; canonical: string; cursor: string | null }>`
      select user_id::text as user_id, address, canonical, cursor from custody_chain_addresses where network = ${network} order by user_id`.unprepared
    return rows.map((row): AddressRow => ({ userId: Number(row.user_id), network, address: row.address, canonical: row.canonical, cursor: row.cursor }))
  })

export const networkCursor = (network: NetworkCode) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ cursor: string }>`select cursor from custody_chain_cursors where network = ${network}`.unprepared
    return rows[0]?.cursor ?? null
  })

export const saveCursors = (network: NetworkCode, cursor: string | null, addressCursors: ReadonlyMap<string, string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (cursor !== null) {
      yield* sql`insert into custody_chain_cursors (network, cursor) values (${network}, ${cursor}) on conflict (network) do update set cursor = excluded.cursor`
    }
    for (const [address, value] of addressCursors) {
      yield* sql`update custody_chain_addresses set cursor = ${value} where network = ${network} and address = ${address}`
    }
  })
