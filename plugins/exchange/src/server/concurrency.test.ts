import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, tma, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { serverPlugin } from "./index.ts"
import { exchangeProbePlugin, HOUSE } from "./testing.ts"

const BOT_TOKEN = "1234567:exchange-race"
const USDT = 1_000_000n
const TON = 1_000_000_000n
const USERS = 40

/**
 * Issue 22: many conversions at once against one house account with little inventory, on PostgreSQL
 * (real concurrency), each confirmed twice at once. Afterwards the house never went below zero (its
 * balance is what it had less what the executed quotes paid out), the Ledger audit passes, and every
 * executed quote has exactly one movement while every other has none.
 */
describe("exchange under concurrency (PostgreSQL)", () => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase("postgres")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      // Monday 15:00 UTC (the market hours do not matter for TON; a fixed clock keeps the prices fixed).
      now: () => Date.UTC(2030, 0, 7, 15, 0),
      plugins: [custodyPlugin, serverPlugin, exchangeProbePlugin],
      pluginConfig: { exchange: { quoteTtlMs: 600_000 } },
    })
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const post = (auth: string, path: string, body: unknown) => call(server.url, "POST", path, { authorization: auth, body })
  const signIn = async (id: number) => {
    const initData = signInitData(
      { user: { id, first_name: "Race", language_code: "en" }, authDate: new Date(Date.UTC(2030, 0, 7, 15, 0)), queryId: `q${id}`, chatType: "sender" },
      BOT_TOKEN,
    )
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    expect(reply.status).toBe(200)
    await call(server.url, "POST", "/api/exchange-probe/fund", { body: { userId: id, currency: "USDT", amount: (100n * USDT).toString() } })
    return bearer(reply.body.access_token as string)
  }

  it("the house never goes below zero, the audit passes, and each executed quote moved exactly once", async () => {
    const inventory = 20n * TON
    await call(server.url, "POST", "/api/exchange-probe/fund", { body: { userId: 0, currency: "TON", amount: inventory.toString() } })
    const users = await Promise.all(Array.from({ length: USERS }, (_, i) => signIn(9_300_000_000 + i)))
    // Each quote fits the inventory alone (about 3.7 TON for 20 USDT); together they want far more.
    const quotes = await Promise.all(
      users.map(async (auth) => ({
        auth,
        quote: (await post(auth, "/api/exchange/quote", { payCurrency: "USDT", receiveCurrency: "TON", exchangeMode: "pay", amount: "20" })).body,
      })),
    )
    for (const { quote } of quotes) expect(quote.status).toBe("OPEN")
    const answers = await Promise.all(
      quotes.flatMap(({ auth, quote }) => [post(auth, "/api/exchange/confirm", { uid: quote.uid }), post(auth, "/api/exchange/confirm", { uid: quote.uid })]),
    )
    for (const answer of answers) {
      if (answer.status !== 200) expect(answer.body.code).toBe("insufficient_liquidity")
    }
    const executed = quotes.filter((_, i) => answers[2 * i]!.status === 200 || answers[2 * i + 1]!.status === 200)
    expect(executed.length).toBeGreaterThan(0)
    expect(executed.length).toBeLessThan(USERS)
    // Both confirms of one quote agree.
    for (const [i] of quotes.entries()) {
      const [a, b] = [answers[2 * i]!, answers[2 * i + 1]!]
      if (a.status === 200 && b.status === 200) expect(a.body.transactionId).toBe(b.body.transactionId)
    }
    const paidOut = executed.reduce((sum, { quote }) => sum + BigInt(quote.receiveUnits), 0n)
    const house = BigInt((await call(server.url, "POST", "/api/exchange-probe/balance", { body: { owner: HOUSE, currency: "TON" } })).body.available)
    expect(house).toBe(inventory - paidOut)
    expect(house >= 0n).toBe(true)
    const counts = (await server.sql(
      `select q.uid, q.status, (select count(*)::int from ledger_transactions t where t.idempotency_key = 'exchange:quote:' || q.uid) as movements
         from exchange_quotes q`,
    )) as Array<{ uid: string; status: string; movements: number }>
    for (const row of counts) expect(Number(row.movements), `${row.uid} ${row.status}`).toBe(row.status === "EXECUTED" ? 1 : 0)
    expect(counts.filter((row) => row.status === "EXECUTED")).toHaveLength(executed.length)
    const audit = (await call(server.url, "GET", "/api/exchange-probe/audit")).body
    expect(audit.violations).toEqual([])
    expect(audit.ok).toBe(true)
  }, 120_000)
})
