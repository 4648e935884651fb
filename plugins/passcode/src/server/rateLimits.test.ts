/**
 * Email codes per client address (docs/decisions/0206), next to the plugin's own per-user limits:
 * the kernel's RateLimiter counts every code request of an address, refused with 429 JSON and
 * `Retry-After`; behind a trusted proxy the forwarded client is the address.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { PasscodeApi, RateLimited } from "../api.ts"
import { makePasscodeServerPlugin } from "./index.ts"

const BOT_TOKEN = "1234567:passcode-rate-limits"
/** 10 minutes into an hour window. */
const clock = { now: Date.UTC(2026, 3, 1, 10, 10, 0) }
let nextUser = 9_050_000_001

describe("email codes per address", () => {
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({
      port: 0,
      database: { kind: "pglite" },
      botToken: BOT_TOKEN,
      dev: true,
      now: () => clock.now,
      plugins: [makePasscodeServerPlugin()],
      rateLimits: { emailCodesPerAddress: { limit: 2, windowSeconds: 3600 } },
      trustedProxies: ["127.0.0.1", "::1"],
    })
  }, 90_000)
  afterAll(async () => {
    await server?.close()
  })

  /** A new user asking for a confirm-email code, from `address` (forwarded by the trusted proxy, i.e. this test). */
  const requestCode = async (address: string) => {
    const id = nextUser++
    const headers = { "x-forwarded-for": address }
    const initData = signInitData({ user: { id, first_name: "Code" }, authDate: new Date(clock.now), queryId: randomUUID(), chatType: "sender" }, BOT_TOKEN)
    const auth = await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { ...headers, authorization: `tma ${initData}` } })
    expect(auth.status).toBe(200)
    const { access_token: token } = (await auth.json()) as { access_token: string }
    const response = await fetch(`${server.url}/api/recovery-email/request-code`, {
      method: "POST",
      headers: { ...headers, authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ product: "wallet", reason: "confirm-email", email: `user${id}@example.com`, language: "en" }),
    })
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as unknown, id, token }
  }

  it("refuses the third code from one address in an hour, whichever users ask; another address is not affected", async () => {
    expect((await requestCode("198.51.100.20")).status).toBe(200)
    expect((await requestCode("198.51.100.20")).status).toBe(200)
    const refused = await requestCode("198.51.100.20")
    expect(refused.status).toBe(429)
    // 3 in this hour: allowed once 3 * (3600 - t)/3600 + 1 <= 2, 40 min into the next hour; now 50 min before it.
    expect(refused.retryAfter).toBe(String(90 * 60))
    expect(refused.body).toEqual({ _tag: "RateLimited", code: "rate_limit_exceeded", message: expect.any(String), retryAfterSeconds: 90 * 60 })
    expect((await requestCode("198.51.100.21")).status).toBe(200)

    // The contract's client reads the 429 as the typed error; OpenAPI documents it with its header.
    const typed = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* HttpApiClient.make(PasscodeApi, { baseUrl: server.url })
        return yield* Effect.flip(
          client.recoveryEmail.requestEmailCode({
            payload: { product: "wallet", reason: "confirm-email", email: `user${refused.id}@example.com`, language: "en" },
          }),
        )
      }).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.provideService(FetchHttpClient.RequestInit, { headers: { authorization: `Bearer ${refused.token}`, "x-forwarded-for": "198.51.100.20" } }),
      ),
    )
    expect(typed).toBeInstanceOf(RateLimited)
    // The fourth request of the address: 4 * (3600 - t)/3600 + 1 <= 2 at 45 min into the next hour.
    expect(typed).toMatchObject({ code: "rate_limit_exceeded", retryAfterSeconds: 95 * 60 })
    const openapi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, any> }
    expect(openapi.paths["/api/recovery-email/request-code"].post.responses["429"].headers).toHaveProperty("retry-after")
    expect(openapi.paths["/api/auth/init"].post.responses["429"].headers).toHaveProperty("retry-after")
  })
})
