/**
 * Decision 0920: withdrawals to outside addresses stay within the user's verification allowance
 * (the kernel's VerificationLimits port; the kyc plugin implements it). Here a stub module provides
 * the port with a fixed allowance per user, so the test checks custody's side: the 30-day sum in
 * USD, refusals that hold nothing, failed withdrawals not counted, and concurrent requests that
 * cannot both use the same room.
 */
import { randomUUID } from "node:crypto"
import { Address } from "@ton/core"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { defineServerPlugin, signInitData, startServer, VerificationLimits, type RunningServer } from "@wallet/kernel-server"
import { Chain } from "@wallet/kernel-server/chain"
import { startTestDatabase, testDatabases, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { probePlugin } from "./testSupport.ts"

vi.setConfig({ testTimeout: 60_000 })

const BOT_TOKEN = "1234567:verification-limits-test"
const NO_CHAIN = "http://127.0.0.1:9"
const OUTSIDE = Address.parseRaw(`0:${"6b".repeat(32)}`).toString({ bounceable: false })
/** $100 over 30 days for every user of this test; user ids ending in 0 have no limit. */
const LIMIT_CENTS = 10_000n

const limitsStub = defineServerPlugin({
  id: "limits-stub",
  verificationLimits: Layer.succeed(VerificationLimits, {
    allowance: (userId) =>
      Effect.succeed(
        userId % 10 === 0
          ? { level: "LEVEL_4", limitUsdCents: null, windowDays: 30, nextLevel: null }
          : { level: "LEVEL_0", limitUsdCents: LIMIT_CENTS, windowDays: 30, nextLevel: "LEVEL_1" },
      ),
  }),
})

let nextId = 8_600_000_001

describe.each(testDatabases)("verification limits on custody withdrawals (%s)", (kind) => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      chain: Chain.layer({ baseUrl: NO_CHAIN }),
      chainApiUrl: NO_CHAIN,
      plugins: [serverPlugin, probePlugin, limitsStub],
      pluginConfig: { custody: { rates: { seed: 7 }, chain: { masterSeed: "verification-limits-seed", pollMs: 600_000, devnetUrl: NO_CHAIN } } },
    })
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const call = async (method: string, path: string, body?: unknown, authorization?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(authorization ? { authorization } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }

  /** A signed-in user funded with `usdt` whole USDT (on TRON the fee is small and fixed). */
  const fundedUser = async (usdt: number, id = nextId++) => {
    const initData = signInitData(
      { user: { id, first_name: "Lim", language_code: "en" }, authDate: new Date(), queryId: randomUUID(), chatType: "sender" },
      BOT_TOKEN,
    )
    const auth = await call("POST", "/api/auth/init", undefined, `tma ${initData}`)
    expect(auth.status).toBe(200)
    const funded = await call("POST", "/api/custody-probe/fund", { userId: id, currency: "TON", amount: String(usdt), key: `fund:${randomUUID()}` })
    expect(funded.status, JSON.stringify(funded.body)).toBe(200)
    return { id, authorization: `Bearer ${auth.body.access_token}` }
  }
  /** A TON withdrawal of `nano` nanotons to an outside address. */
  const withdraw = (user: { authorization: string }, nano: bigint) =>
    call(
      "POST",
      "/api/custody/withdrawals",
      { amount: nano.toString(), currency: "TON", max_value: false, address: OUTSIDE, network: "ton", idempotency_key: randomUUID() },
      user.authorization,
    )
  const withdrawals = async (userId: number) =>
    (await server.sql("select usd_cents::text as usd, status from custody_chain_withdrawals where user_id = $1 order by id", [userId])) as Array<{
      usd: string | null
      status: string
    }>

  it("keeps each withdrawal's USD value and refuses the one that would pass the level's 30-day limit, holding nothing", async () => {
    const user = await fundedUser(10_000)
    // Small withdrawals until the next one would not fit.
    const first = await withdraw(user, 1_000_000_000n)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const [row] = await withdrawals(user.id)
    const perTon = BigInt(row!.usd!)
    expect(perTon).toBeGreaterThan(0n)
    const room = LIMIT_CENTS - perTon
    const fits = (room / perTon) * 1_000_000_000n
    if (fits > 0n) expect((await withdraw(user, fits)).status).toBe(200)
    const balance = async () => (await call("GET", `/api/custody-probe/balance/${user.id}/TON`)).body as { available: string; held: string }
    const before = await balance()
    const refused = await withdraw(user, 1_000_000_000n)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ _tag: "ChainRequestError", code: "verification_limit_exceeded" })
    expect(refused.body.message).toContain("LEVEL_0")
    expect(refused.body.message).toContain("Verify to LEVEL_1")
    // Nothing more was held.
    expect(await balance()).toEqual(before)
    expect((await withdrawals(user.id)).every((w) => w.status === "pending")).toBe(true)

    // A failed withdrawal gives its room back.
    await server.sql("update custody_chain_withdrawals set status = 'fail' where user_id = $1", [user.id])
    expect((await withdraw(user, 1_000_000_000n)).status).toBe(200)
  })

  it("a user whose level has no limit withdraws more", async () => {
    const user = await fundedUser(10_000, 8_600_000_010)
    expect((await withdraw(user, 500_000_000_000n)).status).toBe(200)
  })

  it("concurrent withdrawals cannot both use the same room: the sum stays within the limit", async () => {
    const user = await fundedUser(10_000)
    const probe = await withdraw(user, 1_000_000_000n)
    expect(probe.status).toBe(200)
    const perTon = BigInt((await withdrawals(user.id))[0]!.usd!)
    // Each of these takes more than half of what is left: at most one can pass.
    const left = LIMIT_CENTS - perTon
    const each = ((left / 2n + perTon) / perTon) * 1_000_000_000n
    const replies = await Promise.all([withdraw(user, each), withdraw(user, each), withdraw(user, each)])
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
    expect(replies.filter((reply) => reply.body?.code === "verification_limit_exceeded")).toHaveLength(2)
    const total = (await withdrawals(user.id)).reduce((sum, w) => sum + BigInt(w.usd!), 0n)
    expect(total).toBeLessThanOrEqual(LIMIT_CENTS)
  })
})
