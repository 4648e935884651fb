import { Effect, Layer, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiId, RequestValidation } from "@wallet/kernel/api"
import { defineServerPlugin } from "../plugin.ts"
import { startServer, type RunningServer } from "../server.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { call } from "../testing/http.ts"
import { composeServerModules } from "../compose.ts"
import { Outbox } from "./index.ts"

const clock = { now: Date.UTC(2026, 2, 1, 9, 0, 0) }

// A module that sends through the Outbox, as the passcode plugin does.
const ProbeGroup = HttpApiGroup.make("outboxProbe")
  .add(
    HttpApiEndpoint.post("send", "/api/outbox-probe/send", {
      payload: Schema.Struct({ recipient: Schema.String, subject: Schema.String, body: Schema.String }),
      success: Schema.Struct({ id: Schema.Int, status: Schema.String }),
    }),
  )
  .middleware(RequestValidation)
const probePlugin = defineServerPlugin({
  id: "outbox-probe",
  groups: [ProbeGroup],
  handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(ProbeGroup), "outboxProbe", (handlers) =>
    handlers.handle("send", ({ payload }) =>
      Effect.gen(function* () {
        const outbox = yield* Outbox
        const message = yield* Effect.orDie(outbox.enqueue({ channel: "email", ...payload }))
        return { id: message.id, status: message.status }
      }),
    ),
  ).pipe(Layer.provide(Outbox.layer)),
})

describe.each(testDatabases)("Outbox on %s", (kind) => {
  let database: TestDatabase
  let dev: RunningServer
  let prod: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    dev = await startServer({ port: 0, database: database.options, botToken: "1:dev", dev: true, now: () => clock.now, plugins: [probePlugin] })
  }, 60_000)
  afterAll(async () => {
    await prod?.close()
    await dev?.close()
    await database?.stop()
  })

  it("is composed by every server, its dev endpoints only by a dev one; a plugin may depend on it", () => {
    const dependent = defineServerPlugin({ id: "needs-outbox", dependsOn: ["outbox"] })
    expect(composeServerModules([dependent], { dev: false }).map((m) => m.id)).toEqual([
      "kernel",
      "outbox",
      "bridge",
      "ledger",
      "analytics",
      "fingerprint",
      "operator",
      "needs-outbox",
    ])
    expect(composeServerModules([], { dev: true }).map((m) => m.id)).toEqual([
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
    ])
    expect(() => composeServerModules([defineServerPlugin({ id: "outbox" })], { dev: false })).toThrow("reserved")
  })

  it("the dev sender marks messages sent and the dev endpoints list them, newest first, by recipient", async () => {
    const first = await call(dev.url, "POST", "/api/outbox-probe/send", { body: { recipient: "Ada@Example.com", subject: "Code", body: "Your code: 123456" } })
    expect(first.body.status).toBe("sent")
    await call(dev.url, "POST", "/api/outbox-probe/send", { body: { recipient: "bob@example.com", subject: "Other <b>", body: "x & y" } })
    const second = await call(dev.url, "POST", "/api/outbox-probe/send", {
      body: { recipient: "ada@example.com", subject: "Code again", body: "Your code: 654321" },
    })

    const list = await call(dev.url, "GET", "/api/dev/outbox?recipient=ADA@example.com")
    expect(list.status).toBe(200)
    expect(list.body.messages.map((m: { id: number }) => m.id)).toEqual([second.body.id, first.body.id])
    expect(list.body.messages[0]).toMatchObject({ channel: "email", recipient: "ada@example.com", body: "Your code: 654321", status: "sent" })
    expect(Date.parse(list.body.messages[0].sent_at)).toBe(clock.now)
    expect((await call(dev.url, "GET", "/api/dev/outbox?limit=1")).body.messages).toHaveLength(1)
    expect((await call(dev.url, "GET", "/api/dev/outbox?limit=0")).status).toBe(400)

    const page = await fetch(`${dev.url}/api/dev/outbox.html`)
    expect(page.headers.get("content-type")).toContain("text/html")
    const html = await page.text()
    expect(html).toContain("Your code: 654321")
    // Escaped, never rendered as markup.
    expect(html).toContain("Other &lt;b&gt;")
    expect(html).toContain("x &amp; y")
  })

  it("without dev there are no outbox endpoints and messages wait as pending", async () => {
    await dev.close()
    prod = await startServer({ port: 0, database: database.options, botToken: "1:prod", dev: false, now: () => clock.now, plugins: [probePlugin] })
    const sent = await call(prod.url, "POST", "/api/outbox-probe/send", { body: { recipient: "carol@example.com", subject: "S", body: "B" } })
    expect(sent.body.status).toBe("pending")
    expect((await call(prod.url, "GET", "/api/dev/outbox")).status).toBe(404)
    expect((await call(prod.url, "GET", "/api/dev/outbox.html")).status).toBe(404)
    const rows = await prod.sql("select status, sent_at from outbox_messages where recipient = 'carol@example.com'")
    expect(rows).toEqual([{ status: "pending", sent_at: null }])
  })
})
