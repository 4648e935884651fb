/**
 * The batch path of transfer creation (docs/decisions/0403): many creations in one
 * `createTransfers` call (and through the `TransferCreates` queue), one of them failing.
 */
import { Effect, Exit, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Db, kernelModule, runMigrations, ServerConfig } from "@wallet/kernel-server"
import { Ledger, ledgerMigrationModule, userOwner } from "@wallet/kernel-server/ledger"
import { startTestDatabase, testDatabases, testServerConfig, type TestDatabase } from "@wallet/kernel-server/testing"
import { defineCustodyCurrencies } from "./ledgerSetup.ts"
import { custodyMigrations } from "./migrations.ts"
import { recordTransaction } from "./history.ts"
import { syncUserHistory } from "./ledgerSync.ts"
import { createTransfer, createTransfers, holdKey, repairOrphanHolds, TransferCreates, type CreateTransferItem } from "./transfers.ts"

type Services = Ledger | SqlClient.SqlClient | ServerConfig | TransferCreates

const clock = { now: Date.UTC(2026, 4, 6, 12, 0, 0) }
const ALICE = 8_300_000_001
const BOB = 8_300_000_002
const CAROL = 8_300_000_003
const POOR = 8_300_000_004

describe.each(testDatabases)("custody transfer batches on %s", (kind) => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
  const batches: Array<number> = []
  const run = <A, E>(effect: Effect.Effect<A, E, Services>) => runtime.runPromise(effect)

  const balance = (userId: number) => run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.balance({ owner: userOwner(userId), currency: "TON" })))
  const fund = (userId: number, amount: bigint) =>
    run(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const to = { owner: userOwner(userId), currency: "TON" }
        yield* ledger.openAccount(to)
        yield* ledger.transfer({ key: `test:fund:${userId}:${amount}`, legs: [{ from: { owner: "system:deposits", currency: "TON" }, to, amount }] })
      }),
    )
  const item = (senderId: number, receiverId: number, amount: string, key: string): CreateTransferItem => ({
    senderId,
    request: { idempotencyKey: key, receiverId, currency: "TON", amount },
  })

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    const config = testServerConfig(() => clock.now)
    const base = Layer.mergeAll(Db.layer(database.options), config)
    const ledger = Ledger.layer.pipe(Layer.provideMerge(base))
    runtime = ManagedRuntime.make(TransferCreates.layerWith({ onBatch: (size) => batches.push(size) }).pipe(Layer.provideMerge(ledger)))
    await run(runMigrations([{ id: "kernel", migrations: kernelModule.migrations }, ledgerMigrationModule, { id: "custody", migrations: custodyMigrations }]))
    await run(defineCustodyCurrencies)
    await run(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
        sql.unsafe(`insert into kernel_users (id, first_name, created_at, last_seen_at) select unnest($1::bigint[]), 'User', now(), now()`, [
          [ALICE, BOB, CAROL, POOR].map(String),
        ]),
      ),
    )
    await fund(ALICE, 100n)
    await fund(BOB, 100n)
    await fund(POOR, 5n)
  }, 90_000)
  afterAll(async () => {
    await runtime?.dispose()
    await database?.stop()
  })

  it("commits every member but the failing one, which gets its own error; a retry returns the first result", async () => {
    const list = [
      item(ALICE, BOB, "0.000000001", "batch-a-1"),
      item(POOR, BOB, "0.000000006", "batch-poor-1"), // 6 nano TON from 5: insufficient funds
      item(BOB, CAROL, "0.000000002", "batch-b-1"),
      item(ALICE, CAROL, "0.000000003", "batch-a-2"),
      item(ALICE, BOB, "0.000000001", "batch-a-1"), // the same key and body twice in one batch: one transfer
    ]
    const exits = await run(createTransfers(list))
    expect(exits.map((exit) => exit._tag)).toEqual(["Success", "Failure", "Success", "Success", "Success"])
    const failure = exits[1]!
    expect(Exit.isFailure(failure) && failure.cause.reasons[0]?._tag === "Fail" ? failure.cause.reasons[0].error : undefined).toMatchObject({
      _tag: "CustodyConflict",
      code: "insufficient_funds",
      available: "0.000000005",
    })
    const ok = exits.flatMap((exit) => (Exit.isSuccess(exit) ? [exit.value] : []))
    expect(ok[0]!.id).toBe(ok[3]!.id)
    expect(new Set(ok.map((transfer) => transfer.id)).size).toBe(3)
    expect(await balance(ALICE)).toMatchObject({ available: 96n, held: 4n })
    expect(await balance(BOB)).toMatchObject({ available: 98n, held: 2n })
    expect(await balance(POOR)).toMatchObject({ available: 5n, held: 0n })

    // A retry of the whole batch: the same transfers, nothing moves again; the failed one fails again.
    const again = await run(createTransfers(list))
    expect(again.map((exit) => (Exit.isSuccess(exit) ? exit.value.id : exit._tag))).toEqual([ok[0]!.id, "Failure", ok[1]!.id, ok[2]!.id, ok[0]!.id])
    expect(await balance(ALICE)).toMatchObject({ available: 96n, held: 4n })
    // Another body under a used key conflicts; the failed key works once funded (it stored nothing).
    const [conflict] = await run(createTransfers([item(ALICE, BOB, "0.000000009", "batch-a-1")]))
    expect(Exit.isFailure(conflict!) && conflict.cause.reasons[0]?._tag === "Fail" ? conflict.cause.reasons[0].error : undefined).toMatchObject({
      code: "idempotency_conflict",
    })
    await fund(POOR, 100n)
    const [funded] = await run(createTransfers([list[1]!]))
    expect(funded!._tag).toBe("Success")
    const rows = await run(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
        sql.unsafe<{ n: number }>(`select count(*)::int as n from custody_transactions where ledger_key like 'custody:tg:%:batch-%'`),
      ),
    )
    expect(rows[0]!.n).toBe(8) // four transfers, two history rows each
  })

  it("gathers concurrent creations into shared batches through the queue, each answered alone", async () => {
    batches.length = 0
    const keys = Array.from({ length: 40 }, (_, i) => `queued-${i}`)
    const exits = await run(
      Effect.all(
        keys.map((key, i) =>
          Effect.exit(
            createTransfer(i === 7 ? POOR : BOB, {
              idempotencyKey: key,
              receiverId: i === 7 ? ALICE : CAROL,
              currency: "TON",
              amount: i === 7 ? "1" : "0.000000001",
            }),
          ),
        ),
        { concurrency: "unbounded" },
      ),
    )
    expect(exits.filter(Exit.isSuccess)).toHaveLength(39)
    expect(exits[7]!._tag).toBe("Failure")
    expect(batches.reduce((a, b) => a + b, 0)).toBe(40)
    expect(Math.max(...batches)).toBeGreaterThan(1)
    const audit = await run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.audit))
    expect(audit.ok).toBe(true)
  })

  it("rebuilds the rows of a hold placed without them, found through Ledger.pendingHolds", async () => {
    const orphan = await run(
      Effect.flatMap(Effect.service(Ledger), (ledger) =>
        ledger.hold({
          key: `custody:tg:${ALICE}:orphan-key-1`,
          from: { owner: userOwner(ALICE), currency: "TON" },
          to: { owner: userOwner(CAROL), currency: "TON" },
          amount: 7n,
          expiresAt: new Date(clock.now + 14 * 24 * 3_600_000),
          metadata: { gateway: "tg_transfer", receiverId: CAROL, requestHash: "h", comment: "lost" },
        }),
      ),
    )
    expect(await run(repairOrphanHolds(0))).toBe(1)
    expect(await run(repairOrphanHolds(0))).toBe(0)
    const rows = await run(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
        sql.unsafe<{ hold_id: string; amount: string; comment: string; receiver_id: string }>(
          `select hold_id, amount::text as amount, comment, receiver_id::text as receiver_id from custody_transfers where idempotency_key = 'orphan-key-1'`,
        ),
      ),
    )
    expect(rows).toEqual([{ hold_id: orphan.holdId, amount: "7", comment: "lost", receiver_id: String(CAROL) }])
  })

  // Issue #15 case 5 (docs/decisions/0801): the hold step alone, as when the process stops before the rows.
  const placeAlone = (key: string, amount: bigint) =>
    run(
      Effect.flatMap(Effect.service(Ledger), (ledger) =>
        ledger.hold({
          key: holdKey(ALICE, key),
          from: { owner: userOwner(ALICE), currency: "TON" },
          to: { owner: userOwner(BOB), currency: "TON" },
          amount,
          expiresAt: new Date(clock.now + 14 * 24 * 3_600_000),
          metadata: { gateway: "tg_transfer", receiverId: BOB, requestHash: `hash-${key}`, comment: null },
        }),
      ),
    )
  const historyRow = (userId: number, key: string) =>
    run(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
        sql.unsafe<{ transfer_id: string | null; status: string; counterparty_id: string | null; created_at: Date }>(
          `select transfer_id::text as transfer_id, status, counterparty_id::text as counterparty_id, created_at from custody_transactions where user_id = $1 and ledger_key = $2`,
          [userId, holdKey(ALICE, key)],
        ),
      ),
    )
  const transferOf = (key: string) =>
    run(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
        sql.unsafe<{ id: string; hold_id: string; created_at: Date }>(
          `select id::text as id, hold_id, created_at from custody_transfers where sender_id = $1 and idempotency_key = $2`,
          [ALICE, key],
        ),
      ),
    )

  it("case 5: the sender's history sync links a hold whose rows were never written (no request, no repair yet)", async () => {
    const hold = await placeAlone("case5-sync", 2n)
    await run(syncUserHistory(ALICE))
    const [transfer] = await transferOf("case5-sync")
    expect(transfer).toMatchObject({ hold_id: hold.holdId })
    // The creation time is the request's (the hold's expiry minus 14 days), as the creation writes it.
    expect(new Date(transfer!.created_at).getTime()).toBe(clock.now)
    expect(await historyRow(ALICE, "case5-sync")).toEqual([
      expect.objectContaining({ transfer_id: transfer!.id, status: "pending", counterparty_id: String(BOB) }),
    ])
    expect(await historyRow(BOB, "case5-sync")).toEqual([expect.objectContaining({ transfer_id: transfer!.id, status: "new", counterparty_id: String(ALICE) })])
    expect(await run(repairOrphanHolds(0))).toBe(0)
  })

  it("case 5: a plain row an older server imported gets its link from the repair and from the migration", async () => {
    // An older sync imported the hold entry as a plain row (no link) before any rows existed.
    const plain = (key: string, holdId: string) =>
      run(
        recordTransaction({
          userId: ALICE,
          type: "withdraw",
          gateway: "tg_transfer",
          currency: "TON",
          amount: 3n,
          status: "pending",
          ledgerKey: holdKey(ALICE, key),
          createdAt: new Date(clock.now),
          details: { holdId },
        }),
      )
    const repaired = await placeAlone("case5-repair", 3n)
    await plain("case5-repair", repaired.holdId!)
    expect(await run(repairOrphanHolds(0))).toBe(1)
    const [transfer] = await transferOf("case5-repair")
    expect(await historyRow(ALICE, "case5-repair")).toEqual([
      expect.objectContaining({ transfer_id: transfer!.id, status: "pending", counterparty_id: String(BOB) }),
    ])

    // Rows that already lost their link (written by an older server) get it from migration 1005.
    const migrated = await placeAlone("case5-migrated", 3n)
    await plain("case5-migrated", migrated.holdId!)
    await run(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
        sql.unsafe(
          `insert into custody_transfers (sender_id, receiver_id, currency, amount, comment, idempotency_key, request_hash, hold_id, status, created_at, expires_at)
           values ($1, $2, 'TON', 3, null, 'case5-migrated', 'hash-case5-migrated', $3, 'canceled', now(), now())`,
          [ALICE, BOB, migrated.holdId],
        ),
      ),
    )
    expect(await historyRow(ALICE, "case5-migrated")).toEqual([expect.objectContaining({ transfer_id: null })])
    await run(custodyMigrations.find((migration) => migration.id === 1005)!.up)
    const [fixed] = await transferOf("case5-migrated")
    expect(await historyRow(ALICE, "case5-migrated")).toEqual([
      expect.objectContaining({ transfer_id: fixed!.id, status: "canceled", counterparty_id: String(BOB) }),
    ])
  })
})
