import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type RunningServer } from "../server.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { call } from "../testing/http.ts"
import { MAX_BATCH_EVENTS } from "./api.ts"
import { REDACTED, scrubText, scrubValue } from "./scrub.ts"

const clock = { now: Date.UTC(2026, 2, 1, 9, 0, 0) }

const MNEMONIC =
  "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual"
const PRIVATE_KEY = randomBytes(64).toString("hex")
const BASE64_KEY = randomBytes(32).toString("base64")
const ACCESS_TOKEN = randomBytes(32).toString("base64url")
const JWT = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"sub":"42","exp":1}').toString("base64url")}.${randomBytes(32).toString("base64url")}`
const SECRETS = [MNEMONIC, PRIVATE_KEY, BASE64_KEY, ACCESS_TOKEN, JWT]
/** Pieces of each secret that must not appear anywhere in the stored rows. */
const FINGERPRINTS = [
  MNEMONIC.split(" ").slice(0, 12).join(" "),
  PRIVATE_KEY.slice(0, 32),
  BASE64_KEY.slice(0, 24),
  ACCESS_TOKEN.slice(0, 24),
  JWT.slice(0, 30),
]

const event = (overrides: Record<string, unknown> = {}) => ({
  clientId: "4d2f0a3e-1c7b-4a8e-9f00-000000000001",
  traceId: "4d2f0a3e-1c7b-4a8e-9f00-000000000002",
  idempotencyKey: randomUUID(),
  clientTime: "2026-03-01T08:59:59.000Z",
  version: "0.1.0",
  userId: "42",
  name: "home.open",
  stream: "custodial",
  eventProperties: { platform: "ios", is_new_user: false },
  ...overrides,
})

describe("scrubber", () => {
  it("redacts mnemonics, hex and base64 keys, tokens and JWTs inside text", () => {
    for (const secret of SECRETS) expect(scrubText(`Before: <${secret}>, after.`)).toBe(`Before: <${REDACTED}>, after.`)
    expect(scrubText("Bearer abc.def")).toBe(REDACTED)
  })

  it("keeps ordinary analytics values", () => {
    for (const text of [
      "ton-space/asset",
      "/scw/assets/TON",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
      "send the money to my friend",
      "1920x1080",
    ]) {
      expect(scrubText(text)).toBe(text)
    }
  })

  it("drops values under secret-named keys and scrubs keys and nested values", () => {
    expect(scrubValue({ passcode: "1234", nested: { list: [PRIVATE_KEY, { refresh_token: "x" }] }, [ACCESS_TOKEN]: 1, amount: 5 })).toEqual({
      passcode: REDACTED,
      nested: { list: [REDACTED, { refresh_token: REDACTED }] },
      [REDACTED]: 1,
      amount: 5,
    })
  })
})

