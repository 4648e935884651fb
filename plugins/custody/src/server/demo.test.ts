import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { DEMO_BALANCES_USER, DEMO_NO_CUSTODY_USER } from "./demo.ts"
import { serverPlugin } from "./index.ts"
import { probePlugin } from "./testSupport.ts"

const BOT_TOKEN = "1234567:custody-demo-test"
const now = Date.UTC(2026, 4, 6, 12, 0, 0)

// PostgreSQL: the same database across two server starts (a restart must not double anything).
describe("custody demo data on postgres", () => {
  let database: TestDatabase
  const start = () => startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, dev: true, now: () => now, plugins: [serverPlugin, probePlugin] })

  beforeAll(async () => {
    database = await startTestDatabase("postgres")
  }, 90_000)
  afterAll(async () => {
    await database?.stop()
  })

  const snapshot = async (server: RunningServer) => {
    const initData = signInitData(
      {
        user: { id: DEMO_BALANCES_USER, first_name: "Bob", username: "bob_balance", language_code: "en" },
        authDate: new Date(now),
        queryId: randomUUID(),
        chatType: "sender",
      },
      BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    const { access_token: token } = (await auth.json()) as { access_token: string }
    const get = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<any>
    const accounts = await get("/api/custody/accounts")
    const history = await get("/api/custody/transactions?limit=100")
    const frozen = await get("/api/custody/frozen-balances")
    const outgoing = await server.sql("select status from custody_transfers where sender_id = $1", [DEMO_BALANCES_USER])
    const audit = await (await fetch(`${server.url}/api/custody-probe/audit`)).json()
    return { accounts, history, frozen, outgoing, audit }
  }

  it("gives the balances user balances, a history of several gateways and a frozen balance, once", async () => {
    const first = await start()
    const one = await snapshot(first)
    await first.close()
    const second = await start()
    const two = await snapshot(second)
    await second.close()

    const balances = Object.fromEntries(one.accounts.assets.map((asset: any) => [asset.currency, asset.balance]))
    // 150 in, 12.5 out on chain, 10 exchanged, 5 from Carl.
    expect(balances.TON).toBe("132.5")
    // 420.5 in + 1.25 reward + 54.2 exchange - 15 pending to Carl - 50 frozen.
    expect(balances.USDT).toBe("410.95")
    expect(balances.BTC).toBe("0.0152")
    const lowValue = one.accounts.assets.filter((asset: any) => asset.balance !== "0" && Number(asset.usdBalance) < 1)
    expect(lowValue.length).toBeGreaterThanOrEqual(2)
    // Newest first by date (the seeded rows are back-dated).
    const dates = one.history.items.map((row: any) => Date.parse(row.date))
    expect([...dates].sort((a, b) => b - a)).toEqual(dates)
    expect(one.history.items.at(-1)).toMatchObject({ gateway: "top_up", currency: "TON", amount: "150" })
    const gateways = new Set(one.history.items.map((row: any) => row.gateway))
    for (const gateway of ["top_up", "withdraw_onchain", "earn_reward", "crypto_exchange", "tg_transfer"]) expect(gateways).toContain(gateway)
    const incoming = one.history.items.find((row: any) => row.gateway === "tg_transfer" && row.type === "deposit")
    expect(incoming).toMatchObject({ userId: DEMO_NO_CUSTODY_USER, status: "success", comment: "For the pizza" })
    expect(one.frozen.items).toEqual([expect.objectContaining({ reason: "FR_1", currency: "USDT", amount: "50" })])
    expect(one.outgoing).toEqual([{ status: "new" }])
    expect(one.audit.ok).toBe(true)

    // The restart replayed every movement: nothing doubled.
    expect(two.accounts.assets.map((asset: any) => asset.balance)).toEqual(one.accounts.assets.map((asset: any) => asset.balance))
    expect(two.history.items.map((row: any) => row.id)).toEqual(one.history.items.map((row: any) => row.id))
    expect(two.frozen).toEqual(one.frozen)
    expect(two.outgoing).toEqual([{ status: "new" }])
    expect(two.audit.ok).toBe(true)
  }, 120_000)
})
