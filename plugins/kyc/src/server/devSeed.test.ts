import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoUsers, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { initUser, kycStatus } from "./testing.ts"

const BOT_TOKEN = "1234567:kyc-dev-seed-test"
const idOf = (kind: string) => demoUsers.find((demo) => demo.kind === kind)!.id

describe("the demo users' verification states on a dev server (issue 19)", () => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({ port: 0, dev: true, database: database.options, botToken: BOT_TOKEN, plugins: [serverPlugin] })
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const launchNew = () =>
    fetch(`${server.url}/api/dev/launch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: idOf("new"), platform: "ios", theme: "light", language: "en" }),
    })

  it("the dev launch's reset of the new demo user forgets its verification too", async () => {
    expect((await launchNew()).status).toBe(200)
    const id = idOf("new")
    const auth = bearer((await initUser(server.url, BOT_TOKEN, id)).access_token)
    await server.sql("insert into kyc_blocks (user_id, kind, code, required_action, created_at) values ($1, 'full', 'BR_001', 'CS_001', now())", [id])
    expect(await kycStatus(server.url, auth)).toMatchObject({ level: "BLOCKED" })
    expect((await launchNew()).status).toBe(200)
    expect(await server.sql("select 1 from kyc_verifications where user_id = $1 union all select 1 from kyc_blocks where user_id = $1", [id])).toEqual([])
    const fresh = bearer((await initUser(server.url, BOT_TOKEN, id)).access_token)
    expect(await kycStatus(server.url, fresh)).toMatchObject({ level: "LEVEL_0", level1Status: "PHONE_NUMBER_REQUIRED", block: null })
  })

  const statusOf = async (kind: string) => kycStatus(server.url, bearer((await initUser(server.url, BOT_TOKEN, idOf(kind))).access_token))

  it("Lena is at level 2, Bruno blocked by BR_001, Paula at level 1 with P2P restricted, and their permissions follow", async () => {
    expect(await statusOf("kyc_level2")).toMatchObject({
      level: "LEVEL_2",
      level1Status: "PASSED",
      residenceCountryAlpha2: "GB",
      permissions: { canUseP2p: true },
    })
    expect(await statusOf("kyc_blocked")).toMatchObject({ level: "BLOCKED", block: { code: "BR_001", requiredAction: "CS_001" } })
    expect((await initUser(server.url, BOT_TOKEN, idOf("kyc_blocked"))).permissions).toMatchObject({ canBuy: false, canWithdrawOuter: false })
    expect(await statusOf("kyc_partial")).toMatchObject({ level: "LEVEL_1", partialBlocks: [{ permission: "canUseP2p" }], blockedPermissions: ["canUseP2p"] })
    expect((await initUser(server.url, BOT_TOKEN, idOf("kyc_partial"))).permissions).toMatchObject({ canUseP2p: false, canRaffle: true })
  })
})
