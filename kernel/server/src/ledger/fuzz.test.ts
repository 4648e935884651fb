/**
 * Property / fuzz test: thousands of random movements run concurrently (transfers with fees,
 * holds, partial and full posts (some with a fee leg), voids, expiry sweeps racing posts, conversions against the
 * house account (some beyond its inventory), retries with the same key,
 * the same key with another body, overdrafts), round after round, on PGlite and on PostgreSQL.
 * Every random choice comes from a fixed seed; which of two racing operations wins may differ
 * between runs (and late retries pick among the keys committed so far), so the model follows the
 * outcomes and checks they are lawful:
 *   - every successful result of one key is the same movement, with that key's one body;
 *   - a key committed in an earlier round replays (same body) or conflicts (other body);
 *   - a hold is resolved by at most one success; nothing else fails but for a lawful reason;
 *   - afterwards every balance and held amount equals the model, and the audit is clean.
 */
import { Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabases, type TestDatabaseKind } from "../testing/databases.ts"
import type { MovementError } from "./errors.ts"
import { Ledger, type LedgerOptions, type LedgerShape } from "./Ledger.ts"
import { System, userOwner, type AccountRef, type Movement } from "./model.ts"
import { startTestLedger, type TestLedger } from "./testing.ts"

const SEED = 20261122
const ROUNDS = 20
const OPS_PER_ROUND = 250
const USERS = 12
const CURRENCIES = [
  { code: "TON", decimals: 9 },
  { code: "USDT", decimals: 6 },
]

