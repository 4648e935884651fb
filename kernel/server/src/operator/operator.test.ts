import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TelegramUser } from "@wallet/kernel/api"
import { signInitData } from "../kernel/initData.ts"
import { startServer, type RunningServer } from "../server.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { bearer, call, tma } from "../testing/http.ts"
import { hashPassword, MAX_FAILURES_PER_NAME, verifyPassword } from "./auth.ts"
import { main } from "./cli.ts"

const BOT_TOKEN = "1111111111:test-bot-token"
const clock = { now: Date.UTC(2026, 0, 10, 12, 0, 0) }
const PASSWORD = "correct horse battery staple"
let nextUserId = 7_000_000_000
const telegramUser = (): TelegramUser => ({
  id: nextUserId++,
  first_name: "Op",
  last_name: "Test",
  username: "op_test",
  language_code: "en",
  allows_write_to_pm: true,
})

describe("operator passwords", () => {
  it("hashes with scrypt and verifies only the right password", async () => {
    const hash = await Effect.runPromise(hashPassword(PASSWORD))
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(hash).not.toContain(PASSWORD)
    expect(await Effect.runPromise(verifyPassword(PASSWORD, hash))).toBe(true)
    expect(await Effect.runPromise(verifyPassword("correct horse battery stapler", hash))).toBe(false)
    expect(await Effect.runPromise(verifyPassword(PASSWORD, "scrypt$1$2$3$x$y"))).toBe(false)
  })
})

