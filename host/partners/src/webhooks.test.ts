/** Webhooks: bodies and digests, retries, the waiting outbox, and the duplicate and reorder chaos. */
import { createHmac } from "node:crypto"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { DEV_SUMSUB, startSumsubSandbox, type RunningSumsubSandbox } from "./index.ts"
import { openSession, review, signed, startReceiver, submitted, type Receiver } from "./testing.ts"

let sandbox: RunningSumsubSandbox
let receiver: Receiver
let base = ""

beforeAll(async () => {
  receiver = await startReceiver()
  sandbox = await startSumsubSandbox({ port: 0, dataDir: "memory", webhookUrl: receiver.url, retryDelaysMs: [50, 100] })
  base = sandbox.url
})
afterAll(async () => {
  await sandbox.close()
  await receiver.close()
})
afterEach(() => {
  sandbox.setChaos({})
  receiver.respond = () => 200
})

const types = (applicantId: string): string[] => receiver.forApplicant(applicantId).map((r) => r.json.type)

describe("webhooks", () => {
  it("delivers the applicant's events in order, signed with the webhook secret", async () => {
    const s = await submitted(base)
    expect((await review(base, s.applicantId, { reviewAnswer: "GREEN" })).status).toBe(200)
    await sandbox.idle()
    expect(types(s.applicantId)).toEqual(["applicantCreated", "applicantPending", "applicantReviewed"])

    const reviewed = receiver.forApplicant(s.applicantId)[2]
    if (!reviewed) throw new Error("no applicantReviewed")
    expect(reviewed.headers["content-type"]).toBe("application/json")
    expect(reviewed.headers["x-payload-digest-alg"]).toBe("HMAC_SHA256_HEX")
    expect(reviewed.headers["x-payload-digest"]).toBe(createHmac("sha256", DEV_SUMSUB.webhookSecret).update(reviewed.body).digest("hex"))
    expect(reviewed.headers["x-payload-digest"]).not.toBe(createHmac("sha256", "another secret").update(reviewed.body).digest("hex"))
    const { inspectionId } = (await signed<{ inspectionId: string }>(base, "GET", `/resources/applicants/${s.applicantId}/one`)).json
    expect(reviewed.json).toMatchObject({
      applicantId: s.applicantId,
      inspectionId,
      externalUserId: s.userId,
      levelName: "basic-kyc-level",
      type: "applicantReviewed",
      sandboxMode: true,
      reviewStatus: "completed",
      clientId: "wallet-dev",
      reviewResult: { reviewAnswer: "GREEN" },
    })
    expect(reviewed.json["correlationId"]).toMatch(/^req-/)
    expect(reviewed.json["createdAtMs"]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/)
    expect(reviewed.json["createdAt"]).toBe(reviewed.json["createdAtMs"])
    expect(Object.keys(reviewed.json).slice(0, 6)).toEqual(["applicantId", "inspectionId", "correlationId", "externalUserId", "levelName", "type"])
    const pending = receiver.forApplicant(s.applicantId)[1]
    expect(pending?.json).toMatchObject({ type: "applicantPending", reviewStatus: "pending" })
    expect(pending?.json.reviewResult).toBeUndefined()
  })

  it("reports onHold and a level change", async () => {
    const s = await submitted(base)
    await signed(base, "POST", `/resources/applicants/${s.applicantId}/status/onHold`)
    await review(base, s.applicantId, { reviewAnswer: "RED", reviewRejectType: "RETRY", rejectLabels: ["BAD_FACE_MATCHING"] })
    const token = (await signed<{ token: string }>(base, "POST", "/resources/accessTokens/sdk", { userId: s.userId, levelName: "id-and-liveness" })).json.token
    await fetch(`${base}/resources/sdk/session`, {
      method: "POST",
      headers: { "X-Access-Token": token },
      body: JSON.stringify({ sessionId: "session-level-change" }),
    })
    await sandbox.idle()
    expect(types(s.applicantId)).toEqual(["applicantCreated", "applicantPending", "applicantOnHold", "applicantReviewed", "applicantLevelChanged"])
    const [onHold, reviewed, changed] = receiver.forApplicant(s.applicantId).slice(2)
    expect(onHold?.json.reviewStatus).toBe("onHold")
    expect(reviewed?.json).toMatchObject({ reviewResult: { reviewAnswer: "RED", reviewRejectType: "RETRY", rejectLabels: ["BAD_FACE_MATCHING"] } })
    expect(changed?.json).toMatchObject({ levelName: "id-and-liveness", reviewStatus: "init" })
  })

  it("retries a webhook the receiver refused", async () => {
    let refused = 0
    receiver.respond = (_n, r) => (r.json.type === "applicantCreated" && refused++ === 0 ? 500 : 200)
    const s = await openSession(base)
    await sandbox.idle()
    expect(types(s.applicantId)).toEqual(["applicantCreated", "applicantCreated"])
    const [first, second] = receiver.forApplicant(s.applicantId)
    expect(second?.body).toBe(first?.body)
  })

  it("gives up after the last retry delay", async () => {
    receiver.respond = (_n, r) => (r.json.type === "applicantCreated" ? 503 : 200)
    const s = await openSession(base)
    await sandbox.idle()
    expect(types(s.applicantId)).toEqual(["applicantCreated", "applicantCreated", "applicantCreated"])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(types(s.applicantId)).toHaveLength(3)
  })

  it("a later event is not held up by an earlier one waiting for its retry", async () => {
    receiver.respond = (_n, r) => (r.json.type === "applicantCreated" ? 500 : 200)
    const s = await submitted(base)
    await sandbox.idle()
    const seen = types(s.applicantId)
    expect(seen.filter((t) => t === "applicantCreated")).toHaveLength(3)
    expect(seen).toContain("applicantPending")
  })

  it("with duplicate chaos delivers a webhook twice with the same body and digest", async () => {
    sandbox.setChaos({ duplicate: 1 })
    const s = await openSession(base)
    await sandbox.idle()
    const got = receiver.forApplicant(s.applicantId)
    expect(got.map((r) => r.json.type)).toEqual(["applicantCreated", "applicantCreated"])
    expect(got[1]?.body).toBe(got[0]?.body)
    expect(got[1]?.headers["x-payload-digest"]).toBe(got[0]?.headers["x-payload-digest"])
  })

  it("with reorder chaos delivers applicantReviewed before applicantPending", async () => {
    sandbox.setChaos({ reorder: 1 })
    const s = await submitted(base)
    await sandbox.idle()
    expect(types(s.applicantId)).toEqual(["applicantCreated"])
    await review(base, s.applicantId, { reviewAnswer: "GREEN" })
    await sandbox.idle()
    expect(types(s.applicantId)).toEqual(["applicantCreated", "applicantReviewed", "applicantPending"])
  })
})

describe("webhooks without a URL, HMAC_SHA512_HEX", () => {
  it("keeps events until a webhook URL is set, then delivers them with a SHA-512 digest", async () => {
    const other = await startSumsubSandbox({ port: 0, dataDir: "memory", digestAlg: "HMAC_SHA512_HEX", webhookSecret: "another-webhook-secret" })
    try {
      const s = await submitted(other.url)
      await other.idle()
      await new Promise((resolve) => setTimeout(resolve, 250))
      expect(types(s.applicantId)).toEqual([])
      other.setWebhookUrl(receiver.url)
      await other.idle()
      const got = receiver.forApplicant(s.applicantId)
      expect(got.map((r) => r.json.type)).toEqual(["applicantCreated", "applicantPending"])
      for (const r of got) {
        expect(r.headers["x-payload-digest-alg"]).toBe("HMAC_SHA512_HEX")
        expect(r.headers["x-payload-digest"]).toBe(createHmac("sha512", "another-webhook-secret").update(r.body).digest("hex"))
      }
    } finally {
      await other.close()
    }
  })
})
