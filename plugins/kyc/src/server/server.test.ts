import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, tma, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"

const BOT_TOKEN = "1234567:kyc-test"

describe("kyc server on PGlite", () => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, plugins: [serverPlugin] })
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (id: number) => {
    const initData = signInitData(
      { user: { id, first_name: "Note", language_code: "en" }, authDate: new Date(), queryId: `q${id}`, chatType: "sender" },
      BOT_TOKEN,
    )
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    expect(reply.status).toBe(200)
    return bearer(reply.body.access_token as string)
  }

  it("adds a note and lists it, per user (the migration's table)", async () => {
    const alice = await signIn(8_100_000_001)
    const bob = await signIn(8_100_000_002)
    expect((await call(server.url, "GET", "/api/kyc/notes", { authorization: alice })).body).toEqual({ items: [] })
    const added = await call(server.url, "POST", "/api/kyc/notes", { authorization: alice, body: { text: "hello" } })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ text: "hello" })
    expect((await call(server.url, "GET", "/api/kyc/notes", { authorization: alice })).body).toEqual({ items: [{ id: added.body.id, text: "hello" }] })
    expect((await call(server.url, "GET", "/api/kyc/notes", { authorization: bob })).body).toEqual({ items: [] })
  })

  it("answers bad input with the API's JSON error shape and a 4xx", async () => {
    const alice = await signIn(8_100_000_003)
    const reply = await call(server.url, "POST", "/api/kyc/notes", { authorization: alice, body: { text: "" } })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ _tag: expect.any(String), code: expect.any(String), message: expect.any(String) })
    expect((await call(server.url, "GET", "/api/kyc/notes")).status).toBe(401)
  })
})
