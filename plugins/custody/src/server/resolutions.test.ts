/**
 * Approve and cancel in batches (docs/decisions/0405): statements per request, a batch with failing
 * members, the same transfer twice (one batch, two batches), cancel racing approve, one transaction per
 * resolution (decision 0407: a failing row update leaves the hold pending), and rows a server before
 * 0407 left new after its post or void, healed by a retry.
 */
import { Effect, Exit, Layer, ManagedRuntime, Tracer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Db, kernelModule, runMigrations, ServerConfig } from "@wallet/kernel-server"
import { Ledger, ledgerMigrationModule, userOwner } from "@wallet/kernel-server/ledger"
import { startTestDatabase, testDatabases, testServerConfig, type TestDatabase } from "@wallet/kernel-server/testing"
import { defineCustodyCurrencies } from "./ledgerSetup.ts"
import { custodyMigrations } from "./migrations.ts"
import {
  approveTransfer,
  approveTransfers,
  cancelTransfer,
  cancelTransfers,
  createTransfer,
  TransferApprovals,
  TransferCancels,
  TransferCreates,
  type ResolveTransferItem,
} from "./transfers.ts"

type Services = Ledger | SqlClient.SqlClient | ServerConfig | TransferCreates | TransferApprovals | TransferCancels

const clock = { now: Date.UTC(2026, 4, 6, 12, 0, 0) }
const DAY = 24 * 3_600_000
const ALICE = 8_500_000_001
const BOB = 8_500_000_002
const CAROL = 8_500_000_003
const EVE = 8_500_000_004

/** The error an Exit failed with (undefined for a success or a defect). */
const errorOf = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) && exit.cause.reasons[0]?._tag === "Fail" ? exit.cause.reasons[0].error : undefined

/**
 * Every round trip the SQL client makes, seen through its spans: a statement span carries its text;
 * a transaction span stands for its BEGIN (or SAVEPOINT) and its commit event for the COMMIT.
 */
const statementCounter = () => {
  const seen: Array<string> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = new Tracer.NativeSpan(options)
      if (options.name === "sql.transaction") seen.push("BEGIN")
      const attribute = span.attribute.bind(span)
      const event = span.event.bind(span)
      span.attribute = (key, value) => {
        if (key === "db.query.text") seen.push(String(value).replace(/\s+/g, " ").trim())
        attribute(key, value)
      }
      span.event = (name, startTime, attributes) => {
        if (name === "effect.sql.transaction.commit") seen.push("COMMIT")
        if (name === "effect.sql.transaction.rollback") seen.push("ROLLBACK")
        event(name, startTime, attributes)
      }
      return span
    },
  })
  return { seen, layer: Layer.succeed(Tracer.Tracer, tracer) }
}

