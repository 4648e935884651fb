/**
 * `Ledger`: the double-entry ledger every plugin that moves money uses (docs/decisions/0400).
 *
 * Movements are queued and executed by a few worker fibers; each worker takes whatever is waiting
 * (up to `maxBatch`) and runs it as one database transaction (group commit, see engine.ts). A
 * caller's effect completes when its movement committed (or failed, having written nothing).
 */
import { Context, Deferred, Effect, Exit, Layer, Option, Queue } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as Db from "../db/Db.ts"
import { runAudit, type AuditReport } from "./audit.ts"
import { loadMovements, runBatch, type CommandResult, type RetryBatch } from "./engine.ts"
import { InvalidMovement, UnknownAccount, UnknownCurrency, UnknownHold, type MovementError } from "./errors.ts"
import {
  convertCommand,
  expireCommand,
  holdCommand,
  isSystemOwner,
  postCommand,
  System,
  transferCommand,
  voidCommand,
  type AccountRef,
  type Balance,
  type Command,
  type ConvertRequest,
  type Currency,
  type HistoryEntry,
  type Hold,
  type HoldRequest,
  type HoldStatus,
  type Metadata,
  type Movement,
  type MovementKind,
  type PendingHold,
  type PostHoldRequest,
  type TransferRequest,
  type ValidationError,
  type VoidHoldRequest,
} from "./model.ts"

export interface LedgerShape {
  /** Registers a currency (idempotent) and opens its system accounts. Decimals never change. */
  readonly defineCurrency: (currency: Currency) => Effect.Effect<Currency, InvalidMovement | SqlError>
  readonly currencies: Effect.Effect<ReadonlyArray<Currency>, SqlError>
  /**
   * Opens (get-or-create) an account. `allowNegative` only for `system:` owners (an external
   * counterpart such as a payment provider's settlement account).
   */
  readonly openAccount: (
    ref: AccountRef,
    options?: { readonly allowNegative?: boolean },
  ) => Effect.Effect<Balance, UnknownCurrency | InvalidMovement | SqlError>
  readonly transfer: (request: TransferRequest) => Effect.Effect<Movement, MovementError | SqlError>
  readonly hold: (request: HoldRequest) => Effect.Effect<Movement, MovementError | SqlError>
  readonly postHold: (request: PostHoldRequest) => Effect.Effect<Movement, MovementError | SqlError>
  readonly voidHold: (request: VoidHoldRequest) => Effect.Effect<Movement, MovementError | SqlError>
  /**
   * One conversion (kind "convert"): the user pays the house in one currency and the house pays the
   * user in another, with an optional fee leg, all or nothing; `InsufficientFunds` when either side
   * cannot pay (decision 1100). Idempotent by key like every movement.
   */
  readonly convert: (request: ConvertRequest) => Effect.Effect<Movement, MovementError | SqlError>
  /** Expires the pending holds whose `expiresAt` is at or before `now` (up to `limit`); returns the movements made. */
  readonly expireHolds: (now: Date, limit?: number) => Effect.Effect<ReadonlyArray<Movement>, SqlError>
  readonly balance: (ref: AccountRef) => Effect.Effect<Balance, UnknownAccount | SqlError>
  /** Every account of an owner. */
  readonly balances: (owner: string) => Effect.Effect<ReadonlyArray<Balance>, SqlError>
  readonly getHold: (holdId: string) => Effect.Effect<Hold, UnknownHold | SqlError>
  readonly holdsOf: (owner: string, options?: { readonly status?: HoldStatus }) => Effect.Effect<ReadonlyArray<Hold>, SqlError>
  /**
   * Pending holds whose key starts with `keyPrefix`, placed at least `minAgeSeconds` ago (by the
   * database clock, which stamped them), in id order after
   * `afterId` (page with the last id), with their key and metadata: for a plugin's housekeeping
   * (e.g. rows that a crash left unwritten) without reading the Ledger's tables itself.
   */
  readonly pendingHolds: (options: {
    readonly keyPrefix: string
    readonly minAgeSeconds: number
    readonly afterId?: string
    readonly limit?: number
  }) => Effect.Effect<ReadonlyArray<PendingHold>, SqlError>
  /** An account's entries, newest first; page with `before` (an entryId). */
  readonly history: (
    ref: AccountRef,
    options?: { readonly limit?: number; readonly before?: string },
  ) => Effect.Effect<ReadonlyArray<HistoryEntry>, UnknownAccount | SqlError>
  /** The entries of all an owner's accounts (every currency), newest first; page with `before`. */
  readonly ownerHistory: (
    owner: string,
    options?: { readonly limit?: number; readonly before?: string },
  ) => Effect.Effect<ReadonlyArray<HistoryEntry>, SqlError>
  readonly movement: (key: string) => Effect.Effect<Movement | undefined, SqlError>
  /** Checks every invariant over the whole database (see audit.ts). */
  readonly audit: Effect.Effect<AuditReport, SqlError>
}

