/**
 * The watcher and the withdrawal processor over a scripted adapter, on PGlite and PostgreSQL with the
 * real Ledger: exactly-once credits under repeated and concurrent scans, every batch outcome (funding,
 * re-broadcast after a failed send, rejection, partial rejection, bounce, success) and the audit.
 */
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runMigrations } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { startTestLedger, type TestLedger } from "@wallet/kernel-server/ledger"
import { testDatabases } from "@wallet/kernel-server/testing"
import {
  ChainUnavailable,
  HotWalletLow,
  NetworkAdapters,
  type BatchStatus,
  type BroadcastResult,
  type FinalDeposit,
  type NetworkAdapter,
  type OrderResult,
} from "./adapter.ts"
import { ChainSettings, DEFAULT_FEES, type ChainSettingsShape } from "./config.ts"
import { createWithdraw, ensureDepositAddress, processNetworkOnce, watchNetworkOnce } from "./service.ts"
import { custodyMigrations } from "../migrations.ts"

const USDT = 1_000_000n
const FEE = DEFAULT_FEES.tron!.USDT!.fee

/** A tron adapter whose chain is a script the test edits. */
const scripted = () => {
  const script = {
    deposits: [] as Array<FinalDeposit>,
    hotLow: false,
    funded: 0,
    broadcast: [] as Array<BroadcastResult | "unavailable">,
    broadcasts: 0,
    outcome: new Map<string, OrderResult>(),
    prepared: [] as Array<string>,
  }
  const adapter: NetworkAdapter = {
    network: "tron",
    currencies: ["USDT"],
    maxBatch: 10,
    deriveDepositAddress: (userId) => Effect.succeed(`T-user-${userId}`),
    validateAddress: (input) => Effect.succeed({ address: input.trim(), domain: null }),
    canonical: (address) => address,
    systemAddresses: Effect.succeed(["T-hot"]),
    watchDeposits: () => Effect.succeed({ deposits: [...script.deposits], cursor: "1", addressCursors: new Map() }),
    prepareWithdrawals: (orders) =>
      script.hotLow
        ? Effect.fail(new HotWalletLow({ network: "tron", message: "low" }))
        : Effect.sync(() => {
            const ref = JSON.stringify(orders.map((order) => order.id))
            script.prepared.push(ref)
            return ref
          }),
    broadcast: () =>
      Effect.suspend(() => {
        script.broadcasts++
        const next = script.broadcast.shift() ?? { _tag: "Accepted", rejected: new Map() }
        return next === "unavailable" ? Effect.fail(new ChainUnavailable({ network: "tron", message: "down" })) : Effect.succeed(next)
      }),
    withdrawalStatus: (_ref, orders) =>
      Effect.sync((): BatchStatus => {
        const ids = orders.map((order) => order.id)
        if (!ids.every((id) => script.outcome.has(id))) return { _tag: "Pending" }
        return { _tag: "Final", results: new Map(ids.map((id) => [id, script.outcome.get(id)!])) }
      }),
    fundHotWallet: () =>
      Effect.sync(() => {
        script.funded++
        script.hotLow = false
      }),
  }
  return { script, adapter }
}

const settings = (overrides: Partial<ChainSettingsShape> = {}): ChainSettingsShape => ({
  enabled: true,
  masterSeed: Redacted.make(new Uint8Array(32)),
  pollMs: 10,
  globalId: -239,
  devnetUrl: "http://127.0.0.1:1",
  devFaucet: true,
  fees: DEFAULT_FEES,
  withdrawalsSuspended: [],
  tonJettons: {},
  expiryGraceSeconds: 30,
  ...overrides,
})

