/**
 * A caller's writes in the Ledger's transaction (decision 0407): they commit with the movements the batch
 * made, once per batch, never for a replay, and a failing write rolls back its movement alone.
 */
import { Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabases } from "../testing/databases.ts"
import { Ledger, type LedgerShape } from "./Ledger.ts"
import { along, System, userOwner, type AccountRef, type AlongGroup } from "./model.ts"
import { startTestLedger, type TestLedger } from "./testing.ts"

const ton = (owner: string): AccountRef => ({ owner, currency: "TON" })

describe.each(testDatabases)("writes along with Ledger movements on %s", (kind) => {
  let db: TestLedger
  let seq = 0
  const run = <A, E>(f: (ledger: LedgerShape, sql: SqlClient.SqlClient) => Effect.Effect<A, E, SqlClient.SqlClient>) =>
    db.run(Effect.flatMap(Effect.all([Effect.service(Ledger), Effect.service(SqlClient.SqlClient)]), ([ledger, sql]) => f(ledger, sql)))
  const rows = () =>
    run((_, sql) => sql<{ tag: string; hold_id: string }>`select tag, hold_id::text as hold_id from along_rows order by tag`).then((list) => [...list])
  const calls: Array<number> = []
  /** Inserts one row per made movement; a tag starting with "bad" violates the table's check. */
  const group: AlongGroup<{ readonly tag: string }> = {
    name: "test rows",
    write: (made) =>
      Effect.gen(function* () {
        calls.push(made.length)
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(`insert into along_rows (tag, hold_id) select * from unnest($1::text[], $2::bigint[])`, [
          made.map((m) => m.item.tag),
          made.map((m) => m.movement.holdId!),
        ])
      }),
  }
  const funded = async (amount: bigint) => {
    const ref = ton(userOwner(`along-${++seq}`))
    await run((l) => l.openAccount(ref))
    if (amount > 0n) await run((l) => l.transfer({ key: `along:fund:${seq}`, legs: [{ from: ton(System.deposits), to: ref, amount }] }))
    return ref
  }

  beforeAll(async () => {
    db = await startTestLedger(kind)
    await run((l) => l.defineCurrency({ code: "TON", decimals: 9 }))
    await run((_, sql) => sql`create table along_rows (tag text primary key check (tag not like 'bad%'), hold_id bigint not null)`)
  }, 120_000)
  afterAll(async () => {
    await db?.stop()
  })

  it("commits the writes of concurrent movements with them, in as many calls as batches, and none for a replay", async () => {
    const from = await funded(1_000n)
    const to = await funded(0n)
    calls.length = 0
    const holds = await run((l) =>
      Effect.all(
        ["a", "b", "c", "d", "e", "f"].map((tag) => l.hold({ key: `along:hold:${tag}`, from, to, amount: 10n, along: along(group, { tag }) })),
        { concurrency: "unbounded" },
      ),
    )
    expect(await rows()).toEqual(["a", "b", "c", "d", "e", "f"].map((tag, i) => ({ tag, hold_id: holds[i]!.holdId })))
    expect(calls.reduce((a, b) => a + b, 0)).toBe(6)
    expect(calls.length).toBeLessThan(6)

    // The same key again replays the movement and writes nothing (a second insert would fail the primary key).
    const again = await run((l) => l.hold({ key: "along:hold:a", from, to, amount: 10n, along: along(group, { tag: "a" }) }))
    expect(again.holdId).toBe(holds[0]!.holdId)
    expect(calls.reduce((a, b) => a + b, 0)).toBe(6)
    expect((await run((l) => l.audit)).ok).toBe(true)
  })

  it("rolls back a movement whose write fails, and only that one", async () => {
    const from = await funded(1_000n)
    const to = await funded(0n)
    const before = (await run((l) => l.balance(from))).available
    const outcomes = await run((l) =>
      Effect.all(
        ["g", "bad-h", "i"].map((tag) => Effect.exit(l.hold({ key: `along:hold:${tag}`, from, to, amount: 100n, along: along(group, { tag }) }))),
        { concurrency: "unbounded" },
      ),
    )
    expect(outcomes.map((exit) => Exit.isSuccess(exit))).toEqual([true, false, true])
    const failure = outcomes[1]!
    expect(Exit.isFailure(failure) && failure.cause.reasons[0]?._tag === "Fail" ? (failure.cause.reasons[0].error as { _tag: string })._tag : "").toBe(
      "SqlError",
    )
    // Its hold was never placed: no movement under its key, the money stays available.
    expect(await run((l) => l.movement("along:hold:bad-h"))).toBeUndefined()
    expect((await run((l) => l.balance(from))).available).toBe(before - 200n)
    expect((await rows()).map((row) => row.tag)).toEqual(expect.arrayContaining(["g", "i"]))
    expect((await rows()).some((row) => row.tag.startsWith("bad"))).toBe(false)
    expect((await run((l) => l.audit)).ok).toBe(true)
  })

  it("calls a write again when its batch runs again: only the call naming the answered movement committed", async () => {
    const from = await funded(1_000n)
    const to = await funded(0n)
    const seen = new Map<string, Array<string>>()
    const recording: AlongGroup<{ readonly tag: string }> = {
      name: "recording rows",
      write: (made) =>
        Effect.gen(function* () {
          for (const m of made) seen.set(m.item.tag, [...(seen.get(m.item.tag) ?? []), m.movement.holdId!])
          yield* group.write(made)
        }),
    }
    // "bad" fails its batch's write; the Ledger rolls that batch back and runs each movement alone. Which
    // movements share its batch depends on timing, so rounds repeat until one did (the first, in practice).
    let again = 0
    for (let round = 0; round < 10 && again === 0; round++) {
      const tags = [1, 2, 3, 4].map((n) => `j${round}-${n}`)
      const outcomes = await run((l) =>
        Effect.all(
          [...tags, `bad-${round}`].map((tag) => Effect.exit(l.hold({ key: `along:hold:${tag}`, from, to, amount: 10n, along: along(recording, { tag }) }))),
          { concurrency: "unbounded" },
        ),
      )
      for (const [n, tag] of tags.entries()) {
        const kept = outcomes[n]!
        if (!Exit.isSuccess(kept)) throw new Error(`expected the hold of ${tag} to commit`)
        const recorded = seen.get(tag)!
        expect(recorded.at(-1)).toBe(kept.value.holdId)
        // Any earlier call named a hold of an attempt that rolled back: it does not exist.
        for (const holdId of recorded.slice(0, -1)) {
          again++
          expect(holdId).not.toBe(kept.value.holdId)
          expect((await run((_, sql) => sql<{ n: number }>`select count(*)::int as n from ledger_holds where id = ${holdId}::bigint`))[0]!.n).toBe(0)
        }
        expect((await rows()).filter((row) => row.tag === tag)).toEqual([{ tag, hold_id: kept.value.holdId }])
      }
    }
    expect(again).toBeGreaterThan(0)
  })

  it("inside a caller's transaction, rolls back with it", async () => {
    const from = await funded(1_000n)
    const to = await funded(0n)
    const result = await run((l, sql) =>
      Effect.exit(
        sql.withTransaction(
          Effect.andThen(
            l.hold({ key: "along:hold:inner", from, to, amount: 50n, along: along(group, { tag: "inner" }) }),
            Effect.fail("caller gave up" as const),
          ),
        ),
      ),
    )
    expect(Exit.isFailure(result)).toBe(true)
    expect(await run((l) => l.movement("along:hold:inner"))).toBeUndefined()
    expect((await rows()).some((row) => row.tag === "inner")).toBe(false)
    expect((await run((l) => l.balance(from))).available).toBe(1_000n)
  })
})