export interface LedgerOptions {
  /** Worker fibers, i.e. transactions in flight at once (default 2; PGlite has one connection anyway). */
  readonly workers?: number
  /** Most movements per transaction (default 256; 1 disables group commit). */
  readonly maxBatch?: number
  /** Observes the size of every batch a worker takes (benchmarks, tests). */
  readonly onBatch?: (size: number) => void
}

interface Job {
  readonly command: Command
  readonly deferred: Deferred.Deferred<Movement, MovementError | SqlError>
}

const MAX_ATTEMPTS = 8

const isTransient = (error: SqlError | RetryBatch): boolean =>
  error._tag === "RetryBatch" || error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError"

const complete = (job: Job, result: CommandResult) => Deferred.doneUnsafe(job.deferred, result.ok ? Exit.succeed(result.movement) : Exit.fail(result.error))

/** Runs jobs as one transaction; transient failures retry it; any other failure isolates each job. */
const execute = (jobs: ReadonlyArray<Job>): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    for (let attempt = 1; ; attempt++) {
      const exit = yield* Effect.exit(runBatch(jobs.map((job) => job.command)))
      if (Exit.isSuccess(exit)) {
        exit.value.forEach((result, index) => complete(jobs[index]!, result))
        return
      }
      const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")?.error as SqlError | RetryBatch | undefined
      if (error !== undefined && isTransient(error) && attempt < MAX_ATTEMPTS) {
        yield* Effect.sleep(`${Math.min(50, attempt * attempt)} millis`)
        continue
      }
      if (jobs.length > 1) {
        // Something unexpected: run each alone so one bad movement cannot fail the others.
        for (const job of jobs) yield* execute([job])
        return
      }
      const failure =
        error === undefined
          ? exit
          : error._tag === "RetryBatch"
            ? Exit.die(new Error(`ledger: gave up after ${attempt} attempts (${error.reason})`))
            : Exit.fail(error)
      Deferred.doneUnsafe(jobs[0]!.deferred, failure as Exit.Exit<Movement, MovementError | SqlError>)
      return
    }
  })

const currencyRow = (row: { code: string; decimals: number }): Currency => ({ code: row.code, decimals: Number(row.decimals) })

const balanceRow = (row: { owner: string; currency: string; balance: string; held: string }): Balance => ({
  owner: row.owner,
  currency: row.currency,
  available: Db.decodeInt8(row.balance),
  held: Db.decodeInt8(row.held),
})

interface HoldRow {
  id: string
  from_owner: string
  to_owner: string
  currency: string
  amount: string
  status: HoldStatus
  posted_amount: string | null
  expires_at: Date | null
  created_at: Date
  resolved_at: Date | null
  resolved_tx: string | null
}

const holdColumns = `h.id::text as id, f.owner as from_owner, t.owner as to_owner, f.currency, h.amount::text as amount, h.status,
  h.posted_amount::text as posted_amount, h.expires_at, h.created_at, h.resolved_at, h.resolved_tx::text as resolved_tx
  from ledger_holds h join ledger_accounts f on f.id = h.from_account join ledger_accounts t on t.id = h.to_account`

const holdRow = (row: HoldRow): Hold => ({
  id: row.id,
  from: { owner: row.from_owner, currency: row.currency },
  to: { owner: row.to_owner, currency: row.currency },
  amount: Db.decodeInt8(row.amount),
  status: row.status,
  postedAmount: row.posted_amount === null ? null : Db.decodeInt8(row.posted_amount),
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  resolvedAt: row.resolved_at,
  resolvedBy: row.resolved_tx,
})