describe.each(testDatabases)("custody approve and cancel batches on %s", (kind) => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
  const counter = statementCounter()
  const batches: Array<number> = []
  const run = <A, E>(effect: Effect.Effect<A, E, Services>) => runtime.runPromise(effect)
  const query = <A extends object>(statement: string, params: ReadonlyArray<unknown> = []) =>
    run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe<A>(statement, params)))

  const fund = (userId: number, amount: bigint, key: string) =>
    run(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const to = { owner: userOwner(userId), currency: "TON" }
        yield* ledger.openAccount(to)
        yield* ledger.transfer({ key, legs: [{ from: { owner: "system:deposits", currency: "TON" }, to, amount }] })
      }),
    )
  const balance = (userId: number) => run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.balance({ owner: userOwner(userId), currency: "TON" })))
  const send = (senderId: number, receiverId: number, nanos: number, key: string) =>
    run(createTransfer(senderId, { idempotencyKey: key, receiverId, currency: "TON", amount: `0.${String(nanos).padStart(9, "0")}` }))
  /** The Ledger movements that resolved a transfer's hold (post, void or expiry keys). */
  const resolutionsOf = async (id: string) =>
    (
      await query<{ idempotency_key: string }>(`select idempotency_key from ledger_transactions where idempotency_key = any($1::text[])`, [
        ["post", "void", "expire"].map((suffix) => `custody:tg:${id}:${suffix}`),
      ])
    ).map((row) => row.idempotency_key.split(":").pop())
  const rowsOf = (id: string) =>
    query<{ transfer: string; history: string }>(
      `select t.status as transfer, string_agg(h.status, ',' order by h.type) as history
         from custody_transfers t join custody_transactions h on h.transfer_id = t.id where t.id = $1::bigint group by t.status`,
      [id],
    )
  const restrict = (userId: number, code: string | null) => query(`update kernel_users set restriction_code = $2 where id = $1`, [userId, code])

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    const config = testServerConfig(() => clock.now)
    const base = Layer.mergeAll(Db.layer(database.options), config)
    const ledger = Ledger.layer.pipe(Layer.provideMerge(base))
    const queues = Layer.mergeAll(
      TransferCreates.layer,
      TransferApprovals.layerWith({ onBatch: (size) => batches.push(size) }),
      TransferCancels.layerWith({ onBatch: (size) => batches.push(size) }),
    )
    runtime = ManagedRuntime.make(queues.pipe(Layer.provideMerge(ledger), Layer.provideMerge(counter.layer)))
    await run(runMigrations([{ id: "kernel", migrations: kernelModule.migrations }, ledgerMigrationModule, { id: "custody", migrations: custodyMigrations }]))
    await run(defineCustodyCurrencies)
    await query(`insert into kernel_users (id, first_name, created_at, last_seen_at) select unnest($1::bigint[]), 'User', now(), now()`, [
      [ALICE, BOB, CAROL, EVE].map(String),
    ])
    await fund(ALICE, 1_000_000n, "test:fund:alice")
  }, 90_000)
  afterAll(async () => {
    await runtime?.dispose()
    await database?.stop()
  })
  afterEach(async () => {
    // The Ledger's invariants hold after every scenario.
    const audit = await run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.audit))
    expect(audit.violations).toEqual([])
  })

  it("approves and cancels in 8 round trips each (10 before), and a batch of 8 approvals costs 2 custody statements", async () => {
    const first = await send(ALICE, BOB, 1, "count-1")
    const second = await send(ALICE, BOB, 1, "count-2")
    counter.seen.length = 0
    expect((await run(approveTransfer(BOB, first.id))).tg_transfer_status).toBe("accepted")
    const approve = [...counter.seen]
    counter.seen.length = 0
    expect((await run(cancelTransfer(ALICE, second.id))).tg_transfer_status).toBe("canceled")
    const cancel = [...counter.seen]
    // One read of the row with both parties, the Ledger's transaction (BEGIN, holds, accounts, keys,
    // write, COMMIT), one update of the row and its history rows; no separate users or hold reads.
    for (const statements of [approve, cancel]) {
      expect(statements, statements.join("\n")).toHaveLength(8)
      expect(statements.filter((text) => text.includes("custody_") || text.includes("kernel_users"))).toHaveLength(2)
      expect(statements.filter((text) => text.includes("ledger_"))).toHaveLength(4)
      expect(statements.filter((text) => text.startsWith("select h.id::text as id"))).toEqual([]) // no getHold
    }

    const list = []
    for (let i = 0; i < 8; i++) list.push(await send(ALICE, BOB, 1, `count-many-${i}`))
    counter.seen.length = 0
    batches.length = 0
    const answers = await run(
      Effect.all(
        list.map((transfer) => approveTransfer(BOB, transfer.id)),
        { concurrency: "unbounded" },
      ),
    )
    expect(answers.map((answer) => answer.tg_transfer_status)).toEqual(list.map(() => "accepted"))
    expect(batches.reduce((a, b) => a + b, 0)).toBe(8)
    expect(Math.max(...batches)).toBeGreaterThan(1)
    // Two custody statements per batch, whatever its size (each request alone made 4: 32 for these 8).
    expect(counter.seen.filter((text) => text.includes("custody_"))).toHaveLength(2 * batches.length)
  })

  it("answers each member of a batch alone: the failing ones get their own error, the others commit", async () => {
    const ok1 = await send(ALICE, BOB, 10, "fail-ok-1")
    const ok2 = await send(ALICE, CAROL, 20, "fail-ok-2")
    const toEve = await send(ALICE, EVE, 30, "fail-restricted")
    const canceled = await send(ALICE, BOB, 40, "fail-canceled")
    await run(cancelTransfer(ALICE, canceled.id))
    await restrict(EVE, "FR_test")
    const before = { alice: await balance(ALICE), bob: await balance(BOB), carol: await balance(CAROL) }
    const items: Array<ResolveTransferItem> = [
      { userId: BOB, transferId: ok1.id },
      { userId: ALICE, transferId: ok2.id }, // the sender may not approve
      { userId: BOB, transferId: ok2.id }, // not a party
      { userId: BOB, transferId: "999999999" }, // no such transfer
      { userId: EVE, transferId: toEve.id }, // restricted receiver
      { userId: BOB, transferId: canceled.id }, // canceled before
      { userId: CAROL, transferId: ok2.id },
    ]
    const exits = await run(approveTransfers(items))
    expect(exits.map((exit) => (Exit.isSuccess(exit) ? exit.value.tg_transfer_status : (errorOf(exit) as { code?: string })?.code))).toEqual([
      "accepted",
      "wrong_transfer_role",
      "transfer_not_found",
      "transfer_not_found",
      "user_restricted",
      "transfer_not_pending",
      "accepted",
    ])
    expect(errorOf(exits[1]!)).toMatchObject({ _tag: "CustodyForbidden", message: "Only the receiver may approve this transfer" })
    expect(errorOf(exits[5]!)).toMatchObject({ _tag: "CustodyConflict", tgTransferStatus: "canceled" })
    expect(Exit.isSuccess(exits[0]!) && exits[0].value).toMatchObject({ id: ok1.id, role: "receiver", amount: "0.00000001" })
    expect(await balance(BOB)).toMatchObject({ available: before.bob.available + 10n })
    expect(await balance(CAROL)).toMatchObject({ available: before.carol.available + 20n })
    expect(await balance(ALICE)).toMatchObject({ available: before.alice.available, held: before.alice.held - 30n })
    expect(await resolutionsOf(toEve.id)).toEqual([])
    expect(await rowsOf(toEve.id)).toEqual([{ transfer: "new", history: "new,pending" }])
    expect(await rowsOf(ok1.id)).toEqual([{ transfer: "accepted", history: "success,success" }])
    await restrict(EVE, null)

    // Cancels: the receiver may not cancel; the sender's cancel returns the money.
    const cancels = await run(
      cancelTransfers([
        { userId: EVE, transferId: toEve.id },
        { userId: ALICE, transferId: toEve.id },
        { userId: ALICE, transferId: ok1.id },
      ]),
    )
    expect(cancels.map((exit) => (Exit.isSuccess(exit) ? exit.value.tg_transfer_status : (errorOf(exit) as { code?: string })?.code))).toEqual([
      "wrong_transfer_role",
      "canceled",
      "transfer_not_pending",
    ])
    expect(await balance(ALICE)).toMatchObject({ available: before.alice.available + 30n, held: before.alice.held - 60n })
    expect(await rowsOf(toEve.id)).toEqual([{ transfer: "canceled", history: "canceled,canceled" }])
  })

  it("moves money once for the same transfer approved twice in one batch, and answers both", async () => {
    const transfer = await send(ALICE, BOB, 7, "twice-one-batch")
    const bob = await balance(BOB)
    const exits = await run(
      approveTransfers([
        { userId: BOB, transferId: transfer.id },
        { userId: BOB, transferId: transfer.id },
      ]),
    )
    expect(exits.map((exit) => Exit.isSuccess(exit) && exit.value.tg_transfer_status)).toEqual(["accepted", "accepted"])
    expect(await resolutionsOf(transfer.id)).toEqual(["post"])
    expect(await balance(BOB)).toMatchObject({ available: bob.available + 7n })
    // A cancel and its repeat in one batch: one void; a later approve is refused.
    const other = await send(ALICE, BOB, 8, "twice-cancel")
    const canceled = await run(
      cancelTransfers([
        { userId: ALICE, transferId: other.id },
        { userId: ALICE, transferId: other.id },
      ]),
    )
    expect(canceled.map((exit) => Exit.isSuccess(exit) && exit.value.tg_transfer_status)).toEqual(["canceled", "canceled"])
    expect(await resolutionsOf(other.id)).toEqual(["void"])
    expect(errorOf((await run(approveTransfers([{ userId: BOB, transferId: other.id }])))[0]!)).toMatchObject({ tgTransferStatus: "canceled" })
  })

  it("moves money once for the same transfer approved concurrently in two batches", async () => {
    for (let round = 0; round < 4; round++) {
      const transfer = await send(ALICE, BOB, 3, `twice-two-batches-${round}`)
      const bob = await balance(BOB)
      const item = { userId: BOB, transferId: transfer.id }
      const [a, b] = await run(Effect.all([approveTransfers([item]), approveTransfers([item])], { concurrency: "unbounded" }))
      expect([a![0]!, b![0]!].map((exit) => Exit.isSuccess(exit) && exit.value.tg_transfer_status)).toEqual(["accepted", "accepted"])
      expect(await resolutionsOf(transfer.id)).toEqual(["post"])
      expect(await balance(BOB)).toMatchObject({ available: bob.available + 3n })
      expect(await rowsOf(transfer.id)).toEqual([{ transfer: "accepted", history: "success,success" }])
    }
  })

  it("lets exactly one of an approve batch and a cancel batch racing for one transfer win", async () => {
    for (let round = 0; round < 6; round++) {
      const transfer = await send(ALICE, BOB, 5, `race-${round}`)
      const other = await send(ALICE, BOB, 1, `race-${round}-other`)
      const before = { alice: await balance(ALICE), bob: await balance(BOB) }
      const [[approve], [cancel]] = await run(
        Effect.all(
          [
            approveTransfers([
              { userId: BOB, transferId: transfer.id },
              { userId: BOB, transferId: other.id },
            ]),
            cancelTransfers([{ userId: ALICE, transferId: transfer.id }]),
          ],
          { concurrency: "unbounded" },
        ),
      )
      const winners = [approve!, cancel!].filter(Exit.isSuccess)
      expect(winners).toHaveLength(1)
      const status = winners[0]!.value.tg_transfer_status
      const loser = [approve!, cancel!].find(Exit.isFailure)!
      expect(errorOf(loser)).toMatchObject({ code: "transfer_not_pending", tgTransferStatus: status })
      expect(await resolutionsOf(transfer.id)).toEqual([status === "accepted" ? "post" : "void"])
      expect(await rowsOf(transfer.id)).toEqual([{ transfer: status, history: status === "accepted" ? "success,success" : "canceled,canceled" }])
      const alice = await balance(ALICE)
      const bob = await balance(BOB)
      // The other transfer of the approve batch was accepted in every round (1 nano to Bob).
      expect(bob.available - before.bob.available).toBe(status === "accepted" ? 6n : 1n)
      expect(alice.available - before.alice.available).toBe(status === "accepted" ? 0n : 5n)
    }
  })

  it("is one transaction per resolution: when a row update fails, its post is rolled back and the others go on", async () => {
    const failing = await send(ALICE, BOB, 21, "atomic-1")
    const fine = await send(ALICE, BOB, 22, "atomic-2")
    await query(`create or replace function custody_test_refuse_update() returns trigger language plpgsql as $$
      begin if new.id = ${failing.id} and new.status <> 'new' then raise exception 'test: the row cannot move'; end if; return new; end $$`)
    await query(`create trigger custody_test_refuse_update before update on custody_transfers for each row execute function custody_test_refuse_update()`)
    const bob = await balance(BOB)
    try {
      const [refused, accepted] = await run(
        approveTransfers([
          { userId: BOB, transferId: failing.id },
          { userId: BOB, transferId: fine.id },
        ]),
      )
      expect(Exit.isFailure(refused!)).toBe(true)
      expect(Exit.isSuccess(accepted!) && accepted.value.tg_transfer_status).toBe("accepted")
    } finally {
      await query(`drop trigger custody_test_refuse_update on custody_transfers`)
    }
    // The refused approve moved no money and left its hold pending: it can be approved again.
    expect(await resolutionsOf(failing.id)).toEqual([])
    expect(await rowsOf(failing.id)).toEqual([{ transfer: "new", history: "new,pending" }])
    expect((await balance(BOB)).available - bob.available).toBe(22n)
    const [again] = await run(approveTransfers([{ userId: BOB, transferId: failing.id }]))
    expect(Exit.isSuccess(again!) && again.value.tg_transfer_status).toBe("accepted")
    expect(await rowsOf(failing.id)).toEqual([{ transfer: "accepted", history: "success,success" }])
  })

  it("heals rows a server before decision 0407 left new after its post or void, on a retry", async () => {
    const toBob = [await send(ALICE, BOB, 11, "legacy-1"), await send(ALICE, BOB, 12, "legacy-2")]
    const toCarol = await send(ALICE, CAROL, 13, "legacy-3")
    const toCancel = [await send(ALICE, BOB, 14, "legacy-4"), await send(ALICE, CAROL, 15, "legacy-5")]
    const approvals: Array<ResolveTransferItem> = [
      ...toBob.map((transfer) => ({ userId: BOB, transferId: transfer.id })),
      { userId: CAROL, transferId: toCarol.id },
    ]
    const cancels = toCancel.map((transfer) => ({ userId: ALICE, transferId: transfer.id }))
    // Such a server ran the Ledger step (these keys and metadata) and stopped before the rows.
    const ledgerStepOnly = (id: string, action: "post" | "void") =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const [row] = yield* Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
            sql.unsafe<{ hold_id: string }>(`select hold_id::text as hold_id from custody_transfers where id = $1::bigint`, [id]),
          )
          const request = { key: `custody:tg:${id}:${action}`, holdId: row!.hold_id, metadata: { gateway: "tg_transfer", transferId: id } }
          yield* action === "post" ? ledger.postHold(request) : ledger.voidHold(request)
        }),
      )
    for (const transfer of [...toBob, toCarol]) await ledgerStepOnly(transfer.id, "post")
    for (const transfer of toCancel) await ledgerStepOnly(transfer.id, "void")
    const moved = { alice: await balance(ALICE), bob: await balance(BOB), carol: await balance(CAROL) }
    for (const transfer of [...toBob, toCarol, ...toCancel]) expect(await rowsOf(transfer.id)).toEqual([{ transfer: "new", history: "new,pending" }])
    expect(await resolutionsOf(toCarol.id)).toEqual(["post"])

    // Carol was restricted meanwhile: her transfer was accepted before, so her retry answers it as it is.
    await restrict(CAROL, "FR_test")
    const again = await run(approveTransfers(approvals))
    const againCancels = await run(cancelTransfers(cancels))
    await restrict(CAROL, null)
    expect([...again, ...againCancels].map((exit) => Exit.isSuccess(exit) && exit.value.tg_transfer_status)).toEqual([
      "accepted",
      "accepted",
      "accepted",
      "canceled",
      "canceled",
    ])
    // Nothing moved twice.
    expect({ alice: await balance(ALICE), bob: await balance(BOB), carol: await balance(CAROL) }).toEqual(moved)
    for (const transfer of [...toBob, toCarol]) {
      expect(await resolutionsOf(transfer.id)).toEqual(["post"])
      expect(await rowsOf(transfer.id)).toEqual([{ transfer: "accepted", history: "success,success" }])
    }
    for (const transfer of toCancel) expect(await rowsOf(transfer.id)).toEqual([{ transfer: "canceled", history: "canceled,canceled" }])
  })

  it("expires a transfer past due instead of approving it, as the single path did", async () => {
    const transfer = await send(ALICE, BOB, 9, "late")
    const alice = await balance(ALICE)
    const saved = clock.now
    clock.now += 14 * DAY
    try {
      const [late, repeat] = await run(
        approveTransfers([
          { userId: BOB, transferId: transfer.id },
          { userId: BOB, transferId: transfer.id },
        ]),
      )
      for (const exit of [late!, repeat!]) expect(errorOf(exit)).toMatchObject({ code: "transfer_not_pending", tgTransferStatus: "expired" })
    } finally {
      clock.now = saved
    }
    expect(await resolutionsOf(transfer.id)).toEqual(["expire"])
    expect(await balance(ALICE)).toMatchObject({ available: alice.available + 9n, held: alice.held - 9n })
    expect(await rowsOf(transfer.id)).toEqual([{ transfer: "expired", history: "fail,fail" }])
  })
})
