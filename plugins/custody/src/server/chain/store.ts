/**
 * Tables of custody on chain (all `custody_chain_*`) and the queries on them. Amounts are
 * numeric(78,0) in the database and bigint here (read as text, never as float).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { sqlStatements, type Migration } from "@wallet/kernel-server"
import type { NetworkCode } from "../../currencies.ts"
import type { WithdrawStatus, WithdrawTransaction } from "../../chain-api.ts"

/**
 * Ids from 501 on: the custody module's other migrations (accounts, transfers ...) keep the low
 * numbers, and the composed list stays strictly increasing.
 */
export const chainMigrations: ReadonlyArray<Migration> = [
  {
    id: 501,
    name: "chain_addresses_deposits_withdrawals",
    up: sqlStatements(
      // One deposit address per user and network (the same for every currency of the network).
      `create table custody_chain_addresses (
        user_id bigint not null,
        network text not null,
        address text not null,
        canonical text not null,
        cursor text,
        created_at timestamptz not null default now(),
        primary key (user_id, network),
        unique (network, canonical)
      )`,
      // Network-wide scan positions (adapters that read the whole network).
      `create table custody_chain_cursors (
        network text primary key,
        cursor text not null
      )`,
      // Every credited deposit, once per transfer: the unique key is the exactly-once guard.
      `create table custody_chain_deposits (
        id bigserial primary key,
        network text not null,
        tx_hash text not null,
        user_id bigint not null,
        address text not null,
        from_address text,
        currency text not null,
        amount numeric(78, 0) not null check (amount > 0),
        ledger_key text not null,
        created_at timestamptz not null default now(),
        unique (network, tx_hash)
      )`,
      `create index custody_chain_deposits_user on custody_chain_deposits (user_id, id desc)`,
      `create table custody_chain_batches (
        id bigserial primary key,
        network text not null,
        ref text not null,
        status text not null check (status in ('prepared', 'sent', 'done')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      // A network has at most one batch on its way (a TON wallet takes one message per seqno).
      `create unique index custody_chain_batches_open on custody_chain_batches (network) where status <> 'done'`,
      `create table custody_chain_withdrawals (
        id bigserial primary key,
        user_id bigint not null,
        idempotency_key text not null,
        request_hash text not null,
        network text not null,
        currency text not null,
        amount numeric(78, 0) not null check (amount > 0),
        fee numeric(78, 0) not null check (fee >= 0),
        address text not null,
        canonical text not null,
        domain text,
        comment text,
        status text not null check (status in ('pending', 'processing', 'success', 'fail')),
        amount_hold_id text,
        fee_hold_id text,
        batch_id bigint references custody_chain_batches (id),
        tx_hash text,
        failure_reason text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (user_id, idempotency_key)
      )`,
      `create index custody_chain_withdrawals_queue on custody_chain_withdrawals (network, status, id)`,
      `create index custody_chain_withdrawals_batch on custody_chain_withdrawals (batch_id)`,
    ),
  },
]

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
    const rows = yield* sql.unsafe<RawWithdrawal>(`select ${withdrawalColumns} from custody_chain_withdrawals where ${where}`, params as Array<unknown>).unprepared
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
