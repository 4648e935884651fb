/**
 * Issue 15, web-side security on the API server (decision 0207): logout revokes the session at once,
 * the access token lifetime is a setting, and CORS lets only the app's origins read `/api` answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TelegramUser } from "@wallet/kernel/api"
import { corsHeadersFor, normalizeOrigin, parseCorsOrigins } from "./cors.ts"
import { signInitData } from "./kernel/initData.ts"
import { startServer, type RunningServer } from "./server.ts"
import { bearer, call, tma } from "./testing/http.ts"

const BOT_TOKEN = "1111111111:web-security-bot-token"
const clock = { now: Date.UTC(2026, 4, 1, 12, 0, 0) }
let nextUserId = 6_100_000_000
const user = (): TelegramUser => ({ id: nextUserId++, first_name: "Web", language_code: "en" })
const initData = (u: TelegramUser) =>
  signInitData({ user: u, authDate: new Date(clock.now), queryId: `AA${Math.random().toString(36).slice(2)}`, chatType: "sender" }, BOT_TOKEN)

const APP = "http://127.0.0.1:5173"
const OTHER = "https://evil.example"

describe("web security on the API server", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, database: { kind: "pglite" }, botToken: BOT_TOKEN, accessTokenTtlSeconds: 120, now: () => clock.now })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  const signIn = async () => {
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData(user())) })
    expect(reply.status).toBe(200)
    return reply.body as { access_token: string; refresh_token: string; session_id: string; access_token_expires_at: string }
  }

  describe("logout", () => {
    it("revokes the session: its access token and its refresh token stop working at once", async () => {
      const session = await signIn()
      expect((await call(server.url, "GET", "/api/feature-flags", { authorization: bearer(session.access_token) })).status).toBe(200)

      const out = await fetch(`${server.url}/api/auth/logout`, { method: "POST", headers: { authorization: bearer(session.access_token) } })
      expect(out.status).toBe(204)
      expect(await out.text()).toBe("")

      // The very next request with the same token: no cache between the update and the check.
      const after = await call(server.url, "GET", "/api/feature-flags", { authorization: bearer(session.access_token) })
      expect(after).toMatchObject({ status: 401, body: { _tag: "Unauthorized", code: "session_revoked" } })
      const refresh = await call(server.url, "POST", "/api/auth/refresh", { body: { session_id: session.session_id, refresh_token: session.refresh_token } })
      expect(refresh).toMatchObject({ status: 401, body: { _tag: "Unauthorized", code: "session_revoked" } })
      const rows = await server.sql("select revoked_reason from kernel_sessions where id = $1", [session.session_id])
      expect(rows[0]?.revoked_reason).toBe("logout")
    })

    it("revokes only the caller's session; a second logout with the dead token is a 401", async () => {
      const mine = await signIn()
      const other = await signIn()
      expect((await fetch(`${server.url}/api/auth/logout`, { method: "POST", headers: { authorization: bearer(mine.access_token) } })).status).toBe(204)
      expect((await call(server.url, "GET", "/api/feature-flags", { authorization: bearer(other.access_token) })).status).toBe(200)
      expect(await call(server.url, "POST", "/api/auth/logout", { authorization: bearer(mine.access_token) })).toMatchObject({
        status: 401,
        body: { code: "session_revoked" },
      })
    })

    it("needs an access token", async () => {
      expect(await call(server.url, "POST", "/api/auth/logout")).toMatchObject({ status: 401, body: { _tag: "Unauthorized" } })
      expect(await call(server.url, "POST", "/api/auth/logout", { authorization: bearer("not-a-token") })).toMatchObject({
        status: 401,
        body: { code: "token_invalid" },
      })
    })

    it("is in the OpenAPI document", async () => {
      const doc = (await call(server.url, "GET", "/api/openapi.json")).body as { paths: Record<string, unknown> }
      expect(Object.keys(doc.paths)).toContain("/api/auth/logout")
    })
  })

  it("issues access tokens with the configured lifetime", async () => {
    const session = await signIn()
    expect(Date.parse(session.access_token_expires_at) - clock.now).toBe(120_000)
    clock.now += 121_000
    expect(await call(server.url, "GET", "/api/feature-flags", { authorization: bearer(session.access_token) })).toMatchObject({
      status: 401,
      body: { code: "token_expired" },
    })
  })

  describe("CORS", () => {
    const preflight = (origin: string, path = "/api/feature-flags") =>
      fetch(`${server.url}${path}`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "GET",
          "access-control-request-headers": "authorization, x-wallet-operation-token, x-custom-thing",
        },
      })

    it("answers a preflight from the app's origin and allows its headers", async () => {
      const reply = await preflight(APP)
      expect(reply.status).toBe(204)
      expect(reply.headers.get("access-control-allow-origin")).toBe(APP)
      expect(reply.headers.get("access-control-allow-methods")).toContain("POST")
      const headers = reply.headers.get("access-control-allow-headers")!.split(", ")
      expect(headers).toEqual(expect.arrayContaining(["authorization", "content-type", "x-wallet-operation-token"]))
      expect(headers).not.toContain("x-custom-thing")
      expect(reply.headers.get("vary")).toContain("Origin")
      expect((await preflight("http://localhost:5173")).headers.get("access-control-allow-origin")).toBe("http://localhost:5173")
    })

    it("gives another origin no Access-Control-Allow-Origin, on preflights and on answers", async () => {
      const reply = await preflight(OTHER)
      expect(reply.status).toBe(204)
      expect(reply.headers.get("access-control-allow-origin")).toBeNull()
      expect(reply.headers.get("access-control-allow-headers")).toBeNull()
      const session = await signIn()
      const answer = await fetch(`${server.url}/api/feature-flags`, { headers: { origin: OTHER, authorization: bearer(session.access_token) } })
      expect(answer.status).toBe(200)
      expect(answer.headers.get("access-control-allow-origin")).toBeNull()
      // A lookalike of the app's origin is another origin.
      const lookalike = await fetch(`${server.url}/api/feature-flags`, {
        headers: { origin: "http://127.0.0.1:51730", authorization: bearer(session.access_token) },
      })
      expect(lookalike.headers.get("access-control-allow-origin")).toBeNull()
    })

    it("adds the app's origin to answers, errors included; same-origin calls get no CORS headers", async () => {
      const session = await signIn()
      const ok = await fetch(`${server.url}/api/feature-flags`, { headers: { origin: APP, authorization: bearer(session.access_token) } })
      expect(ok.headers.get("access-control-allow-origin")).toBe(APP)
      const unauthorized = await fetch(`${server.url}/api/feature-flags`, { headers: { origin: APP } })
      expect(unauthorized.status).toBe(401)
      expect(unauthorized.headers.get("access-control-allow-origin")).toBe(APP)
      const missing = await fetch(`${server.url}/api/no-such-endpoint`, { headers: { origin: APP } })
      expect(missing.status).toBe(404)
      expect(missing.headers.get("access-control-allow-origin")).toBe(APP)
      const plain = await fetch(`${server.url}/api/feature-flags`, { headers: { authorization: bearer(session.access_token) } })
      expect(plain.headers.get("access-control-allow-origin")).toBeNull()
    })

    it("leaves the TonConnect bridge open to every origin (dApps call it)", async () => {
      const reply = await fetch(`${server.url}/bridge/message`, { method: "OPTIONS", headers: { origin: OTHER, "access-control-request-method": "POST" } })
      expect(reply.status).toBe(204)
      expect(reply.headers.get("access-control-allow-origin")).toBe("*")
    })

    it("takes a configured list instead of the default", async () => {
      const custom = await startServer({ port: 0, database: { kind: "pglite" }, botToken: BOT_TOKEN, corsOrigins: ["https://wallet.example.org"] })
      try {
        const allowed = await fetch(`${custom.url}/api/feature-flags`, {
          method: "OPTIONS",
          headers: { origin: "https://wallet.example.org", "access-control-request-method": "GET" },
        })
        expect(allowed.headers.get("access-control-allow-origin")).toBe("https://wallet.example.org")
        const dev = await fetch(`${custom.url}/api/feature-flags`, { method: "OPTIONS", headers: { origin: APP, "access-control-request-method": "GET" } })
        expect(dev.headers.get("access-control-allow-origin")).toBeNull()
      } finally {
        await custom.close()
      }
    })
  })
})

describe("CORS rules", () => {
  it("parses and normalizes the configured origins, refusing wildcards and paths", () => {
    expect(parseCorsOrigins(" https://Wallet.Example.org/ , http://127.0.0.1:5173")).toEqual(["https://wallet.example.org", "http://127.0.0.1:5173"])
    expect(() => parseCorsOrigins("*")).toThrow(/not an http\(s\) origin/)
    expect(() => parseCorsOrigins("https://a.example/path")).toThrow()
    expect(() => parseCorsOrigins("https://*.example.org")).toThrow()
    expect(normalizeOrigin("null")).toBeUndefined()
  })

  it("covers /api paths only", () => {
    const allowed = new Set([APP])
    expect(corsHeadersFor(allowed, { method: "GET", url: "/bridge/events", headers: { origin: APP } })).toBeUndefined()
    expect(corsHeadersFor(allowed, { method: "GET", url: "/apix", headers: { origin: APP } })).toBeUndefined()
    expect(corsHeadersFor(allowed, { method: "GET", url: "/api/feature-flags?x=1", headers: { origin: APP } })?.headers["access-control-allow-origin"]).toBe(
      APP,
    )
  })
})
