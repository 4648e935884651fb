/** Rows of `ton_space_addresses` and the rules of tracking, claiming and the manual backup flag. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import type { ActiveAddress } from "../api.ts"

type WalletClass = ActiveAddress["walletClass"]
type Network = ActiveAddress["network"]
type Source = ActiveAddress["source"]

interface Row {
  readonly raw: string
  readonly user_id: number | string | bigint
  readonly wallet_class: string | null
  readonly network: string
  readonly source: string
  readonly tracked: boolean
  readonly backed_up_at: Date | string | null
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString())

export const toActive = (row: Row): ActiveAddress => ({
  address: row.raw,
  walletClass: row.wallet_class as WalletClass,
  network: row.network as Network,
  source: row.source as Source,
  manualBackupComplete: row.backed_up_at !== null,
  backedUpAt: iso(row.backed_up_at),
})

const now = Effect.gen(function* () {
  const config = yield* ServerConfig
  return new Date(config.now())
})

const columns = "raw, user_id, wallet_class, network, source, tracked, backed_up_at"

export const trackedOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Row>`select ${sql.unsafe(columns)} from ton_space_addresses where user_id = ${userId} and tracked order by created_at, raw`
    return rows.map(toActive)
  }).pipe(Effect.orDie)

export const findRow = (raw: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<Row>`select ${sql.unsafe(columns)} from ton_space_addresses where raw = ${raw}`
    return row
  }).pipe(Effect.orDie)

export const ownerOf = (row: Row) => Number(row.user_id)

export type TrackOutcome = { readonly _tag: "tracked"; readonly active: ActiveAddress } | { readonly _tag: "owned-by-another" }

/**
 * Tracks `raw` for the user in one statement: a new row, the user's own row (tracked again; the
 * version and network follow a create or import, a claim keeps them; the backup flag stays), or an
 * untracked row of another user (taken over with the backup flag cleared). A row another user
 * still tracks is left alone.
 */
export const track = (userId: number, raw: string, values: { readonly walletClass: WalletClass; readonly network: Network; readonly source: Source }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const claim = values.source === "claim"
    const rows = yield* sql<Row>`
      insert into ton_space_addresses (raw, user_id, wallet_class, network, source, tracked, backed_up_at, created_at, updated_at)
      values (${raw}, ${userId}, ${values.walletClass}, ${values.network}, ${values.source}, true, null, ${at}, ${at})
      on conflict (raw) do update set
        wallet_class = case when ${claim} and ton_space_addresses.user_id = excluded.user_id then ton_space_addresses.wallet_class else excluded.wallet_class end,
        network = case when ${claim} and ton_space_addresses.user_id = excluded.user_id then ton_space_addresses.network else excluded.network end,
        source = case when ${claim} and ton_space_addresses.user_id = excluded.user_id then ton_space_addresses.source else excluded.source end,
        backed_up_at = case when ton_space_addresses.user_id = excluded.user_id then ton_space_addresses.backed_up_at else null end,
        created_at = case when ton_space_addresses.user_id = excluded.user_id then ton_space_addresses.created_at else excluded.created_at end,
        user_id = excluded.user_id,
        tracked = true,
        updated_at = excluded.updated_at
      where ton_space_addresses.user_id = excluded.user_id or not ton_space_addresses.tracked
      returning ${sql.unsafe(columns)}`
    const row = rows[0]
    return row === undefined ? ({ _tag: "owned-by-another" } as const) : ({ _tag: "tracked", active: toActive(row) } as const)
  }).pipe(Effect.orDie)

/** Sets the manual backup flag of the user's address (the first time stays); undefined when it is not the user's. */
export const markBackedUp = (userId: number, raw: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const [row] = yield* sql<Row>`
      update ton_space_addresses set backed_up_at = coalesce(backed_up_at, ${at}), updated_at = ${at}
      where raw = ${raw} and user_id = ${userId}
      returning ${sql.unsafe(columns)}`
    return row === undefined ? undefined : toActive(row)
  }).pipe(Effect.orDie)

/** Stops tracking the user's address; false when it is not the user's. */
export const untrack = (userId: number, raw: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const rows = yield* sql<{ raw: string }>`
      update ton_space_addresses set tracked = false, updated_at = ${at}
      where raw = ${raw} and user_id = ${userId}
      returning raw`
    return rows.length > 0
  }).pipe(Effect.orDie)
