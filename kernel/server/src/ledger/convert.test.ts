/**
 * `Ledger.convert` (decision 1100): one movement between a user and the house in two currencies, with an
 * optional fee; refused as a whole when either side is short; idempotent by key; checked by the audit.
 */
import { Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabases } from "../testing/databases.ts"
import { Ledger, type LedgerShape } from "./Ledger.ts"
import { System, userOwner, type AccountRef } from "./model.ts"
import { startTestLedger, type TestLedger } from "./testing.ts"

describe.each(testDatabases)("Ledger.convert on %s", (kind) => {
  let db: TestLedger
  let seq = 0
  const run = <A, E>(f: (ledger: LedgerShape) => Effect.Effect<A, E>) => db.run(Effect.flatMap(Effect.service(Ledger), f))
  const failure = async <A, E>(f: (ledger: LedgerShape) => Effect.Effect<A, E>) => {
    const result = await db.run(Effect.exit(Effect.flatMap(Effect.service(Ledger), f)))
    if (Exit.isSuccess(result)) throw new Error("expected a failure")
    const reason = result.cause.reasons[0]
    if (reason?._tag !== "Fail") throw new Error(`expected a typed failure, got ${String(result.cause)}`)
    return reason.error as E & { _tag: string }
  }
  const available = async (ref: AccountRef) => (await run((l) => l.balance(ref))).available
  const fund = (ref: AccountRef, amount: bigint) =>
    run((l) => l.transfer({ key: `test:fund:${++seq}`, legs: [{ from: { owner: System.deposits, currency: ref.currency }, to: ref, amount }] }))
  const house = (currency: string): AccountRef => ({ owner: System.house, currency })
  const newUser = async (usdt: bigint) => {
    const owner = userOwner(`conv-${++seq}`)
    for (const currency of ["USDT", "TON"]) await run((l) => l.openAccount({ owner, currency }))
    if (usdt > 0n) await fund({ owner, currency: "USDT" }, usdt)
    return owner
  }

  beforeAll(async () => {
    db = await startTestLedger(kind)
    await run((l) => l.defineCurrency({ code: "USDT", decimals: 6 }))
    await run((l) => l.defineCurrency({ code: "TON", decimals: 9 }))
    await fund(house("TON"), 10_000_000_000n)
  }, 120_000)
  afterAll(async () => {
    await db?.stop()
  })

  it("moves pay to the house, receive to the user and the fee to system:fees in one movement", async () => {
    const user = await newUser(100_000_000n)
    const houseUsdt = await available(house("USDT"))
    const fees = await available({ owner: System.fees, currency: "USDT" })
    const request = {
      key: `test:conv:${++seq}`,
      user,
      pay: { currency: "USDT", amount: 10_000_000n },
      receive: { currency: "TON", amount: 3_000_000_000n },
      fee: 50_000n,
      metadata: { gateway: "crypto_exchange", pair: "USDT/TON" },
    }
    const movement = await run((l) => l.convert(request))
    expect(movement.kind).toBe("convert")
    expect(movement.metadata).toEqual({ gateway: "crypto_exchange", pair: "USDT/TON" })
    expect(movement.entries).toEqual([
      { owner: user, currency: "USDT", amount: -10_000_000n },
      { owner: System.house, currency: "USDT", amount: 10_000_000n },
      { owner: System.house, currency: "TON", amount: -3_000_000_000n },
      { owner: user, currency: "TON", amount: 3_000_000_000n },
      { owner: user, currency: "USDT", amount: -50_000n },
      { owner: System.fees, currency: "USDT", amount: 50_000n },
    ])
    expect(await available({ owner: user, currency: "USDT" })).toBe(89_950_000n)
    expect(await available({ owner: user, currency: "TON" })).toBe(3_000_000_000n)
    expect(await available(house("USDT"))).toBe(houseUsdt + 10_000_000n)
    expect(await available({ owner: System.fees, currency: "USDT" })).toBe(fees + 50_000n)
    // The same key and body replays the first movement; another body under it conflicts.
    expect(await run((l) => l.convert(request))).toEqual(movement)
    expect((await failure((l) => l.convert({ ...request, receive: { currency: "TON", amount: 3_000_000_001n } })))._tag).toBe("IdempotencyConflict")
    expect(await available({ owner: user, currency: "TON" })).toBe(3_000_000_000n)
    expect((await run((l) => l.audit)).violations).toEqual([])
  })

  it("moves nothing when the user cannot pay or the house cannot cover the receive side", async () => {
    const user = await newUser(5_000_000n)
    const before = async () => [
      await available({ owner: user, currency: "USDT" }),
      await available({ owner: user, currency: "TON" }),
      await available(house("USDT")),
      await available(house("TON")),
    ]
    const start = await before()
    // The fee is on top of pay: 5 USDT + 0.01 USDT is more than the user has.
    const short = await failure((l) =>
      l.convert({ key: `test:conv:${++seq}`, user, pay: { currency: "USDT", amount: 5_000_000n }, receive: { currency: "TON", amount: 1n }, fee: 10_000n }),
    )
    expect(short).toMatchObject({ _tag: "InsufficientFunds", owner: user, currency: "USDT" })
    const houseTon = await available(house("TON"))
    const empty = await failure((l) =>
      l.convert({ key: `test:conv:${++seq}`, user, pay: { currency: "USDT", amount: 1_000_000n }, receive: { currency: "TON", amount: houseTon + 1n } }),
    )
    expect(empty).toMatchObject({ _tag: "InsufficientFunds", owner: System.house, currency: "TON" })
    expect(await before()).toEqual(start)
  })

  it("refuses malformed conversions", async () => {
    const user = await newUser(1_000_000n)
    const invalid = async (request: Parameters<LedgerShape["convert"]>[0]) => (await failure((l) => l.convert(request)))._tag
    const base = { key: `test:conv:${++seq}`, user, pay: { currency: "USDT", amount: 1n }, receive: { currency: "TON", amount: 1n } }
    expect(await invalid({ ...base, receive: { currency: "USDT", amount: 1n } })).toBe("InvalidMovement")
    expect(await invalid({ ...base, user: System.fees })).toBe("InvalidMovement")
    expect(await invalid({ ...base, pay: { currency: "USDT", amount: 0n } })).toBe("InvalidMovement")
    expect(await invalid({ ...base, fee: -1n })).toBe("InvalidMovement")
    expect(await invalid({ ...base, receive: { currency: "NOPE", amount: 1n } })).toBe("UnknownAccount")
  })

  it("never takes the house below zero under concurrent conversions", async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => newUser(50_000_000n)))
    const inventory = await available(house("TON"))
    const slice = inventory / 10n
    const results = await run((l) =>
      Effect.all(
        Array.from({ length: 30 }, (_, i) =>
          Effect.exit(
            l.convert({
              key: `test:race:${++seq}`,
              user: users[i % 6]!,
              pay: { currency: "USDT", amount: 1_000_000n },
              receive: { currency: "TON", amount: slice },
            }),
          ),
        ),
        { concurrency: "unbounded" },
      ),
    )
    expect(results.filter(Exit.isSuccess)).toHaveLength(10)
    expect(await available(house("TON"))).toBe(inventory - 10n * slice)
    expect((await run((l) => l.audit)).ok).toBe(true)
  })

  it("the audit reports a conversion of another shape", async () => {
    const user = await newUser(1_000_000n)
    // The race above emptied the house's TON.
    await fund(house("TON"), 1_000n)
    const movement = await run((l) =>
      l.convert({ key: `test:conv:${++seq}`, user, pay: { currency: "USDT", amount: 1_000n }, receive: { currency: "TON", amount: 1_000n } }),
    )
    const exec = (statement: string) => db.run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe(statement)))
    await exec(`update ledger_transactions set kind = 'transfer' where id = ${movement.transactionId}`)
    expect((await run((l) => l.audit)).ok).toBe(true)
    // A transfer relabelled a conversion: one currency only.
    const transfer = await fund({ owner: user, currency: "USDT" }, 5n)
    await exec(`update ledger_transactions set kind = 'convert' where id = ${transfer.transactionId}`)
    const report = await run((l) => l.audit)
    expect(report.checks.filter((check) => check.violations > 0).map((check) => check.name)).toEqual([
      "a conversion is one user and the house in two currencies",
    ])
    await exec(`update ledger_transactions set kind = 'transfer' where id = ${transfer.transactionId}`)
    await exec(`update ledger_transactions set kind = 'convert' where id = ${movement.transactionId}`)
    expect((await run((l) => l.audit)).ok).toBe(true)
  })
})
