/** The signed server API: request signing, access tokens, applicant lookups, documents and review controls. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEV_SUMSUB, startSumsubSandbox, type RunningSumsubSandbox } from "./index.ts"
import { sumsubSignature } from "./http/signature.ts"
import { issueToken, openSession, review, signed, submitted, TINY_PNG, uploadDoc } from "./testing.ts"

let sandbox: RunningSumsubSandbox
let base = ""

beforeAll(async () => {
  sandbox = await startSumsubSandbox({ port: 0, dataDir: "memory" })
  base = sandbox.url
})
afterAll(() => sandbox.close())

describe("request signing", () => {
  it("accepts a correctly signed call and answers an origin without a trailing slash", async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const res = await signed<{ token: string; userId: string }>(base, "POST", "/resources/accessTokens/sdk", {
      userId: "u-signed",
      levelName: "basic-kyc-level",
    })
    expect(res.status).toBe(200)
    expect(res.json.userId).toBe("u-signed")
    expect(res.json.token).toMatch(/^_act-sbx-[\w-]{43}$/)
    expect(res.headers.get("x-correlation-id")).toMatch(/^req-/)
  })

  it("signs the path with its query exactly as requested", async () => {
    const res = await signed(base, "GET", "/resources/applicants/-;externalUserId=nobody/one?fields=x")
    expect(res.status).toBe(404)
  })

  it("refuses a bad signature, a wrong app token, a stale or future timestamp and missing headers with 401", async () => {
    const body = { userId: "u-bad", levelName: "basic-kyc-level" }
    const badSig = await signed(base, "POST", "/resources/accessTokens/sdk", body, { secretKey: "wrong" })
    expect(badSig.status).toBe(401)
    expect(badSig.json).toMatchObject({ code: 401, description: "request signature mismatch" })
    expect(badSig.json["correlationId"]).toBe(badSig.headers.get("x-correlation-id"))

    const otherBody = await signed(base, "POST", "/resources/accessTokens/sdk", body, { signedBody: JSON.stringify({ ...body, userId: "u-other" }) })
    expect(otherBody.status).toBe(401)

    const wrongToken = await signed(base, "POST", "/resources/accessTokens/sdk", body, { appToken: "sbx:someone-else" })
    expect(wrongToken.status).toBe(401)

    const now = Math.floor(Date.now() / 1000)
    for (const ts of [now - 301, now + 301]) {
      const stale = await signed(base, "POST", "/resources/accessTokens/sdk", body, { ts })
      expect(stale.status).toBe(401)
      expect(stale.json["description"]).toBe("request timestamp is too old or in the future")
    }
    expect((await signed(base, "POST", "/resources/accessTokens/sdk", body, { ts: now - 200 })).status).toBe(200)

    const bare = await fetch(`${base}/resources/applicants/abc/one`)
    expect(bare.status).toBe(401)
    const ts = String(now)
    const noSig = await fetch(`${base}/resources/applicants/abc/one`, { headers: { "X-App-Token": DEV_SUMSUB.appToken, "X-App-Access-Ts": ts } })
    expect(noSig.status).toBe(401)
    const upperHex = sumsubSignature(DEV_SUMSUB.secretKey, ts, "GET", "/resources/applicants/abc/one").toUpperCase()
    const upper = await fetch(`${base}/resources/applicants/abc/one`, {
      headers: { "X-App-Token": DEV_SUMSUB.appToken, "X-App-Access-Ts": ts, "X-App-Access-Sig": upperHex },
    })
    expect(upper.status).toBe(401)
  })
})

describe("access tokens", () => {
  it("validates the body and the level", async () => {
    const path = "/resources/accessTokens/sdk"
    expect((await signed(base, "POST", path, { userId: "u", levelName: "no-such-level" })).json).toMatchObject({ code: 400, description: "level not found" })
    expect((await signed(base, "POST", path, { userId: "", levelName: "basic-kyc-level" })).status).toBe(400)
    expect((await signed(base, "POST", path, { userId: "x".repeat(101), levelName: "basic-kyc-level" })).status).toBe(400)
    expect((await signed(base, "POST", path, { userId: "u", levelName: "basic-kyc-level", ttlInSecs: 86401 })).status).toBe(400)
    expect((await signed(base, "POST", path, { userId: "u", levelName: "basic-kyc-level", ttlInSecs: 0 })).status).toBe(400)
    expect((await signed(base, "POST", path, { userId: "u", levelName: "id-poa-and-liveness", ttlInSecs: 86400 })).status).toBe(200)
    expect((await signed(base, "POST", path, "not an object")).status).toBe(400)
  })

  it("issues distinct tokens for the same user", async () => {
    const a = await issueToken(base, "u-twice")
    const b = await issueToken(base, "u-twice")
    expect(a).not.toBe(b)
  })
})

describe("applicants", () => {
  it("finds an applicant by external user id and by id, with its status", async () => {
    const s = await openSession(base, "id-and-liveness")
    const byUser = await signed<{
      id: string
      externalUserId: string
      inspectionId: string
      levelName: string
      createdAt: string
      review: Record<string, unknown>
    }>(base, "GET", `/resources/applicants/-;externalUserId=${encodeURIComponent(s.userId)}/one`)
    expect(byUser.status).toBe(200)
    expect(byUser.json.id).toBe(s.applicantId)
    expect(byUser.json.id).toMatch(/^[0-9a-f]{24}$/)
    expect(byUser.json.inspectionId).toMatch(/^[0-9a-f]{24}$/)
    expect(byUser.json).toMatchObject({ externalUserId: s.userId, levelName: "id-and-liveness", review: { reviewStatus: "init", attemptCnt: 0 } })
    expect(byUser.json.createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)

    const byId = await signed(base, "GET", `/resources/applicants/${s.applicantId}/one`)
    expect(byId.json).toEqual(byUser.json)
    const status = await signed(base, "GET", `/resources/applicants/${s.applicantId}/status`)
    expect(status.json).toMatchObject({ reviewStatus: "init", levelName: "id-and-liveness", attemptCnt: 0 })
    expect(status.json["reviewResult"]).toBeUndefined()

    expect((await signed(base, "GET", "/resources/applicants/000000000000000000000000/one")).status).toBe(404)
    expect((await signed(base, "GET", "/resources/applicants/-;externalUserId=nobody-here/one")).status).toBe(404)
  })

  it("lists the current attempt's documents and serves their bytes only to signed calls", async () => {
    const s = await openSession(base)
    expect((await uploadDoc(base, s, "DRIVERS")).status).toBe(200)
    const { inspectionId } = (await signed<{ inspectionId: string }>(base, "GET", `/resources/applicants/${s.applicantId}/one`)).json
    const meta = await signed<{
      items: Array<{ id: string; idDocDef: { idDocType: string }; fileMetadata: { fileType: string; fileSize: number }; attemptId: string }>
    }>(base, "GET", `/resources/applicants/${s.applicantId}/metadata/resources`)
    expect(meta.json.items).toHaveLength(1)
    const item = meta.json.items[0]
    expect(item).toMatchObject({ idDocDef: { idDocType: "DRIVERS" }, fileMetadata: { fileType: "image/png", fileSize: TINY_PNG.length } })

    const path = `/resources/inspections/${inspectionId}/resources/${item?.id}`
    const ts = Math.floor(Date.now() / 1000)
    const res = await fetch(`${base}${path}`, {
      headers: {
        "X-App-Token": DEV_SUMSUB.appToken,
        "X-App-Access-Ts": String(ts),
        "X-App-Access-Sig": sumsubSignature(DEV_SUMSUB.secretKey, ts, "GET", path),
      },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("image/png")
    expect(Buffer.from(await res.arrayBuffer()).equals(TINY_PNG)).toBe(true)
    expect((await fetch(`${base}${path}`)).status).toBe(401)
    expect((await signed(base, "GET", `/resources/inspections/${inspectionId}/resources/999`)).status).toBe(404)
  })
})

describe("review controls", () => {
  it("refuses testCompleted outside review with 409 and a RED review without a reject type with 400", async () => {
    const s = await openSession(base)
    const early = await review(base, s.applicantId, { reviewAnswer: "GREEN" })
    expect(early.status).toBe(409)
    expect(early.json["description"]).toBe("applicant is not in review")
    expect((await signed(base, "POST", `/resources/applicants/${s.applicantId}/status/onHold`)).status).toBe(409)

    const p = await submitted(base)
    expect((await review(base, p.applicantId, { reviewAnswer: "RED" })).status).toBe(400)
    expect((await review(base, p.applicantId, { reviewAnswer: "MAYBE" })).status).toBe(400)
    expect((await review(base, "000000000000000000000000", { reviewAnswer: "GREEN" })).status).toBe(404)
  })

  it("moves pending to onHold, then completes it", async () => {
    const s = await submitted(base)
    expect((await signed(base, "POST", `/resources/applicants/${s.applicantId}/status/onHold`)).json).toEqual({ ok: 1 })
    expect((await signed(base, "GET", `/resources/applicants/${s.applicantId}/status`)).json["reviewStatus"]).toBe("onHold")
    const done = await review(base, s.applicantId, {
      reviewAnswer: "RED",
      reviewRejectType: "FINAL",
      rejectLabels: ["FORGERY"],
      moderationComment: "Declined",
      clientComment: "forged",
    })
    expect(done.json).toEqual({ ok: 1 })
    const status = await signed<Record<string, unknown>>(base, "GET", `/resources/applicants/${s.applicantId}/status`)
    expect(status.json).toMatchObject({
      reviewStatus: "completed",
      attemptCnt: 1,
      reviewResult: { reviewAnswer: "RED", reviewRejectType: "FINAL", rejectLabels: ["FORGERY"], moderationComment: "Declined", clientComment: "forged" },
    })
    expect(status.json["reviewDate"]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+0000$/)
    expect((await review(base, s.applicantId, { reviewAnswer: "GREEN" })).status).toBe(409)
  })

  it("answers unknown paths with Sumsub's error body", async () => {
    const res = await fetch(`${base}/nothing-here`)
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 404, correlationId: res.headers.get("x-correlation-id") })
  })
})
