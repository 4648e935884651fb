import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TelegramUser } from "@wallet/kernel/api"
import { encodeFingerprintBody, FINGERPRINT_MAX_BYTES, FINGERPRINT_PATH, xorBytes, type FingerprintPayload } from "@wallet/kernel/fingerprint"
import { REDACTED } from "../analytics/scrub.ts"
import { signInitData } from "../kernel/initData.ts"
import { startServer, type RunningServer } from "../server.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { bearer, call, tma } from "../testing/http.ts"

const BOT_TOKEN = "1111111111:test-bot-token"
const clock = { now: Date.UTC(2026, 2, 1, 9, 0, 0) }
let nextUserId = 7_100_000_000
const telegramUser = (): TelegramUser => ({ id: nextUserId++, first_name: "Fp", username: "fp_test", language_code: "en", allows_write_to_pm: true })

const MNEMONIC = "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid"
const ACCESS_TOKEN = randomBytes(32).toString("base64url")

const payload = (overrides: Partial<FingerprintPayload> = {}): FingerprintPayload => ({
  fingerprint: {
    thumbmark: "0123456789abcdef0123456789abcdef",
    version: "1.11.0",
    components: {
      screen: { is_touchscreen: false, maxTouchPoints: 0, colorDepth: 24, mediaMatches: ["prefers-color-scheme: light"] },
      locales: { languages: "en-US", timezone: "Europe/Berlin" },
      fonts: { Arial: 151.2, "Work Sans": 140 },
      system: { platform: "Linux x86_64", browser: { name: "Chrome", version: "140" }, mobile: false },
      audio: { sampleHash: 1234.5, oscillator: "sine", maxChannels: 1, channelCountMode: "max" },
    },
  },
  deviceUuid: "4d2f0a3e-1c7b-4a8e-9f00-000000000001",
  visitorId: "0123456789abcdef0123456789abcdef",
  ...overrides,
})

