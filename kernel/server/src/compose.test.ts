import { Effect, Layer, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiId, authenticated, CurrentSession, RequestValidation } from "@wallet/kernel/api"
import { composeServerModules, ServerCompositionError } from "./compose.ts"
import { signInitData } from "./kernel/initData.ts"
import { defineServerPlugin } from "./plugin.ts"
import { startServer, type RunningServer } from "./server.ts"
import { Ledger, System } from "./ledger/index.ts"
import { ServerConfig, UsdBalances } from "./services.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "./testing/databases.ts"
import { bearer, call, tma } from "./testing/http.ts"

// A plugin as a plugin author writes it: its api.ts, its migrations and its handlers.
const NotesGroup = authenticated(
  HttpApiGroup.make("notes").add(
    HttpApiEndpoint.post("add", "/api/notes", { payload: Schema.Struct({ text: Schema.String }), success: Schema.Struct({ count: Schema.Number }) }),
    HttpApiEndpoint.get("list", "/api/notes", { success: Schema.Array(Schema.String) }),
    HttpApiEndpoint.get("limits", "/api/notes/limits", { success: Schema.Struct({ maxLength: Schema.Int }) }),
    HttpApiEndpoint.post("reward", "/api/notes/reward", { success: Schema.Struct({ available: Schema.String }) }),
  ),
)
const NotesApi = HttpApi.make(ApiId).add(NotesGroup)

const notesPlugin = defineServerPlugin({
  id: "notes",
  migrations: [
    {
      id: 1,
      name: "notes",
      up: Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`create table notes_entries (user_id bigint not null, text text not null)`
      }),
    },
  ],
  groups: [NotesGroup],
  handlers: HttpApiBuilder.group(NotesApi, "notes", (handlers) =>
    handlers
      .handle("add", ({ payload }) =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const session = yield* CurrentSession
          yield* sql`insert into notes_entries (user_id, text) values (${session.userId}, ${payload.text})`
          const rows = yield* sql<{ n: number }>`select count(*)::int as n from notes_entries where user_id = ${session.userId}`
          return { count: rows[0]!.n }
        }).pipe(Effect.orDie),
      )
      .handle("list", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const session = yield* CurrentSession
          const rows = yield* sql<{ text: string }>`select text from notes_entries where user_id = ${session.userId}`
          return rows.map((row) => row.text)
        }).pipe(Effect.orDie),
      )
      // Money moves only through the kernel Ledger, which every handler can reach.
      .handle("reward", () =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const session = yield* CurrentSession
          const account = { owner: `user:${session.userId}`, currency: "NOTE" }
          yield* ledger.defineCurrency({ code: "NOTE", decimals: 2 })
          yield* ledger.openAccount(account)
          yield* ledger.transfer({
            key: `notes:reward:${session.userId}`,
            legs: [{ from: { owner: System.deposits, currency: "NOTE" }, to: account, amount: 150n }],
          })
          const balance = yield* ledger.balance(account)
          return { available: balance.available.toString() }
        }).pipe(Effect.orDie),
      )
      .handle("limits", () =>
        Effect.gen(function* () {
          // The region's config for this plugin (host/regions/<id>.ts plugins.notes.config).
          const config = yield* ServerConfig
          const notes = config.pluginConfig.notes as { maxLength?: number } | undefined
          return { maxLength: notes?.maxLength ?? 100 }
        }),
      ),
  ),
})

const group = (id: string, path: `/${string}`, withValidation = true) => {
  const base = HttpApiGroup.make(id).add(HttpApiEndpoint.get("get", path))
  return withValidation ? base.middleware(RequestValidation) : base
}