/** Builds the service on the current `SqlClient`; its workers live as long as the scope. */
export const makeLedger = (options: LedgerOptions = {}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const maxBatch = Math.max(1, options.maxBatch ?? 256)
    const workers = Math.max(1, options.workers ?? 2)
    const queue = yield* Queue.unbounded<Job>()
    // Jobs submitted and not yet answered: answered with a defect if the service stops first (the
    // movement may or may not have committed: retry it with the same key).
    const unanswered = new Set<Job>()
    const stopped = (cause: unknown) => (job: Job) => Deferred.doneUnsafe(job.deferred, Exit.die(cause))
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        unanswered.forEach(stopped(new Error("ledger: stopped before the movement was answered; retry it with the same key")))
        unanswered.clear()
      }),
    )

    const worker = Effect.gen(function* () {
      let pending: ReadonlyArray<Job> = yield* Queue.takeBetween(queue, 1, maxBatch)
      options.onBatch?.(pending.length)
      // A batch holds each key once; a repeated key runs in the next transaction (then it replays).
      while (pending.length > 0) {
        const keys = new Set<string>()
        const now: Array<Job> = []
        const later: Array<Job> = []
        for (const job of pending) {
          if (keys.has(job.command.key)) later.push(job)
          else {
            keys.add(job.command.key)
            now.push(job)
          }
        }
        // execute answers every job; a bug in it must not leave callers waiting or stop this worker.
        yield* execute(now).pipe(
          Effect.catchCause((cause) => Effect.sync(() => now.forEach(stopped(new Error(`ledger: internal error: ${String(cause)}`))))),
          // Not on interruption: then the finalizer answers them.
          Effect.andThen(Effect.sync(() => now.forEach((job) => unanswered.delete(job)))),
        )
        pending = later
      }
    }).pipe(Effect.forever, Effect.provideService(SqlClient.SqlClient, sql))
    for (let i = 0; i < workers; i++) yield* Effect.forkScoped(worker)

    const queued = (command: Command) =>
      Effect.suspend(() => {
        const deferred = Deferred.makeUnsafe<Movement, MovementError | SqlError>()
        const job = { command, deferred }
        unanswered.add(job)
        Queue.offerUnsafe(queue, job)
        return Deferred.await(deferred)
      })

    // Inside the caller's transaction: run there (a savepoint), so the movement commits or rolls
    // back with the caller's own writes (and PGlite's single connection is not waited for twice).
    const inline = (command: Command): Effect.Effect<Movement, MovementError | SqlError> =>
      Effect.gen(function* () {
        for (let attempt = 1; ; attempt++) {
          const exit = yield* Effect.exit(runBatch([command]))
          if (Exit.isSuccess(exit)) {
            const result = exit.value[0]!
            return result.ok ? result.movement : yield* Effect.fail(result.error)
          }
          const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")?.error as SqlError | RetryBatch | undefined
          if (error !== undefined && isTransient(error) && attempt < MAX_ATTEMPTS) continue
          if (error !== undefined && error._tag === "SqlError") return yield* Effect.fail(error)
          return yield* Effect.die(error ?? new Error(`ledger: ${String(exit.cause)}`))
        }
      }).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    const submit = (command: Command | ValidationError): Effect.Effect<Movement, MovementError | SqlError> =>
      "_tag" in command
        ? Effect.fail(command)
        : Effect.flatMap(Effect.serviceOption(sql.transactionService), (transaction) => (Option.isSome(transaction) ? inline(command) : queued(command)))

    const defineCurrency: LedgerShape["defineCurrency"] = (currency) =>
      Effect.gen(function* () {
        if (!Number.isInteger(currency.decimals) || currency.decimals < 0 || currency.decimals > 36) {
          return yield* new InvalidMovement({ message: "decimals must be an integer from 0 to 36" })
        }
        if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,31}$/.test(currency.code))
          return yield* new InvalidMovement({ message: `invalid currency code "${currency.code}"` })
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`insert into ledger_currencies (code, decimals) values (${currency.code}, ${currency.decimals}) on conflict (code) do nothing`
            const [row] = yield* sql<{ code: string; decimals: number }>`select code, decimals from ledger_currencies where code = ${currency.code}`
            if (Number(row!.decimals) !== currency.decimals) {
              return yield* new InvalidMovement({ message: `currency ${currency.code} has ${row!.decimals} decimals, not ${currency.decimals}` })
            }
            yield* sql.unsafe(
              `insert into ledger_accounts (owner, currency, allow_negative)
               select owner, $1, owner = $2 from unnest($3::text[]) as v(owner)
               on conflict (owner, currency) do nothing`,
              [currency.code, System.deposits, Object.values(System)],
            )
            return currencyRow(row!)
          }),
        )
      })

    const openAccount: LedgerShape["openAccount"] = (ref, openOptions) =>
      Effect.gen(function* () {
        const allowNegative = openOptions?.allowNegative ?? false
        if (allowNegative && !isSystemOwner(ref.owner)) return yield* new InvalidMovement({ message: "only system accounts may go negative" })
        if (typeof ref.owner !== "string" || ref.owner.length === 0 || ref.owner.length > 200)
          return yield* new InvalidMovement({ message: "owner must be 1-200 characters" })
        const rows = yield* sql<{ owner: string; currency: string; balance: string; held: string }>`
          with known as (select code from ledger_currencies where code = ${ref.currency}),
          created as (
            insert into ledger_accounts (owner, currency, allow_negative)
            select ${ref.owner}, code, ${allowNegative} from known
            on conflict (owner, currency) do nothing
            returning owner, currency, balance::text as balance, held::text as held
          )
          select owner, currency, balance, held from created
          union all
          select owner, currency, balance::text, held::text from ledger_accounts where owner = ${ref.owner} and currency = ${ref.currency}`
        if (rows.length > 0) return balanceRow(rows[0]!)
        // A concurrent open of the same account: our insert waited for it and did nothing, and the
        // select ran on the statement's older snapshot (PostgreSQL, read committed). A new
        // statement sees the committed row; only an unknown currency finds nothing.
        const [again] = yield* sql<{ owner: string; currency: string; balance: string; held: string }>`
          select owner, currency, balance::text as balance, held::text as held from ledger_accounts where owner = ${ref.owner} and currency = ${ref.currency}`
        if (again === undefined) return yield* new UnknownCurrency({ currency: ref.currency })
        return balanceRow(again)
      })

    const expireHolds: LedgerShape["expireHolds"] = (now, limit = 500) =>
      Effect.gen(function* () {
        const due = yield* sql<{ id: string }>`
          select id::text as id from ledger_holds where status = 'pending' and expires_at <= ${now} order by expires_at, id limit ${limit}`.unprepared
        const inTransaction = Option.isSome(yield* Effect.serviceOption(sql.transactionService))
        const results = yield* Effect.forEach(due, (row) => Effect.result(submit(expireCommand(row.id, now))), { concurrency: inTransaction ? 1 : "unbounded" })
        const movements: Array<Movement> = []
        for (const result of results) {
          if (result._tag === "Success") movements.push(result.success)
          else if (result.failure._tag === "SqlError") return yield* Effect.fail(result.failure)
          // HoldNotPending: posted or voided meanwhile; nothing to expire.
        }
        return movements
      })

    const balance: LedgerShape["balance"] = (ref) =>
      Effect.gen(function* () {
        const rows = yield* sql<{ owner: string; currency: string; balance: string; held: string }>`
          select owner, currency, balance::text as balance, held::text as held from ledger_accounts where owner = ${ref.owner} and currency = ${ref.currency}`
          .unprepared
        if (rows.length === 0) return yield* new UnknownAccount({ owner: ref.owner, currency: ref.currency })
        return balanceRow(rows[0]!)
      })

    const balances: LedgerShape["balances"] = (owner) =>
      Effect.map(
        sql<{ owner: string; currency: string; balance: string; held: string }>`
          select owner, currency, balance::text as balance, held::text as held from ledger_accounts where owner = ${owner} order by currency`.unprepared,
        (rows) => rows.map(balanceRow),
      )

    const getHold: LedgerShape["getHold"] = (holdId) =>
      Effect.gen(function* () {
        if (!/^[1-9][0-9]{0,18}$/.test(holdId)) return yield* new UnknownHold({ holdId })
        const rows = yield* sql.unsafe<HoldRow>(`select ${holdColumns} where h.id = $1::bigint`, [holdId]).unprepared
        if (rows.length === 0) return yield* new UnknownHold({ holdId })
        return holdRow(rows[0]!)
      })

    const holdsOf: LedgerShape["holdsOf"] = (owner, holdOptions) =>
      Effect.map(
        sql.unsafe<HoldRow>(
          `select ${holdColumns}
            where h.id in (
              select x.id from ledger_accounts a join ledger_holds x on x.from_account = a.id where a.owner = $1
              union
              select x.id from ledger_accounts a join ledger_holds x on x.to_account = a.id where a.owner = $1
            ) and ($2 = '' or h.status = $2)
            order by h.id desc limit 1000`,
          [owner, holdOptions?.status ?? ""],
        ).unprepared,
        (rows) => rows.map(holdRow),
      )

    const pendingHolds: LedgerShape["pendingHolds"] = (pendingOptions) =>
      Effect.map(
        sql.unsafe<HoldRow & { key: string; metadata: unknown }>(
          `select x.idempotency_key as key, x.metadata, ${holdColumns} join ledger_transactions x on x.id = h.id
            where h.status = 'pending' and h.id > $1::bigint and h.created_at <= now() - make_interval(secs => $2)
              and left(x.idempotency_key, length($3)) = $3
            order by h.id limit $4`,
          [
            pendingOptions.afterId ?? "0",
            Math.max(0, pendingOptions.minAgeSeconds),
            pendingOptions.keyPrefix,
            Math.min(Math.max(1, pendingOptions.limit ?? 100), 1000),
          ],
        ).unprepared,
        (rows) =>
          rows.map((row): PendingHold => ({
            ...holdRow(row),
            key: row.key,
            metadata: (typeof row.metadata === "string" ? JSON.parse(row.metadata) : (row.metadata ?? {})) as Metadata,
          })),
      )

    const entriesOf = (accountIds: ReadonlyArray<string>, historyOptions: { readonly limit?: number; readonly before?: string } | undefined) =>
      Effect.map(
        sql.unsafe<{
          entry_id: string
          currency: string
          transaction_id: string
          idempotency_key: string
          kind: MovementKind
          hold_id: string | null
          amount: string
          memo: string | null
          metadata: unknown
          created_at: Date
        }>(
          `select e.id::text as entry_id, a.currency, t.id::text as transaction_id, t.idempotency_key, t.kind,
                  (case when t.kind = 'hold' then t.id else t.hold_id end)::text as hold_id,
                  e.amount::text as amount, t.memo, t.metadata, t.created_at
             from ledger_entries e
             join ledger_transactions t on t.id = e.transaction_id
             join ledger_accounts a on a.id = e.account_id
            where e.account_id = any($1::bigint[]) and ($2 = '' or e.id < nullif($2, '')::bigint)
            order by e.id desc limit $3`,
          [accountIds, historyOptions?.before ?? "", Math.min(Math.max(1, historyOptions?.limit ?? 50), 500)],
        ).unprepared,
        (rows) =>
          rows.map((row): HistoryEntry => ({
            entryId: row.entry_id,
            currency: row.currency,
            transactionId: row.transaction_id,
            key: row.idempotency_key,
            kind: row.kind,
            holdId: row.hold_id,
            amount: Db.decodeInt8(row.amount),
            memo: row.memo,
            metadata: (typeof row.metadata === "string" ? JSON.parse(row.metadata) : (row.metadata ?? {})) as Metadata,
            createdAt: row.created_at,
          })),
      )

    const history: LedgerShape["history"] = (ref, historyOptions) =>
      Effect.gen(function* () {
        const accounts = yield* sql<{ id: string }>`select id::text as id from ledger_accounts where owner = ${ref.owner} and currency = ${ref.currency}`
          .unprepared
        if (accounts.length === 0) return yield* new UnknownAccount({ owner: ref.owner, currency: ref.currency })
        return yield* entriesOf([accounts[0]!.id], historyOptions)
      })

    const ownerHistory: LedgerShape["ownerHistory"] = (owner, historyOptions) =>
      Effect.gen(function* () {
        const accounts = yield* sql<{ id: string }>`select id::text as id from ledger_accounts where owner = ${owner}`.unprepared
        return yield* entriesOf(
          accounts.map((account) => account.id),
          historyOptions,
        )
      })

    const movement: LedgerShape["movement"] = (key) =>
      Effect.gen(function* () {
        const rows = yield* sql<{ id: string }>`select id::text as id from ledger_transactions where idempotency_key = ${key}`.unprepared
        if (rows.length === 0) return undefined
        return (yield* loadMovements(sql, [rows[0]!.id])).get(rows[0]!.id)
      })

    return Ledger.of({
      defineCurrency,
      currencies: Effect.map(sql<{ code: string; decimals: number }>`select code, decimals from ledger_currencies order by code`, (rows) =>
        rows.map(currencyRow),
      ),
      openAccount,
      transfer: (request) => submit(transferCommand(request)),
      hold: (request) => submit(holdCommand(request)),
      postHold: (request) => submit(postCommand(request)),
      voidHold: (request) => submit(voidCommand(request)),
      convert: (request) => submit(convertCommand(request)),
      expireHolds,
      balance,
      balances,
      getHold,
      holdsOf,
      pendingHolds,
      history,
      ownerHistory,
      movement,
      audit: Effect.provideService(runAudit, SqlClient.SqlClient, sql),
    })
  })

export class Ledger extends Context.Service<Ledger, LedgerShape>()("wallet/server/Ledger") {
  /** The service on the host's `SqlClient` (its migrations must have run: `ledgerModule`). */
  static readonly layer: Layer.Layer<Ledger, never, SqlClient.SqlClient> = Layer.effect(Ledger, makeLedger())
  static readonly layerWith = (options: LedgerOptions): Layer.Layer<Ledger, never, SqlClient.SqlClient> => Layer.effect(Ledger, makeLedger(options))
}
