/**
 * The movement engine: executes a batch of commands in ONE database transaction.
 *
 * Locking protocol (the same in every transaction, so no two wait on each other in a cycle):
 *   1. the hold rows the batch resolves, `for update`, in id order;
 *   2. every account the batch touches, `for update`, in id order (one statement);
 *   3. the new idempotency keys, inserted in key order.
 * With every row it will write locked, the batch decides each command in memory in order
 * (idempotency replay / conflict, unknown accounts, funds, hold state), so a command that fails
 * writes nothing and never disturbs the others; then it writes all effects in a few set-based
 * statements. A key that a concurrent transaction committed in the meantime makes the insert skip
 * it: the batch rolls back and runs again (it then sees the key as a replay).
 *
 * The statements run unprepared (planned for their actual arrays every time): a prepared statement
 * that a pooled connection planned while the tables were empty keeps a generic plan with
 * sequential scans for the connection's lifetime, however large the tables grow.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as Db from "../db/Db.ts"
import { HoldNotPending, IdempotencyConflict, InsufficientFunds, InvalidMovement, UnknownAccount, UnknownHold, type MovementError } from "./errors.ts"
import { System, type AccountRef, type AlongGroup, type Command, type Entry, type Metadata, type Movement, type MovementKind } from "./model.ts"

/** The batch must run again from the start (a key committed concurrently). Internal. */
export class RetryBatch extends Schema.TaggedError<RetryBatch>()("RetryBatch", { reason: Schema.String }) {}

export type CommandResult = { readonly ok: true; readonly movement: Movement } | { readonly ok: false; readonly error: MovementError }

const amountOf = (value: unknown): bigint => Db.decodeInt8(value)

interface AccountState {
  readonly id: string
  readonly owner: string
  readonly currency: string
  readonly allowNegative: boolean
  balance: bigint
  held: bigint
  touched: boolean
}

interface HoldState {
  readonly id: string
  readonly fromAccount: string
  readonly toAccount: string
  readonly amount: bigint
  status: string
  readonly expiresAt: Date | null
}

interface NewTransaction {
  readonly command: Command
  readonly index: number
  readonly holdId: string | null
  /** account id and signed amount, in entry order */
  readonly entries: ReadonlyArray<readonly [AccountState, bigint]>
  readonly newHold: { readonly from: AccountState; readonly to: AccountState; readonly amount: bigint; readonly expiresAt: Date | null } | null
  readonly resolves: { readonly holdId: string; readonly status: "posted" | "voided" | "expired"; readonly posted: bigint | null } | null
}

const refId = (owner: string, currency: string) => `${owner}\u0000${currency}`

const parseMetadata = (value: unknown): Metadata => (typeof value === "string" ? (JSON.parse(value) as Metadata) : ((value ?? {}) as Metadata))

const compareIds = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)

/** Loads committed movements by transaction id (replays return exactly what the first call returned). */
export const loadMovements = (sql: SqlClient.SqlClient, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const result = new Map<string, Movement>()
    if (ids.length === 0) return result
    const rows = yield* sql.unsafe<{
      id: string
      idempotency_key: string
      kind: MovementKind
      hold_id: string | null
      memo: string | null
      metadata: unknown
      created_at: Date
      amount: string
      owner: string
      currency: string
    }>(
      `select t.id::text as id, t.idempotency_key, t.kind, t.hold_id::text as hold_id, t.memo, t.metadata, t.created_at,
              e.amount::text as amount, a.owner, a.currency
         from ledger_transactions t
         join ledger_entries e on e.transaction_id = t.id
         join ledger_accounts a on a.id = e.account_id
        where t.id = any($1::bigint[])
        order by t.id, e.id`,
      [ids],
    ).unprepared
    const entries = new Map<string, Array<Entry>>()
    for (const row of rows) {
      let list = entries.get(row.id)
      if (list === undefined) {
        list = []
        entries.set(row.id, list)
        result.set(row.id, {
          transactionId: row.id,
          key: row.idempotency_key,
          kind: row.kind,
          holdId: row.kind === "hold" ? row.id : row.hold_id,
          memo: row.memo,
          metadata: parseMetadata(row.metadata),
          createdAt: row.created_at,
          entries: list,
        })
      }
      list.push({ owner: row.owner, currency: row.currency, amount: amountOf(row.amount) })
    }
    return result
  })

