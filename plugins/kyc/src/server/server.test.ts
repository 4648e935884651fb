import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signContact, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { initUser, kycStatus } from "./testing.ts"

const BOT_TOKEN = "1234567:kyc-test"

describe("kyc server on PGlite (issue 19)", () => {
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

  const init = (id: number) => initUser(server.url, BOT_TOKEN, id)
  const signIn = async (id: number) => bearer((await init(id)).access_token)
  const contact = (userId: number, phone: string, ageSeconds = 0, token = BOT_TOKEN) =>
    signContact({ user_id: userId, phone_number: phone, first_name: "Ann" }, { botToken: token, authDateSeconds: Math.floor(Date.now() / 1000) - ageSeconds })
  const status = (authorization: string) => kycStatus(server.url, authorization)

  it("a new user is at level 0 with the phone step next, and the first read writes level 0's permissions to the user", async () => {
    const id = 8_200_000_001
    const auth = await signIn(id)
    expect((await init(id)).permissions.canUseP2p).toBe(true)
    const first = await status(auth)
    expect(first).toMatchObject({ level: "LEVEL_0", level1Status: "PHONE_NUMBER_REQUIRED", status: "SUCCESS", block: null, requiredLevelAfterKyc1: "LEVEL_1" })
    expect(first.permissions).toMatchObject({ canUseP2p: false, canRaffle: false, canWithdrawOuter: true })
    expect(first.blockedPermissions).toEqual(["canRaffle", "canUseP2p"])
    // What every plugin's server checks: the user's permissions.
    expect((await init(id)).permissions).toMatchObject({ canUseP2p: false, canRaffle: false, canWithdrawOuter: true })
  })

  it("reaches level 1 through phone and name; permissions follow (P2P opens)", async () => {
    const id = 8_200_000_002
    const auth = await signIn(id)
    const phone = await call(server.url, "POST", "/api/kyc/phone", { authorization: auth, body: { contactRawData: contact(id, "4915112345678") } })
    expect(phone.status).toBe(200)
    expect(phone.body).toMatchObject({
      status: "SUCCESS",
      data: { level: "LEVEL_0", level1Status: "SELF_DECLARED_NAME_REQUIRED", residenceCountryAlpha2: "DE", phoneMasked: "+49 ••• ••• 78" },
    })
    const name = await call(server.url, "POST", "/api/kyc/name", { authorization: auth, body: { firstName: "Ann", lastName: "Lee-O'Neil" } })
    expect(name.status).toBe(200)
    expect(name.body.data).toMatchObject({ level: "LEVEL_1", level1Status: "PASSED", permissions: { canUseP2p: true, canRaffle: true } })
    expect((await init(id)).permissions).toMatchObject({ canUseP2p: true, canRaffle: true })
  })

  it("a phone whose calling code names no single country asks for the country; a Russian resident gets no P2P", async () => {
    const id = 8_200_000_003
    const auth = await signIn(id)
    const phone = await call(server.url, "POST", "/api/kyc/phone", { authorization: auth, body: { contactRawData: contact(id, "+7 912 345 67 89") } })
    expect(phone.body.data).toMatchObject({ level1Status: "SELF_DECLARED_COUNTRY_REQUIRED", shouldShowCountryStep: true, residenceCountryAlpha2: null })
    const unsupported = await call(server.url, "POST", "/api/kyc/country", { authorization: auth, body: { country: "KP" } })
    expect(unsupported.status).toBe(400)
    expect(unsupported.body).toMatchObject({ code: "country_unsupported" })
    const bad = await call(server.url, "POST", "/api/kyc/country", { authorization: auth, body: { country: "russia" } })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: "invalid_request" })
    expect((await status(auth)).level1Status).toBe("SELF_DECLARED_COUNTRY_REQUIRED")
    const country = await call(server.url, "POST", "/api/kyc/country", { authorization: auth, body: { country: "RU" } })
    expect(country.body.data).toMatchObject({ level1Status: "SELF_DECLARED_NAME_REQUIRED", residenceCountryAlpha2: "RU" })
    const name = await call(server.url, "POST", "/api/kyc/name", { authorization: auth, body: { firstName: "Иван", lastName: "Петров" } })
    expect(name.body.data).toMatchObject({ level: "LEVEL_1", permissions: { canUseP2p: false, canRaffle: true } })
  })

  it("refuses a forged, expired or someone else's contact, and a bad name, leaving the status unchanged", async () => {
    const id = 8_200_000_004
    const auth = await signIn(id)
    const refused = async (body: unknown, path = "/api/kyc/phone") => {
      const reply = await call(server.url, "POST", path, { authorization: auth, body })
      expect(reply.status).toBe(400)
      return reply.body.code as string
    }
    expect(await refused({ contactRawData: contact(id, "4915112345678", 0, "999:other-bot") })).toBe("contact_invalid")
    expect(await refused({ contactRawData: contact(id, "4915112345678").replace("4915112345678", "4915199999999") })).toBe("contact_invalid")
    expect(await refused({ contactRawData: contact(id, "4915112345678", 3600) })).toBe("contact_expired")
    expect(await refused({ contactRawData: contact(id + 1, "4915112345678") })).toBe("contact_not_yours")
    expect(await refused({ contactRawData: contact(id, "12") })).toBe("phone_invalid")
    expect(await refused({ contactRawData: "" })).toBe("invalid_request")
    expect((await status(auth)).level1Status).toBe("PHONE_NUMBER_REQUIRED")
    // A step out of order is a conflict, not a change.
    const early = await call(server.url, "POST", "/api/kyc/name", { authorization: auth, body: { firstName: "Ann", lastName: "Lee" } })
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ code: "step_not_open" })
    await call(server.url, "POST", "/api/kyc/phone", { authorization: auth, body: { contactRawData: contact(id, "4915112345678") } })
    expect(await refused({ firstName: "Ann1", lastName: "Lee" }, "/api/kyc/name")).toBe("name_invalid")
    expect((await status(auth)).level1Status).toBe("SELF_DECLARED_NAME_REQUIRED")
    // The phone step is done: sharing again changes nothing.
    const again = await call(server.url, "POST", "/api/kyc/phone", { authorization: auth, body: { contactRawData: contact(id, "4930123456789") } })
    expect(again.status).toBe(409)
    expect((await status(auth)).phoneMasked).toBe("+49 ••• ••• 78")
  })

  it("two concurrent name steps: one passes, the other is refused, and level 1 is granted once", async () => {
    const id = 8_200_000_005
    const auth = await signIn(id)
    await call(server.url, "POST", "/api/kyc/phone", { authorization: auth, body: { contactRawData: contact(id, "4915112345678") } })
    const replies = await Promise.all(
      ["Ann", "Anna"].map((firstName) => call(server.url, "POST", "/api/kyc/name", { authorization: auth, body: { firstName, lastName: "Lee" } })),
    )
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409])
    expect((await status(auth)).level).toBe("LEVEL_1")
  })

  it("accepting the terms records CS_003, makes the user no longer new and answers the level and permissions (spec 3 §7.4)", async () => {
    const id = 8_200_000_006
    const auth = await signIn(id)
    expect(await server.sql("select is_new from kernel_users where id = $1", [id])).toEqual([{ is_new: true }])
    const accepted = await call(server.url, "POST", "/api/kyc/terms", { authorization: auth })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({ acceptedServiceTerms: true, kycLevel: "LEVEL_0", permissions: { canUseP2p: false, canWithdrawOuter: true } })
    expect((await status(auth)).entityInfo.consents).toEqual(["CS_003"])
    expect(await server.sql("select is_new from kernel_users where id = $1", [id])).toEqual([{ is_new: false }])
    // Accepting again changes nothing and records the consent once.
    expect((await call(server.url, "POST", "/api/kyc/terms", { authorization: auth })).status).toBe(200)
    expect((await status(auth)).entityInfo.consents).toEqual(["CS_003"])
  })

  it("needs a session", async () => {
    expect((await call(server.url, "GET", "/api/kyc/status")).status).toBe(401)
  })
})