const prng = (start: number) => {
  let seed = start
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Op =
  | { readonly type: "transfer"; readonly key: string; readonly from: AccountRef; readonly to: AccountRef; readonly amount: bigint; readonly fee: bigint }
  | {
      readonly type: "hold"
      readonly key: string
      readonly from: AccountRef
      readonly to: AccountRef
      readonly amount: bigint
      readonly expiresAt: Date | undefined
      readonly tag: string
    }
  | { readonly type: "post"; readonly key: string; readonly hold: string; readonly amount: bigint | undefined; readonly fee: bigint }
  | { readonly type: "void"; readonly key: string; readonly hold: string }
  | {
      readonly type: "convert"
      readonly key: string
      readonly user: string
      readonly pay: { readonly currency: string; readonly amount: bigint }
      readonly receive: { readonly currency: string; readonly amount: bigint }
      readonly fee: bigint
    }
  | { readonly type: "expire"; readonly now: Date }

type Outcome =
  | { readonly ok: true; readonly value: Movement | ReadonlyArray<Movement> }
  | { readonly ok: false; readonly error: MovementError | { _tag: string } }

const refKey = (ref: AccountRef) => `${ref.owner}/${ref.currency}`
const T0 = Date.UTC(2030, 0, 1)
const minute = 60_000

// Group commit (the default) on both databases, and one movement per transaction with more
// transactions in flight on PostgreSQL (more lock waits, concurrent commits of one key).
const variants: ReadonlyArray<readonly [string, TestDatabaseKind, LedgerOptions & { readonly processes?: number }]> = [
  ...testDatabases.map((kind) => [`${kind}`, kind, {}] as const),
  ["postgres without batching", "postgres", { maxBatch: 1, workers: 6 }],
  // Two and four API processes on one PostgreSQL (issue 18): each with its own pool and batcher.
  ["postgres in two processes", "postgres", { processes: 2 }],
  ["postgres in four processes", "postgres", { processes: 4 }],
]

describe.each(variants)("Ledger fuzz on %s", (label, kind, options) => {
  let db: TestLedger
  const run = <A, E>(f: (ledger: LedgerShape) => Effect.Effect<A, E>) => db.run(Effect.flatMap(Effect.service(Ledger), f))

  beforeAll(async () => {
    db = await startTestLedger(kind, options)
  }, 120_000)
  afterAll(async () => {
    await db?.stop()
  })

  it("keeps every invariant under random concurrent movements, retries and duplicate keys", async () => {
    const random = prng(SEED)
    const pick = <T>(items: ReadonlyArray<T>): T => items[Math.floor(random() * items.length)]!
    const amount = (max: number) => 1n + BigInt(Math.floor(random() * max))

    // Model: balances and held per account, holds by the tag of the op that placed them.
    const balance = new Map<string, bigint>()
    const held = new Map<string, bigint>()
    const add = (map: Map<string, bigint>, ref: AccountRef, delta: bigint) => map.set(refKey(ref), (map.get(refKey(ref)) ?? 0n) + delta)
    interface ModelHold {
      readonly from: AccountRef
      readonly to: AccountRef
      readonly amount: bigint
      readonly expiresAt: Date | undefined
      status: string
    }
    const holds = new Map<string, ModelHold>() // by hold id
    const holdIdByTag = new Map<string, string>()
    const placedTags: Array<string> = []
    const committed = new Map<string, { op: Op; movement: Movement }>() // by key

    const accounts: Array<AccountRef> = []
    for (const currency of CURRENCIES) {
      await run((l) => l.defineCurrency(currency))
      for (const owner of Object.values(System)) accounts.push({ owner, currency: currency.code })
      for (let i = 0; i < USERS; i++) {
        const ref = { owner: userOwner(9_000 + i), currency: currency.code }
        await run((l) => l.openAccount(ref))
        accounts.push(ref)
        const deposit = 500_000n + amount(500_000)
        await run((l) =>
          l.transfer({ key: `fuzz:seed:${refKey(ref)}`, legs: [{ from: { owner: System.deposits, currency: currency.code }, to: ref, amount: deposit }] }),
        )
        add(balance, ref, deposit)
        add(balance, { owner: System.deposits, currency: currency.code }, -deposit)
      }
      // The house's inventory: small, so some conversions find it short (and must move nothing).
      const house = { owner: System.house, currency: currency.code }
      const inventory = 200_000n
      await run((l) =>
        l.transfer({ key: `fuzz:seed:${refKey(house)}`, legs: [{ from: { owner: System.deposits, currency: currency.code }, to: house, amount: inventory }] }),
      )
      add(balance, house, inventory)
      add(balance, { owner: System.deposits, currency: currency.code }, -inventory)
    }
    const users = (currency: string) => accounts.filter((a) => a.currency === currency && a.owner.startsWith("user:"))
    // Production-like plans: with statistics the planner joins differently than on empty tables.
    await db.run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql`analyze`))

    let sequence = 0
    const stats = { ops: 0, ok: 0, insufficient: 0, conflicts: 0, notPending: 0, replays: 0, expired: 0, invalid: 0, feePosts: 0, converts: 0 }

    for (let round = 0; round < ROUNDS; round++) {
      const now = new Date(T0 + round * minute)
      const ops: Array<Op> = []
      for (let n = 0; n < OPS_PER_ROUND; n++) {
        const r = random()
        const currency = pick(CURRENCIES).code
        const from = pick(users(currency))
        let to = pick(users(currency))
        if (to === from) to = { owner: System.withdrawals, currency }
        if (r < 0.08) {
          // A conversion: the user pays one currency to the house and receives the other from it.
          const other = CURRENCIES.find((c) => c.code !== currency)!.code
          ops.push({
            type: "convert",
            key: `fuzz:c:${sequence++}`,
            user: from.owner,
            pay: { currency, amount: amount(30_000) },
            receive: { currency: other, amount: random() < 0.1 ? 150_000n : amount(30_000) },
            fee: random() < 0.4 ? amount(60) : 0n,
          })
        } else if (r < 0.38) {
          // Mostly affordable, sometimes an overdraft attempt.
          const big = random() < 0.05
          ops.push({
            type: "transfer",
            key: `fuzz:t:${sequence++}`,
            from,
            to,
            amount: big ? 10_000_000n : amount(40_000),
            fee: random() < 0.3 ? amount(50) : 0n,
          })
        } else if (r < 0.55) {
          const tag = `h${sequence}`
          const expiresAt = random() < 0.5 ? new Date(T0 + (round + 1 + Math.floor(random() * 4)) * minute) : undefined
          ops.push({
            type: "hold",
            key: `fuzz:h:${sequence++}`,
            from,
            to: random() < 0.5 ? { owner: System.withdrawals, currency } : to,
            amount: amount(30_000),
            expiresAt,
            tag,
          })
          placedTags.push(tag)
        } else if (r < 0.75 && placedTags.length > 0) {
          const hold = pick(placedTags)
          const partial = random() < 0.4
          const key = `fuzz:r:${sequence++}`
          // Some posts pay a fee to system:fees out of the posted amount (a few above a partial post's amount).
          if (random() < 0.6) ops.push({ type: "post", key, hold, amount: partial ? amount(100) : undefined, fee: random() < 0.3 ? amount(40) : 0n })
          else ops.push({ type: "void", key, hold })
        } else if (r < 0.88 && ops.length > 0) {
          // A retry of an op of this round (same key, same body): runs concurrently with it.
          const original = pick(ops)
          if (original.type !== "expire") ops.push(original)
        } else if (r < 0.95 && ops.length > 0) {
          // The same key as an earlier op, another body.
          const original = pick(ops)
          if (original.type === "transfer") ops.push({ ...original, amount: original.amount + 1n })
          else if (original.type === "convert") ops.push({ ...original, receive: { ...original.receive, amount: original.receive.amount + 1n } })
          else if (original.type === "hold") ops.push({ ...original, amount: original.amount + 1n, tag: `${original.tag}x` })
          else if (original.type === "post")
            ops.push(original.fee > 0n && random() < 0.5 ? { ...original, fee: original.fee + 1n } : { ...original, amount: (original.amount ?? 0n) + 7n })
        } else if (r < 0.97 && committed.size > 0) {
          // A late retry of something committed in an earlier round.
          const keys = [...committed.keys()]
          const previous = committed.get(keys[Math.floor(random() * keys.length)]!)!
          ops.push(previous.op)
        } else {
          ops.push({ type: "expire", now })
        }
      }
      // Shuffle so retries and conflicts interleave with their originals.
      for (let i = ops.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1))
        ;[ops[i], ops[j]] = [ops[j]!, ops[i]!]
      }

      const execute = (op: Op, ledger: LedgerShape): Effect.Effect<Movement | ReadonlyArray<Movement>, MovementError | { _tag: string }> => {
        switch (op.type) {
          case "transfer":
            return ledger.transfer({
              key: op.key,
              legs: [
                { from: op.from, to: op.to, amount: op.amount },
                ...(op.fee > 0n ? [{ from: op.from, to: { owner: System.fees, currency: op.from.currency }, amount: op.fee }] : []),
              ],
            })
          case "convert":
            return ledger.convert({ key: op.key, user: op.user, pay: op.pay, receive: op.receive, fee: op.fee > 0n ? op.fee : undefined })
          case "hold":
            return ledger.hold({ key: op.key, from: op.from, to: op.to, amount: op.amount, expiresAt: op.expiresAt })
          case "post": {
            const id = holdIdByTag.get(op.hold)
            if (id === undefined) return Effect.fail({ _tag: "NotPlaced" })
            const fees = op.fee > 0n ? [{ to: { owner: System.fees, currency: holds.get(id)!.from.currency }, amount: op.fee }] : undefined
            return ledger.postHold({ key: op.key, holdId: id, amount: op.amount, fees })
          }
          case "void": {
            const id = holdIdByTag.get(op.hold)
            return id === undefined ? Effect.fail({ _tag: "NotPlaced" }) : ledger.voidHold({ key: op.key, holdId: id })
          }
          case "expire":
            return ledger.expireHolds(op.now)
        }
      }
      // With several processes, op i runs on process i % n: neighbours (often the same key or
      // hold) race from different connection pools and batchers.
      const outcomes: Array<Outcome> = []
      await Promise.all(
        Array.from({ length: db.processes }, (_, process) =>
          db.runOn(
            process,
            Effect.flatMap(Effect.service(Ledger), (ledger) =>
              Effect.forEach(
                ops.flatMap((op, index) => (index % db.processes === process ? [{ op, index }] : [])),
                ({ op, index }) =>
                  Effect.map(Effect.exit(execute(op, ledger)), (exit) => {
                    if (Exit.isSuccess(exit)) outcomes[index] = { ok: true, value: exit.value }
                    else {
                      const reason = exit.cause.reasons[0]
                      if (reason?._tag !== "Fail") throw new Error(`unexpected defect: ${String(exit.cause)}`)
                      outcomes[index] = { ok: false, error: reason.error as MovementError }
                    }
                  }),
                { concurrency: "unbounded", discard: true },
              ),
            ),
          ),
        ),
      )
      stats.ops += ops.length

      // Check the outcomes and move the model.
      const byKey = new Map<string, Array<{ op: Op; outcome: Outcome }>>()
      const resolvedHolds = new Map<string, number>()
      for (const [index, op] of ops.entries()) {
        const outcome = outcomes[index]!
        if (op.type === "expire") {
          expect(outcome.ok).toBe(true)
          for (const movement of (outcome as { value: ReadonlyArray<Movement> }).value) {
            const hold = holds.get(movement.holdId!)!
            expect(hold.expiresAt!.getTime()).toBeLessThanOrEqual(op.now.getTime())
            if (committed.has(movement.key)) continue // another sweeper's replay
            resolvedHolds.set(movement.holdId!, (resolvedHolds.get(movement.holdId!) ?? 0) + 1)
            committed.set(movement.key, { op, movement })
            expect(hold.status).toBe("pending")
            hold.status = "expired"
            add(balance, hold.from, hold.amount)
            add(held, hold.from, -hold.amount)
            add(balance, { owner: System.holds, currency: hold.from.currency }, -hold.amount)
            stats.expired++
          }
          continue
        }
        const list = byKey.get(op.key) ?? []
        list.push({ op, outcome })
        byKey.set(op.key, list)
      }
      for (const [key, list] of byKey) {
        const successes = list.filter((item) => item.outcome.ok)
        const ids = new Set(successes.map((item) => (item.outcome as { value: Movement }).value.transactionId))
        expect(ids.size).toBeLessThanOrEqual(1)
        for (const item of list) {
          if (item.outcome.ok) continue
          const tag = item.outcome.error._tag
          expect(["InsufficientFunds", "IdempotencyConflict", "HoldNotPending", "InvalidMovement", "NotPlaced"]).toContain(tag)
          if (tag === "InsufficientFunds") stats.insufficient++
          if (tag === "IdempotencyConflict") stats.conflicts++
          if (tag === "HoldNotPending") stats.notPending++
          if (tag === "InvalidMovement") {
            // Only a post above the hold's amount, or its fee above the posted amount.
            expect(item.op.type).toBe("post")
            const op = item.op as Extract<Op, { type: "post" }>
            const hold = holds.get(holdIdByTag.get(op.hold)!)!
            const posted = op.amount ?? hold.amount
            expect(posted > hold.amount || op.fee > posted).toBe(true)
            stats.invalid++
          }
        }
        if (successes.length === 0) continue
        const winner = successes[0]!
        const movement = (winner.outcome as { value: Movement }).value
        // Every success carries the same body (a conflicting body never succeeds beside it).
        for (const other of successes)
          expect(JSON.stringify(other.op, (_k, v) => (typeof v === "bigint" ? `${v}` : v))).toBe(
            JSON.stringify(winner.op, (_k, v) => (typeof v === "bigint" ? `${v}` : v)),
          )
        stats.ok += successes.length
        const earlier = committed.get(key)
        if (earlier !== undefined) {
          // A late retry: the very same movement as the first time.
          expect(movement).toEqual(earlier.movement)
          stats.replays += successes.length
          continue
        }
        stats.replays += successes.length - 1
        committed.set(key, { op: winner.op, movement })
        const op = winner.op
        if (op.type === "transfer") {
          add(balance, op.from, -(op.amount + op.fee))
          add(balance, op.to, op.amount)
          if (op.fee > 0n) add(balance, { owner: System.fees, currency: op.from.currency }, op.fee)
        } else if (op.type === "convert") {
          stats.converts++
          const house = (currency: string) => ({ owner: System.house, currency })
          add(balance, { owner: op.user, currency: op.pay.currency }, -(op.pay.amount + op.fee))
          add(balance, house(op.pay.currency), op.pay.amount)
          if (op.fee > 0n) add(balance, { owner: System.fees, currency: op.pay.currency }, op.fee)
          add(balance, house(op.receive.currency), -op.receive.amount)
          add(balance, { owner: op.user, currency: op.receive.currency }, op.receive.amount)
        } else if (op.type === "hold") {
          add(balance, op.from, -op.amount)
          add(held, op.from, op.amount)
          add(balance, { owner: System.holds, currency: op.from.currency }, op.amount)
          holds.set(movement.holdId!, { from: op.from, to: op.to, amount: op.amount, expiresAt: op.expiresAt, status: "pending" })
          holdIdByTag.set(op.tag, movement.holdId!)
        } else if (op.type === "post" || op.type === "void") {
          const hold = holds.get(movement.holdId!)!
          expect(hold.status).toBe("pending")
          resolvedHolds.set(movement.holdId!, (resolvedHolds.get(movement.holdId!) ?? 0) + 1)
          const posted = op.type === "post" ? (op.amount ?? hold.amount) : 0n
          hold.status = op.type === "post" ? "posted" : "voided"
          add(balance, { owner: System.holds, currency: hold.from.currency }, -hold.amount)
          const fee = op.type === "post" ? op.fee : 0n
          if (fee > 0n) stats.feePosts++
          add(balance, hold.to, posted - fee)
          add(balance, { owner: System.fees, currency: hold.from.currency }, fee)
          add(balance, hold.from, hold.amount - posted)
          add(held, hold.from, -hold.amount)
        }
      }
      // A hold changes state at most once, whoever raced for it.
      for (const [id, count] of resolvedHolds) expect(count, `hold ${id} resolutions`).toBe(1)
    }

    // Final state equals the model, and the audit is clean.
    for (const ref of accounts) {
      const actual = await run((l) => l.balance(ref))
      expect({ account: refKey(ref), available: actual.available, held: actual.held }).toEqual({
        account: refKey(ref),
        available: balance.get(refKey(ref)) ?? 0n,
        held: held.get(refKey(ref)) ?? 0n,
      })
    }
    for (const [id, hold] of holds) expect((await run((l) => l.getHold(id))).status, `hold ${id}`).toBe(hold.status)
    // The house was never allowed below zero (the model moves in key order, not commit order, so only the end is compared).
    for (const currency of CURRENCIES) expect((await run((l) => l.balance({ owner: System.house, currency: currency.code }))).available >= 0n).toBe(true)
    const report = await run((l) => l.audit)
    expect(report.violations).toEqual([])
    expect(report.ok).toBe(true)

    // The run exercised what it claims to.
    expect(stats.ops).toBeGreaterThanOrEqual(ROUNDS * OPS_PER_ROUND * 0.9)
    expect(stats.insufficient).toBeGreaterThan(0)
    expect(stats.conflicts).toBeGreaterThan(0)
    expect(stats.replays).toBeGreaterThan(0)
    expect(stats.notPending).toBeGreaterThan(0)
    expect(stats.expired).toBeGreaterThan(0)
    expect(stats.feePosts).toBeGreaterThan(0)
    expect(stats.invalid).toBeGreaterThan(0)
    expect(stats.converts).toBeGreaterThan(50)
    expect(report.counts.holds).toBeGreaterThan(100)

    // Sequential tail: the model predicts each outcome exactly.
    for (const ref of users("TON").slice(0, 4)) {
      const have = balance.get(refKey(ref))!
      const sink = { owner: System.withdrawals, currency: "TON" }
      const over = await db.run(
        Effect.exit(
          Effect.flatMap(Effect.service(Ledger), (l) => l.transfer({ key: `fuzz:tail:over:${ref.owner}`, legs: [{ from: ref, to: sink, amount: have + 1n }] })),
        ),
      )
      expect(Exit.isFailure(over)).toBe(true)
      await run((l) => l.transfer({ key: `fuzz:tail:all:${ref.owner}`, legs: [{ from: ref, to: sink, amount: have }] }))
      expect((await run((l) => l.balance(ref))).available).toBe(0n)
    }
    expect((await run((l) => l.audit)).ok).toBe(true)
    console.log(`ledger fuzz on ${label}: ${JSON.stringify(stats)}`)
  }, 180_000)
})