describe.each(testDatabases)("custody chain service on %s", (kind) => {
  let db: TestLedger
  const { script, adapter } = scripted()
  const services = Layer.mergeAll(Layer.succeed(NetworkAdapters, { tron: adapter }), Layer.succeed(ChainSettings, settings()))
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => db.run(Effect.provide(effect, services) as Effect.Effect<A, E, never>)
  let nextUser = 700

  beforeAll(async () => {
    db = await startTestLedger(kind)
    await db.run(runMigrations([{ id: "custody", migrations: custodyMigrations }]))
    await db.run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.defineCurrency({ code: "USDT", decimals: 6 })))
  }, 120_000)
  afterAll(async () => {
    await db?.stop()
  })

  const balance = (userId: number) => db.run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.balance({ owner: userOwner(userId), currency: "USDT" })))
  const systemBalance = (owner: string) => db.run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.balance({ owner, currency: "USDT" })))
  const status = (id: string) => db.run(Effect.orDie(selectStatus(id)))
  const selectStatus = (id: string) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{
        status: string
        failure_reason: string | null
      }>`select status, failure_reason from custody_chain_withdrawals where id = ${id}::bigint`
      return rows[0]!
    })
  const fundedUser = async (amount: bigint) => {
    const userId = nextUser++
    const address = await run(ensureDepositAddress(userId, adapter))
    script.deposits = [{ txHash: `fund-${userId}`, to: address, from: "T-outside", currency: "USDT", amount }]
    expect(await run(watchNetworkOnce(adapter))).toBe(1)
    script.deposits = []
    return userId
  }
  const request = (userId: number, amount: bigint, key: string, address = "T-receiver") =>
    run(createWithdraw(userId, { amount, currency: "USDT", max_value: false, address, network: "tron", idempotency_key: key }))
  const withdrawId = async (userId: number, amount: bigint, key: string, address?: string) => {
    const reply = await request(userId, amount, key, address)
    if (reply.kind !== "transaction") throw new Error("expected a transaction")
    return reply.transaction.id
  }

  it("credits a deposit once however often and concurrently it is seen", async () => {
    const userId = nextUser++
    const address = await run(ensureDepositAddress(userId, adapter))
    script.deposits = [
      { txHash: "tx-a", to: address, from: "T-outside", currency: "USDT", amount: 5n * USDT },
      { txHash: "tx-b", to: address, from: null, currency: "USDT", amount: 2n * USDT },
      { txHash: "tx-c", to: "T-nobody", from: null, currency: "USDT", amount: 9n * USDT },
    ]
    expect(await run(watchNetworkOnce(adapter))).toBe(2)
    expect(await run(watchNetworkOnce(adapter))).toBe(0)
    const parallel = await Promise.all([1, 2, 3, 4].map(() => run(watchNetworkOnce(adapter))))
    expect(parallel.reduce((a, b) => a + b, 0)).toBe(0)
    expect(await balance(userId)).toEqual({ owner: userOwner(userId), currency: "USDT", available: 7n * USDT, held: 0n })
    script.deposits = []
  })

  it("holds amount and fee; funds the hot wallet first; posts when final", async () => {
    const userId = await fundedUser(20n * USDT)
    const id = await withdrawId(userId, 10n * USDT, "key-success-1")
    expect(await balance(userId)).toMatchObject({ available: 10n * USDT - FEE, held: 10n * USDT + FEE })
    script.hotLow = true
    await run(processNetworkOnce(adapter))
    expect(script.funded).toBe(1)
    expect((await status(id)).status).toBe("pending")
    await run(processNetworkOnce(adapter))
    expect((await status(id)).status).toBe("processing")
    await run(processNetworkOnce(adapter))
    expect((await status(id)).status).toBe("processing")
    script.outcome.set(id, { ok: true, txHash: "tx-out", reason: null })
    await run(processNetworkOnce(adapter))
    expect((await status(id)).status).toBe("success")
    expect(await balance(userId)).toMatchObject({ available: 10n * USDT - FEE, held: 0n })
    expect((await systemBalance(System.fees)).available).toBeGreaterThanOrEqual(FEE)
    expect((await db.run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.audit))).ok).toBe(true)
  })

  it("re-broadcasts the stored batch after a failed send", async () => {
    const userId = await fundedUser(20n * USDT)
    const id = await withdrawId(userId, 6n * USDT, "key-retry-1")
    const before = script.prepared.length
    script.broadcast.push("unavailable")
    await run(Effect.exit(processNetworkOnce(adapter)))
    expect((await status(id)).status).toBe("pending")
    await run(processNetworkOnce(adapter))
    expect((await status(id)).status).toBe("processing")
    // One signed batch, sent twice.
    expect(script.prepared.length).toBe(before + 1)
    script.outcome.set(id, { ok: true, txHash: "tx-retry", reason: null })
    await run(processNetworkOnce(adapter))
    expect((await status(id)).status).toBe("success")
  })

  it("voids rejected, partly rejected and bounced withdrawals and returns the money", async () => {
    const userId = await fundedUser(40n * USDT)
    const rejected = await withdrawId(userId, 5n * USDT, "key-rejected")
    script.broadcast.push({ _tag: "Rejected", reason: "bad message" })
    await run(processNetworkOnce(adapter))
    expect(await status(rejected)).toEqual({ status: "fail", failure_reason: "rejected: bad message" })
    expect(await balance(userId)).toMatchObject({ available: 40n * USDT, held: 0n })

    const keep = await withdrawId(userId, 5n * USDT, "key-keep", "T-receiver-1")
    const drop = await withdrawId(userId, 7n * USDT, "key-drop", "T-receiver-2")
    script.broadcast.push({ _tag: "Accepted", rejected: new Map([[drop, "no such account"]]) })
    await run(processNetworkOnce(adapter))
    expect((await status(drop)).status).toBe("fail")
    expect((await status(keep)).status).toBe("processing")
    script.outcome.set(keep, { ok: false, txHash: "tx-bounce", reason: "the receiver bounced the transfer" })
    await run(processNetworkOnce(adapter))
    expect(await status(keep)).toEqual({ status: "fail", failure_reason: "the receiver bounced the transfer" })
    expect(await balance(userId)).toMatchObject({ available: 40n * USDT, held: 0n })
    expect((await db.run(Effect.flatMap(Effect.service(Ledger), (ledger) => ledger.audit))).ok).toBe(true)
  })

  it("answers retries with the first withdrawal, refuses what the balance cannot cover, and pauses with a banner", async () => {
    const userId = await fundedUser(10n * USDT)
    const replies = await Promise.all([1, 2, 3, 4, 5].map(() => request(userId, 5n * USDT, "key-same")))
    const ids = new Set(replies.map((reply) => (reply.kind === "transaction" ? reply.transaction.id : "banner")))
    expect(ids.size).toBe(1)
    expect(await balance(userId)).toMatchObject({ held: 5n * USDT + FEE })
    const conflict = await run(
      Effect.flip(
        createWithdraw(userId, { amount: 4n * USDT, currency: "USDT", max_value: false, address: "T-receiver", network: "tron", idempotency_key: "key-same" }),
      ),
    )
    expect(conflict).toMatchObject({ _tag: "ChainRequestError", code: "idempotency_conflict" })
    const tooMuch = await run(
      Effect.flip(
        createWithdraw(userId, { amount: 9n * USDT, currency: "USDT", max_value: false, address: "T-receiver", network: "tron", idempotency_key: "key-big" }),
      ),
    )
    expect(tooMuch).toMatchObject({ code: "insufficient_funds" })
    const own = await run(
      Effect.flip(
        createWithdraw(userId, {
          amount: USDT * 5n,
          currency: "USDT",
          max_value: false,
          address: `T-user-${userId}`,
          network: "tron",
          idempotency_key: "key-own",
        }),
      ),
    )
    expect(own).toMatchObject({ _tag: "AddressCheckError", code: "withdraw_to_yourself_is_forbidden" })
    const hot = await run(
      Effect.flip(
        createWithdraw(userId, { amount: USDT * 5n, currency: "USDT", max_value: false, address: "T-hot", network: "tron", idempotency_key: "key-hot" }),
      ),
    )
    expect(hot).toMatchObject({ code: "address_forbidden" })
    const paused = await db.run(
      Effect.provide(
        createWithdraw(userId, {
          amount: 5n * USDT,
          currency: "USDT",
          max_value: false,
          address: "T-receiver",
          network: "tron",
          idempotency_key: "key-paused",
        }),
        Layer.mergeAll(Layer.succeed(NetworkAdapters, { tron: adapter }), Layer.succeed(ChainSettings, settings({ withdrawalsSuspended: ["tron"] }))),
      ) as Effect.Effect<unknown, unknown, never>,
    )
    expect(paused).toMatchObject({ kind: "alerting_banner", alerting_banner: { code: "withdrawals_suspended" } })
    expect(await balance(userId)).toMatchObject({ held: 5n * USDT + FEE })
  })
})
