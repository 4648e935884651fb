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