/**
 * Runs `commands` (distinct keys) in one transaction; returns one result per command, in order.
 * Fails only with `SqlError` (the transaction rolled back) or `RetryBatch`.
 */
export const runBatch = (commands: ReadonlyArray<Command>): Effect.Effect<ReadonlyArray<CommandResult>, SqlError | RetryBatch, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // 1. hold rows, in id order
        const holdIds = [...new Set(commands.flatMap((c) => (c.kind === "post" || c.kind === "void" || c.kind === "expire" ? [c.holdId] : [])))].sort(
          compareIds,
        )
        const holds = new Map<string, HoldState>()
        if (holdIds.length > 0) {
          const rows = yield* sql.unsafe<{ id: string; from_account: string; to_account: string; amount: string; status: string; expires_at: Date | null }>(
            `select id::text as id, from_account::text as from_account, to_account::text as to_account, amount::text as amount, status, expires_at
               from ledger_holds where id = any($1::bigint[]) order by id for update`,
            [holdIds],
          ).unprepared
          for (const row of rows) {
            holds.set(row.id, {
              id: row.id,
              fromAccount: row.from_account,
              toAccount: row.to_account,
              amount: amountOf(row.amount),
              status: row.status,
              expiresAt: row.expires_at,
            })
          }
        }

        // 2. accounts, in id order: named ones, the holds' own, and the holds accounts of their currencies.
        // The ids are computed once (an InitPlan) and the locking scan's only condition is
        // `id = any(<that array>)`: when a row was updated while we waited for its lock, PostgreSQL
        // re-checks the condition on the new version, and a join there (e.g. `id in (select ...)`)
        // can drop the row, as if the account did not exist.
        const owners: Array<string> = []
        const currencies: Array<string> = []
        const want = (ref: AccountRef) => {
          owners.push(ref.owner)
          currencies.push(ref.currency)
        }
        for (const command of commands) {
          if (command.kind === "transfer" || command.kind === "convert") {
            for (const leg of command.legs) {
              want(leg.from)
              want(leg.to)
            }
          } else if (command.kind === "hold") {
            want(command.from)
            want(command.to)
            want({ owner: System.holds, currency: command.from.currency })
          } else if (command.kind === "post") {
            for (const fee of command.fees) want(fee.to)
          }
        }
        const holdAccountIds = [...holds.values()].flatMap((hold) => [hold.fromAccount, hold.toAccount])
        const accountRows = yield* sql.unsafe<{ id: string; owner: string; currency: string; allow_negative: boolean; balance: string; held: string }>(
          `select id::text as id, owner, currency, allow_negative, balance::text as balance, held::text as held
             from ledger_accounts
            where id = any(array(
              select a.id from unnest($1::text[], $2::text[]) as v(owner, currency)
                join ledger_accounts a on a.owner = v.owner and a.currency = v.currency
              union all
              select unnest($3::bigint[])
              union all
              select a.id from ledger_accounts a
               where a.owner = $4 and a.currency in (select currency from ledger_accounts where id = any($3::bigint[]))
            ))
            order by id for update`,
          [owners, currencies, holdAccountIds, System.holds],
        ).unprepared
        const byRef = new Map<string, AccountState>()
        const byId = new Map<string, AccountState>()
        for (const row of accountRows) {
          const state: AccountState = {
            id: row.id,
            owner: row.owner,
            currency: row.currency,
            allowNegative: row.allow_negative,
            balance: amountOf(row.balance),
            held: amountOf(row.held),
            touched: false,
          }
          byRef.set(refId(row.owner, row.currency), state)
          byId.set(row.id, state)
        }

        // 3. keys already committed
        const existing = new Map<string, { id: string; hash: string }>()
        {
          const rows = yield* sql.unsafe<{ idempotency_key: string; id: string; request_hash: string }>(
            `select idempotency_key, id::text as id, request_hash from ledger_transactions where idempotency_key = any($1::text[])`,
            [commands.map((c) => c.key)],
          ).unprepared
          for (const row of rows) existing.set(row.idempotency_key, { id: row.id, hash: row.request_hash })
        }

        // 4. decide every command in memory, in order
        const results: Array<CommandResult | { replay: string } | NewTransaction> = []
        for (const [index, command] of commands.entries()) {
          const known = existing.get(command.key)
          if (known !== undefined) {
            results.push(known.hash === command.hash ? { replay: known.id } : { ok: false, error: new IdempotencyConflict({ key: command.key }) })
            continue
          }
          const decided = decide(command, index, byRef, byId, holds)
          results.push(decided)
        }
        const fresh = results.filter((r): r is NewTransaction => "command" in r)

        // 5. write everything in one statement: transactions (key order), entries, balances, holds.
        // Rows of a key the insert skipped join nothing; the batch then rolls back as a whole.
        const created = new Map<number, { id: string; createdAt: Date }>()
        if (fresh.length > 0) {
          const ordered = [...fresh].sort((a, b) => (a.command.key < b.command.key ? -1 : a.command.key > b.command.key ? 1 : 0))
          const entries = fresh.flatMap((t) => t.entries.map(([account, amount]) => [t.command.key, account.id, amount.toString()] as const))
          const touched = [...byId.values()].filter((account) => account.touched)
          const placed = fresh.filter((t) => t.newHold !== null)
          const resolving = fresh.filter((t) => t.resolves !== null)
          const rows = yield* sql.unsafe<{ id: string; idempotency_key: string; created_at: Date; resolved: number }>(
            `with tx as (
               insert into ledger_transactions (idempotency_key, request_hash, kind, hold_id, memo, metadata)
               select k, h, kind, nullif(hold, '')::bigint, nullif(memo, ''), meta::jsonb
                 from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) with ordinality as v(k, h, kind, hold, memo, meta, n)
                order by n
               on conflict (idempotency_key) do nothing
               returning id, idempotency_key, created_at
             ), entries as (
               insert into ledger_entries (transaction_id, account_id, amount)
               select tx.id, v.account, v.amount
                 from unnest($7::text[], $8::bigint[], $9::numeric[]) with ordinality as v(k, account, amount, n)
                 join tx on tx.idempotency_key = v.k
                order by v.n
             ), balances as (
               update ledger_accounts a set balance = v.balance, held = v.held
                 from unnest($10::bigint[], $11::numeric[], $12::numeric[]) as v(id, balance, held) where a.id = v.id
             ), placed as (
               insert into ledger_holds (id, from_account, to_account, amount, status, expires_at)
               select tx.id, v.f, v.t, v.amount, 'pending', nullif(v.e, '')::timestamptz
                 from unnest($13::text[], $14::bigint[], $15::bigint[], $16::numeric[], $17::text[]) as v(k, f, t, amount, e)
                 join tx on tx.idempotency_key = v.k
             ), resolved as (
               update ledger_holds h set status = v.status, resolved_tx = tx.id, posted_amount = nullif(v.posted, '')::numeric, resolved_at = now()
                 from unnest($18::bigint[], $19::text[], $20::text[], $21::text[]) as v(id, status, k, posted)
                 join tx on tx.idempotency_key = v.k
                where h.id = v.id and h.status = 'pending'
                returning h.id
             )
             select id::text as id, idempotency_key, created_at, (select count(*) from resolved)::int as resolved from tx`,
            [
              ordered.map((t) => t.command.key),
              ordered.map((t) => t.command.hash),
              ordered.map((t) => t.command.kind),
              ordered.map((t) => (t.command.kind === "hold" ? "" : (t.holdId ?? ""))),
              ordered.map((t) => t.command.memo ?? ""),
              ordered.map((t) => JSON.stringify(t.command.metadata)),
              entries.map((e) => e[0]),
              entries.map((e) => e[1]),
              entries.map((e) => e[2]),
              touched.map((a) => a.id),
              touched.map((a) => a.balance.toString()),
              touched.map((a) => a.held.toString()),
              placed.map((t) => t.command.key),
              placed.map((t) => t.newHold!.from.id),
              placed.map((t) => t.newHold!.to.id),
              placed.map((t) => t.newHold!.amount.toString()),
              placed.map((t) => t.newHold!.expiresAt?.toISOString() ?? ""),
              resolving.map((t) => t.resolves!.holdId),
              resolving.map((t) => t.resolves!.status),
              resolving.map((t) => t.command.key),
              resolving.map((t) => t.resolves!.posted?.toString() ?? ""),
            ],
          ).unprepared
          if (rows.length !== ordered.length) return yield* new RetryBatch({ reason: "an idempotency key was committed concurrently" })
          // Impossible under the row locks; if it ever happens, nothing of this batch may commit.
          if (Number(rows[0]!.resolved) !== resolving.length) return yield* Effect.die(new Error("ledger: a locked hold changed state inside its transaction"))
          const byKey = new Map(rows.map((row) => [row.idempotency_key, row]))
          for (const t of fresh) {
            const row = byKey.get(t.command.key)!
            created.set(t.index, { id: row.id, createdAt: row.created_at })
          }
        }

        // 6. replays
        const replayIds = results.flatMap((r) => ("replay" in r ? [r.replay] : []))
        const replayed = yield* loadMovements(sql, replayIds)

        const answers = results.map((r, index): CommandResult => {
          if ("replay" in r) {
            const movement = replayed.get(r.replay)
            if (movement === undefined) throw new Error(`ledger: transaction ${r.replay} has no entries`)
            return { ok: true, movement }
          }
          if ("ok" in r) return r
          const row = created.get(index)!
          return {
            ok: true,
            movement: {
              transactionId: row.id,
              key: r.command.key,
              kind: r.command.kind,
              holdId: r.command.kind === "hold" ? row.id : r.holdId,
              memo: r.command.memo,
              metadata: r.command.metadata,
              createdAt: row.createdAt,
              entries: r.entries.map(([account, amount]) => ({ owner: account.owner, currency: account.currency, amount })),
            },
          }
        })

        // 7. the callers' own writes (decision 0407): one call per group, with the movements this batch made
        const groups = new Map<AlongGroup<unknown>, Array<{ item: unknown; movement: Movement }>>()
        for (const t of fresh) {
          const answer = answers[t.index]!
          if (t.command.along === null || !answer.ok) continue
          const made = groups.get(t.command.along.group) ?? []
          made.push({ item: t.command.along.item, movement: answer.movement })
          groups.set(t.command.along.group, made)
        }
        for (const [group, made] of groups) yield* group.write(made)
        return answers
      }),
    )
  })

