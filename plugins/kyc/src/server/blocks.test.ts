import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { initUser, kycStatus, signInOperator } from "./testing.ts"

const BOT_TOKEN = "1234567:kyc-blocks-test"

describe("kyc blocks, consents and the operator page (issue 19)", () => {
  let database: TestDatabase
  let server: RunningServer
  let cookie: string
  let csrf: string

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, plugins: [serverPlugin] })
    ;({ cookie, csrf } = await signInOperator(server))
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const init = (id: number) => initUser(server.url, BOT_TOKEN, id)
  const status = (authorization: string) => kycStatus(server.url, authorization)
  const staff = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/ops/kyc${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url, ...headers },
      body: new URLSearchParams({ csrf, ...fields }).toString(),
    })
  const blockIds = async (userId: number) =>
    (await server.sql("select id from kyc_blocks where user_id = $1 and lifted_at is null order by id", [userId])).map((row) =>
      Number((row as { id: unknown }).id),
    )

  it("the console lists the verification page; the page needs an operator session", async () => {
    expect(await (await fetch(`${server.url}/ops`, { headers: { cookie } })).text()).toContain('href="/ops/kyc"')
    const anonymous = await fetch(`${server.url}/ops/kyc?user=1`, { redirect: "manual" })
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get("location")).toBe("/ops/login")
  })

  it("a BR_001 block closes everything until the user accepts CS_001; each change is audited and the permissions follow", async () => {
    const id = 8_300_000_001
    const auth = bearer((await init(id)).access_token)
    await status(auth)
    const blocked = await staff("/block", { user: String(id), code: "BR_001", requiredAction: "CS_001" })
    expect(blocked.status).toBe(303)
    expect(blocked.headers.get("location")).toMatch(/^\/ops\/kyc\?user=8300000001&done=/)
    expect(await status(auth)).toMatchObject({
      level: "BLOCKED",
      status: "BLOCKED",
      level1Status: "USER_BLOCKED",
      block: { code: "BR_001", requiredAction: "CS_001" },
    })
    expect(Object.values((await init(id)).permissions).some((value) => value === true)).toBe(true) // accessTo* settings stay
    expect((await init(id)).permissions).toMatchObject({ canBuy: false, canReceive: false, canWithdrawOuter: false, canUseP2p: false })
    const page = await (await fetch(`${server.url}/ops/kyc?user=${id}`, { headers: { cookie } })).text()
    expect(page).toContain("BR_001")
    expect(page).toMatch(/data-level>BLOCKED</)

    // A step is refused while blocked.
    const step = await call(server.url, "POST", "/api/kyc/name", { authorization: auth, body: { firstName: "Ann", lastName: "Lee" } })
    expect(step.status).toBe(409)
    expect(step.body).toMatchObject({ code: "user_blocked" })

    const consent = await call(server.url, "POST", "/api/kyc/consent", { authorization: auth, body: { consent: "CS_001" } })
    expect(consent.status).toBe(200)
    expect(consent.body.data).toMatchObject({ level: "LEVEL_0", status: "SUCCESS", block: null, entityInfo: { consents: ["CS_001"] } })
    expect((await init(id)).permissions).toMatchObject({ canBuy: true, canReceive: true, canWithdrawOuter: true, canUseP2p: false })
    // Consenting again changes nothing and records the consent once.
    expect((await call(server.url, "POST", "/api/kyc/consent", { authorization: auth, body: { consent: "CS_001" } })).body.data.entityInfo.consents).toEqual([
      "CS_001",
    ])

    const audit = await server.sql("select actor, action, target from operator_audit where target = $1", [`user ${id}`])
    expect(audit).toEqual([{ actor: "operator:support", action: "kyc.block", target: `user ${id}` }])
  })

  it("a BR_015 block is not lifted by a consent; staff lift it", async () => {
    const id = 8_300_000_002
    const auth = bearer((await init(id)).access_token)
    await staff("/block", { user: String(id), code: "BR_015", requiredLevel: "LEVEL_2" })
    expect((await status(auth)).block).toEqual({ code: "BR_015", requiredAction: null, unblockingCondition: { type: "PASS_KYC", requiredLevel: "LEVEL_2" } })
    await call(server.url, "POST", "/api/kyc/consent", { authorization: auth, body: { consent: "CS_001" } })
    expect((await status(auth)).level).toBe("BLOCKED")
    const [blockId] = await blockIds(id)
    expect((await staff("/lift", { user: String(id), block: String(blockId) })).status).toBe(303)
    expect((await status(auth)).level).toBe("LEVEL_0")
    // Lifting it again is refused with the reason (400), and changes nothing.
    const again = await staff("/lift", { user: String(id), block: String(blockId) })
    expect(again.status).toBe(400)
    expect(await again.text()).toContain(`block ${blockId} is not active`)
  })

  it("a partial block closes one permission until CS_002; the level follows staff", async () => {
    const id = 8_300_000_003
    const auth = bearer((await init(id)).access_token)
    await staff("/level", { user: String(id), level: "LEVEL_2" })
    expect((await status(auth)).permissions).toMatchObject({ canUseP2p: true, canWithdrawOuter: true })
    await staff("/partial", { user: String(id), permission: "canWithdrawOuter" })
    const restricted = await status(auth)
    expect(restricted).toMatchObject({
      level: "LEVEL_2",
      status: "SUCCESS",
      partialBlocks: [{ code: "PBR_002", requiredAction: "CS_002", permission: "canWithdrawOuter" }],
      blockedPermissions: ["canWithdrawOuter"],
    })
    expect((await init(id)).permissions).toMatchObject({ canWithdrawOuter: false, canWithdrawInner: true })
    const twice = await staff("/partial", { user: String(id), permission: "canWithdrawOuter" })
    expect(twice.status).toBe(400)
    await call(server.url, "POST", "/api/kyc/consent", { authorization: auth, body: { consent: "CS_002" } })
    expect((await status(auth)).partialBlocks).toEqual([])
    expect((await init(id)).permissions.canWithdrawOuter).toBe(true)
  })

  it("refuses a change without the CSRF token or from another origin, and bad input with the reason", async () => {
    const id = 8_300_000_004
    await init(id)
    expect((await staff("/block", { user: String(id), code: "BR_001", csrf: "forged" })).status).toBe(403)
    expect((await staff("/block", { user: String(id), code: "BR_001" }, { origin: "https://evil.example" })).status).toBe(403)
    const bad = await staff("/block", { user: String(id), code: "BR_999" })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain("Choose a block code")
    const nobody = await staff("/level", { user: "999999", level: "LEVEL_1" })
    expect(nobody.status).toBe(400)
    expect(await blockIds(id)).toEqual([])
    expect((await server.sql("select count(*)::int as n from operator_audit where target = $1", [`user ${id}`]))[0]).toEqual({ n: 0 })
  })

  it("two operators blocking one user at once: one block is made, the other refused", async () => {
    const id = 8_300_000_005
    await init(id)
    const replies = await Promise.all([
      staff("/block", { user: String(id), code: "BR_001", requiredAction: "CS_001" }),
      staff("/block", { user: String(id), code: "BR_017" }),
    ])
    expect(replies.map((reply) => reply.status).sort()).toEqual([303, 400])
    expect(await blockIds(id)).toHaveLength(1)
  })
})