describe.each(testDatabases)("operator console on %s", (kind) => {
  let database: TestDatabase
  let server: RunningServer
  let url: string

  const signIn = async () => {
    const reply = await call(url, "POST", "/api/auth/init", {
      authorization: tma(
        signInitData(
          { user: telegramUser(), authDate: new Date(clock.now), queryId: `AA${Math.random().toString(36).slice(2)}`, chatType: "sender" },
          BOT_TOKEN,
        ),
      ),
    })
    expect(reply.status).toBe(200)
    return reply.body as { access_token: string; user_id: number; ab_tests: Record<string, string> }
  }

  const addOperator = async (name: string) => {
    const hash = await Effect.runPromise(hashPassword(PASSWORD))
    await server.sql("insert into operator_accounts (name, password_hash, created_at) values ($1, $2, now())", [name, hash])
  }

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: form(fields),
    })

  /** Signs in and returns the cookie header and the page's CSRF token. */
  const operatorLogin = async (name: string) => {
    const reply = await post("/ops/login", { name, password: PASSWORD })
    expect(reply.status).toBe(303)
    const setCookie = reply.headers.get("set-cookie")!
    const cookie = setCookie.split(";")[0]!
    const page = await (await fetch(`${url}/ops`, { headers: { cookie } })).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
    return { cookie, csrf, setCookie }
  }

  const flagsOf = async (token: string) => (await call(url, "GET", "/api/feature-flags", { authorization: bearer(token) })).body as Record<string, boolean>
  const bucketsOf = async (token: string) =>
    ((await call(url, "GET", "/api/experiments", { authorization: bearer(token) })).body as { buckets: Record<string, string> }).buckets

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, dev: true, now: () => clock.now })
    url = server.url
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  it("refuses a wrong password with 401 and sets no cookie", async () => {
    await addOperator("wrong-pw")
    const reply = await post("/ops/login", { name: "wrong-pw", password: "not the password" })
    expect(reply.status).toBe(401)
    expect(reply.headers.get("set-cookie")).toBeNull()
    expect(await reply.text()).toContain("Wrong name or password")
    // An unknown name answers the same.
    const unknown = await post("/ops/login", { name: "nobody-here", password: PASSWORD })
    expect(unknown.status).toBe(401)
  })

  it("locks a name out after repeated failures, even for the right password", async () => {
    await addOperator("locked-op")
    for (let i = 0; i < MAX_FAILURES_PER_NAME; i++) expect((await post("/ops/login", { name: "locked-op", password: `wrong ${i}` })).status).toBe(401)
    const locked = await post("/ops/login", { name: "locked-op", password: PASSWORD })
    expect(locked.status).toBe(429)
    expect(locked.headers.get("set-cookie")).toBeNull()
    // After the window the right password works again.
    clock.now += 16 * 60 * 1000
    expect((await post("/ops/login", { name: "locked-op", password: PASSWORD })).status).toBe(303)
  })

  it("scopes the session cookie to /ops: HttpOnly, SameSite=Strict; it is no user session and a user token opens no page", async () => {
    await addOperator("cookie-op")
    const { cookie, setCookie } = await operatorLogin("cookie-op")
    expect(setCookie).toMatch(/; Path=\/ops;/)
    expect(setCookie).toContain("HttpOnly")
    expect(setCookie).toContain("SameSite=Strict")
    // The operator cookie does not authenticate the app's API.
    const api = await fetch(`${url}/api/feature-flags`, { headers: { cookie } })
    expect(api.status).toBe(401)
    // A user's bearer token does not open the console.
    const user = await signIn()
    const page = await fetch(`${url}/ops`, { redirect: "manual", headers: { authorization: bearer(user.access_token) } })
    expect(page.status).toBe(303)
    expect(page.headers.get("location")).toBe("/ops/login")
    // The page forbids scripts and framing.
    const console = await fetch(`${url}/ops`, { headers: { cookie } })
    expect(console.headers.get("content-security-policy")).toContain("default-src 'none'")
    expect(console.headers.get("x-frame-options")).toBe("DENY")
  })

  it("refuses a change without the session's CSRF token or from another origin", async () => {
    await addOperator("csrf-op")
    const { cookie, csrf } = await operatorLogin("csrf-op")
    const before = (await server.sql("select count(*)::int as n from operator_audit")) as ReadonlyArray<{ n: number }>
    expect((await post("/ops/flags", { key: "xstocks", value: "on", csrf: "forged" }, { cookie })).status).toBe(403)
    expect((await post("/ops/flags", { key: "xstocks", value: "on", csrf }, { cookie, origin: "https://evil.example" })).status).toBe(403)
    expect((await post("/ops/flags", { key: "xstocks", value: "on", csrf })).status).toBe(303) // no cookie: to the login page
    const after = (await server.sql("select count(*)::int as n from operator_audit")) as ReadonlyArray<{ n: number }>
    expect(after[0]!.n).toBe(before[0]!.n)
  })

  it("sets a flag for all and per user (the user's value wins) and writes who, what, before and after", async () => {
    await addOperator("flags-op")
    const { cookie, csrf } = await operatorLogin("flags-op")
    const alice = await signIn()
    const bob = await signIn()
    expect((await flagsOf(alice.access_token)).is_ton_space_enabled).toBe(true)

    expect((await post("/ops/flags", { key: "is_ton_space_enabled", value: "off", csrf }, { cookie })).status).toBe(303)
    expect((await post("/ops/flags", { key: "is_ton_space_enabled", value: "on", user: String(bob.user_id), csrf }, { cookie })).status).toBe(303)
    expect((await flagsOf(alice.access_token)).is_ton_space_enabled).toBe(false)
    expect((await flagsOf(bob.access_token)).is_ton_space_enabled).toBe(true)

    // Clearing bob's own value puts him back on the value for all.
    expect((await post("/ops/flags", { key: "is_ton_space_enabled", value: "clear", user: String(bob.user_id), csrf }, { cookie })).status).toBe(303)
    expect((await flagsOf(bob.access_token)).is_ton_space_enabled).toBe(false)

    const audit = (await server.sql(
      "select actor, action, target, before, after from operator_audit where actor = 'operator:flags-op' order by id",
    )) as ReadonlyArray<Record<string, unknown>>
    expect(audit.map((a) => [a.action, a.target, a.before, a.after])).toEqual([
      ["flag.set", "flag is_ton_space_enabled for all", true, false],
      ["flag.set", `flag is_ton_space_enabled for user ${bob.user_id}`, null, true],
      ["flag.clear", `flag is_ton_space_enabled for user ${bob.user_id}`, true, null],
    ])
    const page = await (await fetch(`${url}/ops/audit`, { headers: { cookie } })).text()
    expect(page).toContain("flag.clear: flag is_ton_space_enabled for user")

    // Back on for the other tests.
    await post("/ops/flags", { key: "is_ton_space_enabled", value: "on", csrf }, { cookie })
  })

  it("dev_tools, on for everyone in a dev server, follows an operator's value for one user", async () => {
    await addOperator("dev-op")
    const { cookie, csrf } = await operatorLogin("dev-op")
    const user = await signIn()
    expect((await flagsOf(user.access_token)).dev_tools).toBe(true)
    await post("/ops/flags", { key: "dev_tools", value: "off", user: String(user.user_id), csrf }, { cookie })
    expect((await flagsOf(user.access_token)).dev_tools).toBe(false)
  })

  it("sets experiment buckets for all and per user; the user's wins, at init and in GET /api/experiments", async () => {
    await addOperator("bucket-op")
    const { cookie, csrf } = await operatorLogin("bucket-op")
    const carol = await signIn()
    expect(await bucketsOf(carol.access_token)).toEqual({})
    expect((await post("/ops/buckets", { name: "wallet-action-buttons", bucket: "b", csrf }, { cookie })).status).toBe(303)
    expect((await post("/ops/buckets", { name: "p2p-offer-price-test", bucket: "c", user: String(carol.user_id), csrf }, { cookie })).status).toBe(303)
    expect(await bucketsOf(carol.access_token)).toEqual({ "wallet-action-buttons": "b", "p2p-offer-price-test": "c" })
    expect((await post("/ops/buckets", { name: "wallet-action-buttons", bucket: "a", user: String(carol.user_id), csrf }, { cookie })).status).toBe(303)
    expect((await bucketsOf(carol.access_token))["wallet-action-buttons"]).toBe("a")
    // A new session carries the buckets for all in ab_tests.
    const dave = await signIn()
    expect(dave.ab_tests["wallet-action-buttons"]).toBe("b")
    // A bucket outside the experiment's variants is refused with the reason.
    const refused = await post("/ops/buckets", { name: "wallet-action-buttons", bucket: "c", csrf }, { cookie })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain("wallet-action-buttons has the buckets a, b")
    // An unknown user is refused.
    const unknown = await post("/ops/buckets", { name: "wallet-action-buttons", bucket: "b", user: "999", csrf }, { cookie })
    expect(unknown.status).toBe(400)
    const audit = (await server.sql("select target, before, after from operator_audit where actor = 'operator:bucket-op' order by id")) as ReadonlyArray<
      Record<string, unknown>
    >
    expect(audit).toEqual([
      { target: "experiment wallet-action-buttons for all", before: null, after: "b" },
      { target: `experiment p2p-offer-price-test for user ${carol.user_id}`, before: null, after: "c" },
      { target: `experiment wallet-action-buttons for user ${carol.user_id}`, before: null, after: "a" },
    ])
    await post("/ops/buckets", { name: "wallet-action-buttons", bucket: "clear", csrf }, { cookie })
  })

  it("npm run operator --server signs in to /ops and writes through the same service and audit log", async () => {
    await addOperator("cli-op")
    const user = await signIn()
    process.env.OPERATOR_NAME = "cli-op"
    process.env.OPERATOR_PASSWORD = PASSWORD
    try {
      expect(await main(["banners", "set", "is_p2p_enabled", "off", "--user", String(user.user_id), "--server", url])).toBe(0)
      expect(await main(["buckets", "set", "wallet-action-buttons", "c", "--server", url])).toBe(1)
    } finally {
      delete process.env.OPERATOR_NAME
      delete process.env.OPERATOR_PASSWORD
    }
    expect((await flagsOf(user.access_token)).is_p2p_enabled).toBe(false)
    const audit = (await server.sql("select action, target from operator_audit where actor = 'operator:cli-op'")) as ReadonlyArray<Record<string, unknown>>
    expect(audit).toEqual([{ action: "flag.set", target: `flag is_p2p_enabled for user ${user.user_id}` }])
  })

  it("signs out: the cookie stops working", async () => {
    await addOperator("bye-op")
    const { cookie, csrf } = await operatorLogin("bye-op")
    expect((await post("/ops/logout", { csrf }, { cookie })).status).toBe(303)
    const page = await fetch(`${url}/ops`, { redirect: "manual", headers: { cookie } })
    expect(page.status).toBe(303)
  })
})
