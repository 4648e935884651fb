/**
 * Money calls per user (docs/decisions/0206): custody transfer and withdrawal creations count
 * against one allowance per user, refused with 429 JSON and `Retry-After` before anything is held.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { serverPlugin } from "./index.ts"
import { probePlugin } from "./testSupport.ts"

vi.setConfig({ testTimeout: 30_000 })

const BOT_TOKEN = "1234567:custody-rate-limits"
/** 10 s into a minute window. */
const clock = { now: Date.UTC(2026, 4, 6, 12, 0, 10) }
let nextId = 8_500_000_001

describe("custody money calls per user", () => {
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({
      port: 0,
      database: { kind: "pglite" },
      botToken: BOT_TOKEN,
      now: () => clock.now,
      accessTokenTtlSeconds: 365 * 24 * 3600,
      plugins: [serverPlugin, probePlugin],
      pluginConfig: { custody: { rates: { seed: 7 } } },
      rateLimits: { moneyPerUser: { limit: 3, windowSeconds: 60 } },
    })
  }, 90_000)
  afterAll(async () => {
    await server?.close()
  })

  const request = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
  }
  const signIn = async () => {
    const id = nextId++
    const initData = signInitData(
      { user: { id, first_name: "Money", username: `money_${id}` }, authDate: new Date(clock.now), queryId: randomUUID(), chatType: "sender" },
      BOT_TOKEN,
    )
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: token } = (await auth.json()) as { access_token: string }
    const fund = await request("POST", "/api/custody-probe/fund", { userId: id, currency: "TON", amount: "10", key: `test:fund:${randomUUID()}` })
    expect(fund.status).toBe(200)
    return { id, post: (path: string, body?: unknown) => request("POST", path, body, token) }
  }
  type User = Awaited<ReturnType<typeof signIn>>
  const send = (from: User, to: User) => from.post("/api/custody/transfers", { idempotencyKey: randomUUID(), receiverId: to.id, currency: "TON", amount: "1" })
  const withdraw = (from: User) =>
    from.post("/api/custody/withdrawals", {
      amount: "1000000",
      currency: "TON",
      max_value: false,
      address: "not-an-address",
      network: "ton",
      idempotency_key: randomUUID(),
    })
  const held = async (user: User) => (await request("GET", `/api/custody-probe/balance/${user.id}/TON`)).body.held as string

  it("refuses the fourth transfer or withdrawal of a user in a minute, before anything is held; others and later calls pass", async () => {
    const alice = await signIn()
    const bob = await signIn()
    expect((await send(alice, bob)).status).toBe(200)
    expect((await send(alice, bob)).status).toBe(200)
    // A withdrawal counts with the transfers (refused further on for its address: not a 429).
    const refusedAddress = await withdraw(alice)
    expect(refusedAddress.status).toBeGreaterThanOrEqual(400)
    expect(refusedAddress.status).not.toBe(429)
    expect(refusedAddress.status).toBeLessThan(500)

    const limited = await send(alice, bob)
    expect(limited.status).toBe(429)
    // 4 in this window: allowed once 4 * (60 - t)/60 + 1 <= 3, 30 s into the next window; now 10 s into this one.
    expect(limited.headers.get("retry-after")).toBe("80")
    expect(limited.body).toEqual({ _tag: "RateLimited", code: "rate_limit_exceeded", message: expect.any(String), retryAfterSeconds: 80 })
    expect((await withdraw(alice)).status).toBe(429)
    expect(await held(alice)).toBe("2000000000")

    // Another user has their own allowance; once the windows pass, alice sends again.
    expect((await send(bob, alice)).status).toBe(200)
    clock.now += 120_000
    expect((await send(alice, bob)).status).toBe(200)
    expect(await held(alice)).toBe("3000000000")
  })
})