/** Decides one command against the locked state; mutates the state only when it succeeds. */
const decide = (
  command: Command,
  index: number,
  byRef: ReadonlyMap<string, AccountState>,
  byId: ReadonlyMap<string, AccountState>,
  holds: Map<string, HoldState>,
): CommandResult | NewTransaction => {
  const fail = (error: MovementError): CommandResult => ({ ok: false, error })
  const account = (ref: AccountRef): AccountState | UnknownAccount =>
    byRef.get(refId(ref.owner, ref.currency)) ?? new UnknownAccount({ owner: ref.owner, currency: ref.currency })

  const entries: Array<readonly [AccountState, bigint]> = []
  const heldDelta = new Map<AccountState, bigint>()
  let newHold: NewTransaction["newHold"] = null
  let resolves: NewTransaction["resolves"] = null
  let holdId: string | null = null

  switch (command.kind) {
    case "transfer":
    case "convert": {
      for (const leg of command.legs) {
        const from = account(leg.from)
        if (from instanceof UnknownAccount) return fail(from)
        const to = account(leg.to)
        if (to instanceof UnknownAccount) return fail(to)
        entries.push([from, -leg.amount], [to, leg.amount])
      }
      break
    }
    case "hold": {
      const from = account(command.from)
      if (from instanceof UnknownAccount) return fail(from)
      const to = account(command.to)
      if (to instanceof UnknownAccount) return fail(to)
      const escrow = account({ owner: System.holds, currency: command.from.currency })
      if (escrow instanceof UnknownAccount) return fail(escrow)
      entries.push([from, -command.amount], [escrow, command.amount])
      heldDelta.set(from, command.amount)
      newHold = { from, to, amount: command.amount, expiresAt: command.expiresAt }
      break
    }
    case "post":
    case "void":
    case "expire": {
      const hold = holds.get(command.holdId)
      if (hold === undefined) return fail(new UnknownHold({ holdId: command.holdId }))
      if (hold.status !== "pending") return fail(new HoldNotPending({ holdId: hold.id, status: hold.status }))
      const from = byId.get(hold.fromAccount)!
      const to = byId.get(hold.toAccount)!
      const escrow = byRef.get(refId(System.holds, from.currency))
      if (escrow === undefined) return fail(new UnknownAccount({ owner: System.holds, currency: from.currency }))
      holdId = hold.id
      if (command.kind === "post") {
        const posted = command.amount ?? hold.amount
        if (posted > hold.amount) return fail(new InvalidMovement({ message: `post amount ${posted} exceeds the hold's ${hold.amount}` }))
        // Fee legs: each fee account in the hold's currency, together at most the posted amount.
        const feeEntries: Array<readonly [AccountState, bigint]> = []
        let fees = 0n
        for (const fee of command.fees) {
          if (fee.to.currency !== from.currency) {
            return fail(new InvalidMovement({ message: `fee currency ${fee.to.currency} differs from the hold's ${from.currency}` }))
          }
          const feeAccount = account(fee.to)
          if (feeAccount instanceof UnknownAccount) return fail(feeAccount)
          feeEntries.push([feeAccount, fee.amount])
          fees += fee.amount
        }
        if (fees > posted) return fail(new InvalidMovement({ message: `fees ${fees} exceed the posted amount ${posted}` }))
        // No zero entries: when the fees take all of it, `to` gets none.
        entries.push([escrow, -posted])
        if (posted > fees) entries.push([to, posted - fees])
        entries.push(...feeEntries)
        if (posted < hold.amount) entries.push([escrow, -(hold.amount - posted)], [from, hold.amount - posted])
        resolves = { holdId: hold.id, status: "posted", posted }
      } else {
        if (command.kind === "expire" && (hold.expiresAt === null || hold.expiresAt.getTime() > command.now.getTime())) {
          return fail(new InvalidMovement({ message: `hold ${hold.id} has not expired` }))
        }
        entries.push([escrow, -hold.amount], [from, hold.amount])
        resolves = { holdId: hold.id, status: command.kind === "void" ? "voided" : "expired", posted: null }
      }
      heldDelta.set(from, -hold.amount)
      break
    }
  }

  // Funds: net effect per account, checked against its locked balance.
  const net = new Map<AccountState, bigint>()
  for (const [acct, amount] of entries) net.set(acct, (net.get(acct) ?? 0n) + amount)
  for (const [acct, delta] of net) {
    if (!acct.allowNegative && acct.balance + delta < 0n) {
      return fail(new InsufficientFunds({ owner: acct.owner, currency: acct.currency, available: acct.balance, requested: -delta }))
    }
  }
  for (const [acct, delta] of net) {
    acct.balance += delta
    acct.touched = true
  }
  for (const [acct, delta] of heldDelta) {
    acct.held += delta
    acct.touched = true
  }
  if (resolves !== null) {
    const hold = holds.get(resolves.holdId)!
    hold.status = resolves.status
  }
  return { command, index, holdId, entries, newHold, resolves }
}