describe.each(testDatabases)("device fingerprint endpoint on %s", (kind) => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, dev: true, now: () => clock.now })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async () => {
    const reply = await call(server.url, "POST", "/api/auth/init", {
      authorization: tma(
        signInitData(
          { user: telegramUser(), authDate: new Date(clock.now), queryId: `AA${Math.random().toString(36).slice(2)}`, chatType: "sender" },
          BOT_TOKEN,
        ),
      ),
    })
    expect(reply.status).toBe(200)
    return reply.body as { access_token: string; user_id: number }
  }

  const send = async (token: string | undefined, body: Uint8Array, contentType = "application/octet-stream") => {
    const response = await fetch(`${server.url}${FINGERPRINT_PATH}`, {
      method: "POST",
      headers: { "content-type": contentType, ...(token !== undefined ? { authorization: bearer(token) } : {}) },
      body: new Uint8Array(body),
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as any) }
  }

  const rowsOf = (userId: number) => server.sql("select * from fingerprint_devices where user_id = $1 order by id", [userId])

  it("decodes the XOR body with the caller's id, stores it and answers ok; a resend updates the same row", async () => {
    const user = await signIn()
    const reply = await send(user.access_token, encodeFingerprintBody(payload(), user.user_id))
    expect(reply).toEqual({ status: 200, body: { status: "ok" } })
    const [row] = await rowsOf(user.user_id)
    expect(row).toMatchObject({
      device_uuid: "4d2f0a3e-1c7b-4a8e-9f00-000000000001",
      visitor_id: "0123456789abcdef0123456789abcdef",
      thumbmark: "0123456789abcdef0123456789abcdef",
      version: "1.11.0",
      sends: 1,
    })
    expect(row!.components).toEqual(payload().fingerprint.components)

    const again = await send(user.access_token, encodeFingerprintBody(payload({ visitorId: "ffffffffffffffffffffffffffffffff" }), user.user_id))
    expect(again.status).toBe(200)
    const rows = await rowsOf(user.user_id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ visitor_id: "ffffffffffffffffffffffffffffffff", sends: 2 })

    // Another device of the same user: its own row.
    await send(user.access_token, encodeFingerprintBody(payload({ deviceUuid: "4d2f0a3e-1c7b-4a8e-9f00-000000000002" }), user.user_id))
    expect(await rowsOf(user.user_id)).toHaveLength(2)
  })

  it("refuses garbage bytes, a blob obfuscated with another user's id, JSON that fails the schema, with the API's 400", async () => {
    const user = await signIn()
    const invalid = async (body: Uint8Array) => {
      const reply = await send(user.access_token, body)
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ _tag: "InvalidRequest", code: "invalid_request" })
      return reply.body as { message: string; issues: ReadonlyArray<{ path: ReadonlyArray<string> }> }
    }
    await invalid(randomBytes(300))
    await invalid(new Uint8Array())
    await invalid(encodeFingerprintBody(payload(), user.user_id + 1))
    // Plain JSON, not obfuscated.
    await invalid(new TextEncoder().encode(JSON.stringify(payload())))
    const encode = (value: unknown) => xorBytes(new TextEncoder().encode(JSON.stringify(value)), new TextEncoder().encode(String(user.user_id)))
    expect((await invalid(encode({ ...payload(), deviceUuid: "short" }))).issues[0]!.path).toEqual(["payload", "deviceUuid"])
    await invalid(encode({ ...payload(), extra: 1 }))
    await invalid(encode({ ...payload(), visitorId: ACCESS_TOKEN }))
    await invalid(encode({ ...payload(), fingerprint: { ...payload().fingerprint, components: { speech: {} } } }))
    await invalid(encode({ ...payload(), fingerprint: { ...payload().fingerprint, components: { math: { a: "x".repeat(2001) } } } }))
    await invalid(encode({ ...payload(), fingerprint: { ...payload().fingerprint, components: { math: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } } } } }))
    await invalid(encode({ ...payload(), fingerprint: { ...payload().fingerprint, thumbmark: "not hex" } }))
    await invalid(encode([1, 2, 3]))
    expect(await rowsOf(user.user_id)).toEqual([])
  })

  it("refuses a body above 64 kB with 413 and one above the server limit too, both in the JSON error shape", async () => {
    const user = await signIn()
    const big = await send(user.access_token, randomBytes(FINGERPRINT_MAX_BYTES + 1))
    expect(big.status).toBe(413)
    expect(big.body).toMatchObject({ _tag: "PayloadTooLarge", code: "payload_too_large", limitBytes: FINGERPRINT_MAX_BYTES })
    const huge = await send(user.access_token, randomBytes(2 * 1024 * 1024))
    expect(huge.status).toBe(413)
    expect(huge.body).toMatchObject({ _tag: "PayloadTooLarge" })
  })

  it("needs a session, and reads only its media type", async () => {
    const user = await signIn()
    const anonymous = await send(undefined, encodeFingerprintBody(payload(), user.user_id))
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({ _tag: "Unauthorized" })
    const json = await send(user.access_token, new TextEncoder().encode(JSON.stringify(payload())), "application/json")
    expect(json.status).toBe(415)
    expect(json.body).toMatchObject({ code: "unsupported_media_type" })
    expect(await rowsOf(user.user_id)).toEqual([])
  })

  it("never stores a secret a component carries", async () => {
    const user = await signIn()
    const leaky = payload()
    const components = {
      ...leaky.fingerprint.components,
      system: { note: `words ${MNEMONIC}`, useragent: `Bearer ${ACCESS_TOKEN}`, token: "975310", nested: [ACCESS_TOKEN] },
    }
    const reply = await send(user.access_token, encodeFingerprintBody({ ...leaky, fingerprint: { ...leaky.fingerprint, components } }, user.user_id))
    expect(reply.status).toBe(200)
    const stored = JSON.stringify(await rowsOf(user.user_id), (_key, value) => (typeof value === "bigint" ? String(value) : value))
    expect(stored).not.toContain(MNEMONIC.split(" ").slice(0, 12).join(" "))
    expect(stored).not.toContain(ACCESS_TOKEN.slice(0, 24))
    expect(stored).not.toContain("975310")
    expect(stored).toContain(REDACTED)
  })

  it("the dev JSON and page list the latest fingerprints, escaped; no dev page outside dev", async () => {
    const user = await signIn()
    const probe = payload({ deviceUuid: "4d2f0a3e-1c7b-4a8e-9f00-00000000abcd" })
    const components = { ...probe.fingerprint.components, plugins: { list: ["<script>x</script>"] } }
    await send(user.access_token, encodeFingerprintBody({ ...probe, fingerprint: { ...probe.fingerprint, components } }, user.user_id))
    const list = await call(server.url, "GET", `/api/dev/fingerprints?userId=${user.user_id}`)
    expect(list.status).toBe(200)
    expect(list.body.fingerprints).toEqual([
      expect.objectContaining({ userId: String(user.user_id), deviceUuid: probe.deviceUuid, visitorId: probe.visitorId, sends: 1 }),
    ])
    const page = await fetch(`${server.url}/api/dev/fingerprints.html`)
    expect(page.headers.get("content-type")).toContain("text/html")
    const html = await page.text()
    expect(html).toContain(probe.deviceUuid)
    expect(html).not.toContain("<script>x")

    const production = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, dev: false, now: () => clock.now })
    try {
      expect((await call(production.url, "GET", "/api/dev/fingerprints")).status).toBe(404)
    } finally {
      await production.close()
    }
  })
})