describe.each(testDatabases)("analytics gateway on %s", (kind) => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({ port: 0, database: database.options, botToken: "1:dev", dev: true, now: () => clock.now })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  it("stores a batch once: a retried batch stores nothing twice", async () => {
    const batch = {
      stream: "scw",
      events: [event({ stream: "scw", name: "screen_view" }), event({ stream: "scw", name: "ton-space.send_start", isPostoponed: true })],
    }
    const first = await call(server.url, "POST", "/api/analytics/events", { body: batch })
    expect(first).toEqual({ status: 200, body: { stored: 2, duplicates: 0 } })
    const again = await call(server.url, "POST", "/api/analytics/events", { body: batch })
    expect(again).toEqual({ status: 200, body: { stored: 0, duplicates: 2 } })
    const keys = batch.events.map((e) => e.idempotencyKey)
    const rows = await server.sql(`select name, stream, is_postponed from analytics_events where idempotency_key in ('${keys[0]}', '${keys[1]}') order by id`)
    expect(rows).toEqual([
      { name: "screen_view", stream: "scw", is_postponed: false },
      { name: "ton-space.send_start", stream: "scw", is_postponed: true },
    ])
  })

  it("reads a beacon's text/plain body as JSON", async () => {
    const e = event({ name: "launch" })
    const response = await fetch(`${server.url}/api/analytics/events`, {
      method: "POST",
      headers: { "content-type": "text/plain;charset=UTF-8" },
      body: JSON.stringify({ stream: "custodial", events: [e] }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ stored: 1, duplicates: 0 })
  })

  it("refuses malformed and oversized batches with the API's JSON error", async () => {
    const bad = async (body: unknown) => {
      const reply = await call(server.url, "POST", "/api/analytics/events", typeof body === "string" ? { rawBody: body } : { body })
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ _tag: "InvalidRequest", code: "invalid_request" })
      return reply.body
    }
    await bad("{not json")
    await bad({ stream: "custodial", events: [] })
    await bad({ stream: "other", events: [event()] })
    await bad({ stream: "custodial", events: [event({ name: "Not A Name" })] })
    await bad({ stream: "custodial", events: [event({ idempotencyKey: "x" })] })
    await bad({ stream: "custodial", events: [event({ clientTime: "yesterday" })] })
    await bad({ stream: "custodial", events: [event({ eventProperties: [] })] })
    await bad({ stream: "custodial", events: [event({ eventProperties: { a: { b: { c: { d: { e: 1 } } } } } })] })
    await bad({ stream: "custodial", events: [event({ eventProperties: { long: "x".repeat(1001) } })] })
    await bad({ stream: "custodial", events: [event({ eventProperties: { nul: "a\u0000b" } })] })
    await bad({ stream: "custodial", events: [event({ extra: 1 })] })
    await bad({ stream: "custodial", events: [event({ eventProperties: { "a key with spaces": 1 } })] })
    await bad({ stream: "custodial", events: [event({ eventProperties: { ["k".repeat(41)]: 1 } })] })
    await bad({ stream: "custodial", events: Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => event()) })
    await bad({ meters: [] })
    const tooLarge = await call(server.url, "POST", "/api/analytics/events", {
      rawBody: JSON.stringify({ stream: "custodial", events: [event({ eventProperties: { x: "y".repeat(2 * 1024 * 1024) } })] }),
    })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body).toMatchObject({ _tag: "PayloadTooLarge" })
    const wrongType = await fetch(`${server.url}/api/analytics/events`, { method: "POST", headers: { "content-type": "application/xml" }, body: "<a/>" })
    expect(wrongType.status).toBe(415)
    expect(await wrongType.json()).toMatchObject({ code: "unsupported_media_type" })
  })

  it("never stores a secret sent through any path: names, properties, keys, nested values, meters", async () => {
    const events = SECRETS.flatMap((secret) => [
      event({
        eventProperties: {
          note: `my words are ${secret}`,
          nested: { deeper: [secret, { x: secret }] },
          passcode: "123456",
          [`k_${secret.replace(/[^A-Za-z0-9_]/g, "_")}`.slice(0, 40)]: true,
          joined: secret.replaceAll(" ", "_"),
        },
      }),
      event({
        name: `home.${secret
          .slice(0, 50)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, "")}`,
        eventProperties: {},
      }),
      event({ eventProperties: { token: secret, access_token: secret, refresh_token: secret, mnemonic: secret, private_key: secret } }),
    ]).filter((e) => /^[a-z][a-z0-9_.-]{0,63}$/.test(String(e.name)))
    const reply = await call(server.url, "POST", "/api/analytics/events", { body: { stream: "custodial", events } })
    expect(reply.status).toBe(200)
    const meters = await call(server.url, "POST", "/api/analytics/meters", {
      body: { meters: [{ name: `m.${PRIVATE_KEY.slice(0, 60)}`, value: 1, clientId: event().clientId, clientTime: "2026-03-01T00:00:00Z", version: "0.1.0" }] },
    })
    expect(meters.status).toBe(200)
    // Fields stored as sent (ids, version, user id) only take shapes no secret fits: refused.
    for (const fields of [{ version: ACCESS_TOKEN.slice(0, 32) }, { clientId: PRIVATE_KEY.slice(0, 36) }, { userId: ACCESS_TOKEN }]) {
      expect((await call(server.url, "POST", "/api/analytics/events", { body: { stream: "custodial", events: [event(fields)] } })).status).toBe(400)
    }
    expect(
      (
        await call(server.url, "POST", "/api/analytics/meters", {
          body: { meters: [{ name: "m", value: 1, clientId: event().clientId, clientTime: "2026-03-01T00:00:00Z", version: BASE64_KEY.slice(0, 32) }] },
        })
      ).status,
    ).toBe(400)

    const stored = JSON.stringify([await server.sql("select * from analytics_events"), await server.sql("select * from analytics_meters")], (_key, value) =>
      typeof value === "bigint" ? String(value) : value,
    )
    for (const piece of FINGERPRINTS) expect(stored).not.toContain(piece)
    expect(stored).not.toContain(MNEMONIC.replaceAll(" ", "_").slice(0, 60))
    expect(stored).not.toContain("123456")
    expect(stored).toContain(REDACTED)
  })

  it("meters go in their own table", async () => {
    const reply = await call(server.url, "POST", "/api/analytics/meters", {
      body: { meters: [{ name: "first_screen_ms", value: 812.5, clientId: event().clientId, clientTime: "2026-03-01T00:00:00Z", version: "0.1.0" }] },
    })
    expect(reply).toEqual({ status: 200, body: { stored: 1, duplicates: 0 } })
    expect(await server.sql("select value from analytics_meters where name = 'first_screen_ms'")).toEqual([{ value: 812.5 }])
  })

  it("the dev page and its JSON list the latest events, escaped", async () => {
    const e = event({ name: "home.dev_probe", eventProperties: { label: "<script>x</script>" } })
    await call(server.url, "POST", "/api/analytics/events", { body: { stream: "custodial", events: [e] } })
    const list = await call(server.url, "GET", "/api/dev/analytics?limit=1")
    expect(list.status).toBe(200)
    expect(list.body.events).toEqual([
      expect.objectContaining({ name: "home.dev_probe", idempotencyKey: e.idempotencyKey, userId: "42", eventProperties: { label: "<script>x</script>" } }),
    ])
    const page = await fetch(`${server.url}/api/dev/analytics.html`)
    expect(page.headers.get("content-type")).toContain("text/html")
    const html = await page.text()
    expect(html).toContain("home.dev_probe")
    expect(html).not.toContain("<script>x")
  })

  it("is rate limited per address with the 429 JSON error", async () => {
    const limited = await startServer({
      port: 0,
      database: database.options,
      botToken: "1:dev",
      dev: false,
      now: () => clock.now,
      rateLimits: { analyticsPerAddress: { limit: 2, windowSeconds: 60 } },
    })
    try {
      const send = () => call(limited.url, "POST", "/api/analytics/events", { body: { stream: "custodial", events: [event()] } })
      // Earlier tests on this database counted from the same address: at most two more pass.
      await send()
      await send()
      const refused = await send()
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({ _tag: "RateLimited", code: "rate_limit_exceeded" })
      // no dev page outside dev
      expect((await call(limited.url, "GET", "/api/dev/analytics")).status).toBe(404)
    } finally {
      await limited.close()
    }
  })
})
