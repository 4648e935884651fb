/** The WebSDK's API: single-use tokens bound to a session, uploads, submission and resubmission after RED RETRY. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startSumsubSandbox, type RunningSumsubSandbox } from "./index.ts"
import { issueToken, movableClock, openSession, review, sdk, signed, submitted, TINY_JPEG, TINY_PNG, uniqueUser, uploadDoc } from "./testing.ts"

const clock = movableClock()
let sandbox: RunningSumsubSandbox
let base = ""

beforeAll(async () => {
  sandbox = await startSumsubSandbox({ port: 0, dataDir: "memory", now: clock.now })
  base = sandbox.url
})
afterAll(() => sandbox.close())
afterEach(() => clock.reset())

const session = (token: string, sessionId: string) => sdk<Record<string, unknown>>(base, token, "POST", "/resources/sdk/session", { sessionId })

describe("SDK sessions", () => {
  it("creates the applicant at the token's level and answers its status and files", async () => {
    const userId = uniqueUser()
    const token = await issueToken(base, userId, "id-and-liveness", {}, clock.now)
    const res = await session(token, "session-one-aaaa")
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ levelName: "id-and-liveness", status: { reviewStatus: "init", attemptCnt: 0, levelName: "id-and-liveness" }, files: [] })
    expect(res.json["applicantId"]).toMatch(/^[0-9a-f]{24}$/)
  })

  it("binds a token to its first session: the same session may reopen it, another gets invalid-token", async () => {
    const token = await issueToken(base, uniqueUser(), "basic-kyc-level", {}, clock.now)
    expect((await session(token, "session-first-1")).status).toBe(200)
    expect((await session(token, "session-first-1")).status).toBe(200)
    const second = await session(token, "session-second-2")
    expect(second.status).toBe(401)
    expect(second.json).toMatchObject({ code: 401, errorName: "invalid-token" })
  })

  it("refuses an unknown, a missing and an expired token with invalid-token", async () => {
    expect((await session("_act-sbx-not-a-token", "session-unknown")).json["errorName"]).toBe("invalid-token")
    const missing = await fetch(`${base}/resources/sdk/session`, { method: "POST", body: JSON.stringify({ sessionId: "session-missing" }) })
    expect(missing.status).toBe(401)
    const token = await issueToken(base, uniqueUser(), "basic-kyc-level", { ttlInSecs: 60 }, clock.now)
    clock.advance(61_000)
    const expired = await session(token, "session-expired")
    expect(expired.status).toBe(401)
    expect(expired.json["errorName"]).toBe("invalid-token")
  })

  it("refuses SDK calls with an expired token after the session was opened", async () => {
    const s = await openSession(base, "basic-kyc-level", clock.now)
    clock.advance(601_000)
    const status = await sdk(base, s.token, "GET", `/resources/sdk/applicants/${s.applicantId}/status`)
    expect(status.status).toBe(401)
    expect(status.json["errorName"]).toBe("invalid-token")
  })

  it("keeps a token to its own applicant", async () => {
    const a = await openSession(base, "basic-kyc-level", clock.now)
    const b = await openSession(base, "basic-kyc-level", clock.now)
    expect((await sdk(base, a.token, "GET", `/resources/sdk/applicants/${b.applicantId}/status`)).status).toBe(403)
    expect((await uploadDoc(base, { ...a, applicantId: b.applicantId }, "PASSPORT")).status).toBe(403)
  })

  it("moves an applicant to the level of a new token unless it is in review", async () => {
    const s = await openSession(base, "basic-kyc-level", clock.now)
    expect((await uploadDoc(base, s, "PASSPORT")).status).toBe(200)
    const token = await issueToken(base, s.userId, "id-and-liveness", {}, clock.now)
    const moved = await session(token, `session-moved-${s.userId}`)
    expect(moved.json).toMatchObject({ applicantId: s.applicantId, levelName: "id-and-liveness", status: { reviewStatus: "init" }, files: [] })

    const p = await submitted(base)
    const other = await issueToken(base, p.userId, "id-poa-and-liveness", {}, clock.now)
    const kept = await session(other, `session-kept-${p.userId}`)
    expect(kept.json).toMatchObject({ levelName: "basic-kyc-level", status: { reviewStatus: "pending", attemptCnt: 1 } })
  })
})

describe("uploads", () => {
  it("accepts a tiny PNG and answers its metadata", async () => {
    const s = await openSession(base, "basic-kyc-level", clock.now)
    const res = await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/idDoc?idDocType=PASSPORT&country=DEU`, TINY_PNG, {
      "content-type": "image/png",
      "x-file-name": encodeURIComponent("мой паспорт.png"),
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      idDocDef: { idDocType: "PASSPORT", country: "DEU" },
      fileMetadata: { fileName: "мой паспорт.png", fileType: "image/png", fileSize: TINY_PNG.length },
    })
    expect(res.json["id"]).toMatch(/^\d+$/)
    expect(res.json["addedDate"]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect((await uploadDoc(base, s, "SELFIE", TINY_JPEG, "image/jpeg")).status).toBe(200)
    const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.from([4, 0, 0, 0]), Buffer.from("WEBPVP8 ")])
    expect((await uploadDoc(base, s, "SELFIE", webp, "image/webp")).status).toBe(200)
  })

  it("refuses oversize, empty, non-image and mismatched uploads", async () => {
    const s = await openSession(base, "basic-kyc-level", clock.now)
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)])
    const oversize = await uploadDoc(base, s, "PASSPORT", big)
    expect(oversize.status).toBe(413)
    expect(oversize.json["description"]).toBe("the file is larger than 5 MB")

    const notImage = "the file is not a JPEG, PNG or WebP image"
    for (const [bytes, type] of [
      [Buffer.alloc(0), "image/png"],
      [Buffer.from("%PDF-1.7 not an image"), "image/png"],
      [Buffer.from("%PDF-1.7 not an image"), "application/pdf"],
      [TINY_PNG, "image/jpeg"],
      [TINY_JPEG, "image/png"],
      [TINY_PNG, "image/gif"],
    ] as const) {
      const res = await uploadDoc(base, s, "PASSPORT", bytes, type)
      expect(res.status, type).toBe(400)
      expect(res.json["description"]).toBe(notImage)
    }
    expect((await uploadDoc(base, s, "SELFIE_VIDEO")).status).toBe(400)
    expect(
      (
        await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/idDoc?idDocType=PASSPORT&country=de`, TINY_PNG, {
          "content-type": "image/png",
        })
      ).status,
    ).toBe(400)
    const meta = await signed<{ items: unknown[] }>(base, "GET", `/resources/applicants/${s.applicantId}/metadata/resources`, undefined, { now: clock.now })
    expect(meta.json.items).toEqual([])
  })

  it("replaces the step's document in the current attempt", async () => {
    const s = await openSession(base, "basic-kyc-level", clock.now)
    await uploadDoc(base, s, "PASSPORT")
    await uploadDoc(base, s, "ID_CARD", TINY_JPEG, "image/jpeg")
    await uploadDoc(base, s, "SELFIE")
    await uploadDoc(base, s, "SELFIE", TINY_JPEG, "image/jpeg")
    const meta = await signed<{ items: Array<{ idDocDef: { idDocType: string }; fileMetadata: { fileType: string } }> }>(
      base,
      "GET",
      `/resources/applicants/${s.applicantId}/metadata/resources`,
      undefined,
      { now: clock.now },
    )
    expect(meta.json.items.map((i) => [i.idDocDef.idDocType, i.fileMetadata.fileType])).toEqual([
      ["ID_CARD", "image/jpeg"],
      ["SELFIE", "image/jpeg"],
    ])
  })
})

describe("submission", () => {
  it("refuses a submission with documents missing", async () => {
    const s = await openSession(base, "basic-kyc-level", clock.now)
    const none = await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/submit`)
    expect(none.status).toBe(400)
    expect(none.json["description"]).toContain("IDENTITY")
    expect(none.json["description"]).toContain("SELFIE")
    await uploadDoc(base, s, "SELFIE")
    const noId = await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/submit`)
    expect(noId.status).toBe(400)
    expect(noId.json["description"]).toContain("IDENTITY")
    expect(noId.json["description"]).not.toContain("SELFIE (")
  })

  it("submits once: pending, one attempt, uploads and resubmission refused while in review", async () => {
    const s = await submitted(base)
    const status = await sdk(base, s.token, "GET", `/resources/sdk/applicants/${s.applicantId}/status`)
    expect(status.json).toMatchObject({ reviewStatus: "pending", attemptCnt: 1, levelName: "basic-kyc-level" })
    expect((await uploadDoc(base, s, "PASSPORT")).status).toBe(409)
    expect((await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/submit`)).status).toBe(409)
  })

  it("after RED RETRY takes new uploads and a resubmission built from them, the other documents carried over", async () => {
    const s = await submitted(base)
    const first = await signed<{ items: Array<{ id: string; attemptId: string }> }>(
      base,
      "GET",
      `/resources/applicants/${s.applicantId}/metadata/resources`,
      undefined,
      {
        now: clock.now,
      },
    )
    expect(
      (await review(base, s.applicantId, { reviewAnswer: "RED", reviewRejectType: "RETRY", rejectLabels: ["BAD_SELFIE"], moderationComment: "Blurry selfie" }))
        .status,
    ).toBe(200)
    const rejected = await sdk<{ attemptId: string }>(base, s.token, "GET", `/resources/sdk/applicants/${s.applicantId}/status`)
    expect(rejected.json).toMatchObject({ reviewStatus: "completed", reviewResult: { reviewAnswer: "RED", reviewRejectType: "RETRY" } })
    const oldAttempt = first.json.items[0]?.attemptId
    expect(rejected.json.attemptId).not.toBe(oldAttempt)

    // nothing sent again yet: the documents of the rejected attempt are there, but a resubmission needs a new one
    const reopened = await session(await issueToken(base, s.userId, "basic-kyc-level", {}, clock.now), `session-retry-${s.userId}`)
    expect(reopened.json).toMatchObject({
      status: { reviewStatus: "completed", reviewResult: { moderationComment: "Blurry selfie" } },
      files: [
        { idDocType: "PASSPORT", attemptId: oldAttempt },
        { idDocType: "SELFIE", attemptId: oldAttempt },
      ],
    })
    const early = await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/submit`)
    expect(early.status).toBe(400)
    expect(early.json["description"]).toBe("upload at least one document again after the rejection")

    expect((await uploadDoc(base, s, "SELFIE", TINY_JPEG, "image/jpeg")).status).toBe(200)
    const again = await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/submit`)
    expect(again.status).toBe(200)
    expect(again.json).toMatchObject({ reviewStatus: "pending", attemptCnt: 2 })
    expect(again.json["reviewResult"]).toBeUndefined()
    const meta = await signed<{ items: Array<{ id: string; idDocDef: { idDocType: string }; fileMetadata: { fileType: string }; attemptId: string }> }>(
      base,
      "GET",
      `/resources/applicants/${s.applicantId}/metadata/resources`,
      undefined,
      { now: clock.now },
    )
    expect(meta.json.items.map((i) => [i.idDocDef.idDocType, i.fileMetadata.fileType, i.attemptId])).toEqual([
      ["PASSPORT", "image/png", oldAttempt],
      ["SELFIE", "image/jpeg", rejected.json.attemptId],
    ])
    // the replaced selfie stays fetchable by its image id
    const { inspectionId } = (await signed<{ inspectionId: string }>(base, "GET", `/resources/applicants/${s.applicantId}/one`, undefined, { now: clock.now }))
      .json
    const oldSelfie = first.json.items[1]?.id
    expect((await signed(base, "GET", `/resources/inspections/${inspectionId}/resources/${oldSelfie}`, undefined, { now: clock.now })).status).toBe(200)

    expect((await review(base, s.applicantId, { reviewAnswer: "GREEN" })).status).toBe(200)
    expect((await uploadDoc(base, s, "PASSPORT")).status).toBe(409)
  })

  it("keeps a RED FINAL applicant closed", async () => {
    const s = await submitted(base)
    await review(base, s.applicantId, { reviewAnswer: "RED", reviewRejectType: "FINAL" })
    expect((await uploadDoc(base, s, "PASSPORT")).status).toBe(409)
    expect((await sdk(base, s.token, "POST", `/resources/sdk/applicants/${s.applicantId}/submit`)).status).toBe(409)
  })
})