describe("server module composition", () => {
  it("puts the kernel first and every dependency before its dependents", () => {
    const a = defineServerPlugin({ id: "alpha", dependsOn: ["beta"] })
    const b = defineServerPlugin({ id: "beta" })
    expect(composeServerModules([a, b], { dev: false }).map((m) => m.id)).toEqual([
      "kernel",
      "outbox",
      "bridge",
      "ledger",
      "analytics",
      "fingerprint",
      "operator",
      "beta",
      "alpha",
    ])
    expect(composeServerModules([b], { dev: true }).map((m) => m.id)).toEqual([
      "kernel",
      "outbox",
      "bridge",
      "ledger",
      "analytics",
      "fingerprint",
      "operator",
      "dev",
      "outbox-dev",
      "analytics-dev",
      "fingerprint-dev",
      "beta",
    ])
  })

  const refusals: ReadonlyArray<[string, () => unknown, string]> = [
    ["a missing dependency", () => composeServerModules([defineServerPlugin({ id: "alpha", dependsOn: ["p2p"] })], { dev: false }), 'depends on "p2p"'],
    [
      "a dependency cycle",
      () =>
        composeServerModules([defineServerPlugin({ id: "alpha", dependsOn: ["beta"] }), defineServerPlugin({ id: "beta", dependsOn: ["alpha"] })], {
          dev: false,
        }),
      "cycle",
    ],
    ["a plugin enabled twice", () => composeServerModules([defineServerPlugin({ id: "alpha" }), defineServerPlugin({ id: "alpha" })], { dev: false }), "twice"],
    ["a reserved id", () => composeServerModules([defineServerPlugin({ id: "kernel" })], { dev: false }), "reserved"],
    [
      "two modules claiming one group",
      () =>
        composeServerModules(
          [
            defineServerPlugin({ id: "alpha", groups: [group("shared", "/api/a")], handlers: Layer.empty }),
            defineServerPlugin({ id: "beta", groups: [group("shared", "/api/b")], handlers: Layer.empty }),
          ],
          { dev: false },
        ),
      'group "shared"',
    ],
    [
      "two modules claiming one method and path",
      () =>
        composeServerModules([defineServerPlugin({ id: "alpha", groups: [group("alphaGroup", "/api/feature-flags")], handlers: Layer.empty })], { dev: false }),
      "already served by kernel",
    ],
    [
      "an endpoint outside /api/",
      () => composeServerModules([defineServerPlugin({ id: "alpha", groups: [group("alphaGroup", "/notes")], handlers: Layer.empty })], { dev: false }),
      "must start with /api/",
    ],
    [
      "an endpoint without request validation",
      () => composeServerModules([defineServerPlugin({ id: "alpha", groups: [group("alphaGroup", "/api/x", false)], handlers: Layer.empty })], { dev: false }),
      "missing RequestValidation",
    ],
  ]

  it.each(refusals)("refuses %s", (_name, compose, message) => {
    expect(compose).toThrow(ServerCompositionError)
    expect(compose).toThrow(message)
  })

  it("refuses a malformed plugin id and groups without handlers", () => {
    expect(() => defineServerPlugin({ id: "Bad Id" })).toThrow("must match")
    expect(() => defineServerPlugin({ id: "alpha", groups: [group("g", "/api/g")] })).toThrow("no handlers")
  })

  it("refuses two modules implementing the UsdBalances port", () => {
    const valuer = (id: string) => defineServerPlugin({ id, usdBalances: Layer.succeed(UsdBalances, UsdBalances.none) })
    expect(composeServerModules([valuer("one")], { dev: false }).map((m) => m.id)).toContain("one")
    expect(() => composeServerModules([valuer("one"), valuer("two")], { dev: false })).toThrow(
      "the UsdBalances port is provided by more than one module: one, two",
    )
  })
})

describe.each(testDatabases)("a plugin's server module served on %s", (kind) => {
  let database: TestDatabase
  let server: RunningServer
  const token = "3333:plugin-test"

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    server = await startServer({ port: 0, database: database.options, botToken: token, plugins: [notesPlugin], pluginConfig: { notes: { maxLength: 7 } } })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (id: number) => {
    const initData = signInitData({ user: { id, first_name: "N" }, authDate: new Date(), queryId: `AA${id}${Math.random()}` }, token)
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    return reply.body.access_token as string
  }

  it("migrates the plugin's tables and serves its endpoints behind the kernel's auth and validation", async () => {
    expect(server.modules).toEqual(["kernel", "outbox", "bridge", "ledger", "analytics", "fingerprint", "operator", "notes"])
    const first = await signIn(901)
    const second = await signIn(902)
    expect((await call(server.url, "POST", "/api/notes", { authorization: bearer(first), body: { text: "a" } })).body).toEqual({ count: 1 })
    expect((await call(server.url, "POST", "/api/notes", { authorization: bearer(first), body: { text: "b" } })).body).toEqual({ count: 2 })
    expect((await call(server.url, "GET", "/api/notes", { authorization: bearer(second) })).body).toEqual([])
    expect((await call(server.url, "GET", "/api/notes")).body.code).toBe("token_missing")
    const bad = await call(server.url, "POST", "/api/notes", { authorization: bearer(first), body: { text: 1 } })
    expect(bad.status).toBe(400)
    expect(bad.body.issues[0].path).toEqual(["payload", "text"])
    expect((await call(server.url, "GET", "/api/notes/limits", { authorization: bearer(first) })).body).toEqual({ maxLength: 7 })
    // The Ledger is in every handler's context; a retried reward (same idempotency key) pays once.
    expect((await call(server.url, "POST", "/api/notes/reward", { authorization: bearer(first) })).body).toEqual({ available: "150" })
    expect((await call(server.url, "POST", "/api/notes/reward", { authorization: bearer(first) })).body).toEqual({ available: "150" })
    // Without dev, the dev endpoints do not exist.
    expect((await call(server.url, "GET", "/api/dev/demo-users")).status).toBe(404)
  })
})
