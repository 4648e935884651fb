import { createHmac } from "node:crypto"
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signContact, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"
import { signRequest } from "./partner.ts"
import { initUser, kycStatus } from "./testing.ts"

const BOT_TOKEN = "1234567:kyc-partner-test"
const PARTNER = { appToken: "sbx:test-app", secretKey: "test-secret", webhookSecret: "test-webhook-secret" }

/** The partner's token endpoint as the tests need it: it checks the wallet's signature like the partner does. */
const startFakePartner = async () => {
  const calls: Array<{ path: string; body: string; signed: boolean }> = []
  const server: Server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
    request.on("end", () => {
      const ts = Number(request.headers["x-app-access-ts"])
      const expected = signRequest(PARTNER.secretKey, ts, request.method ?? "", request.url ?? "", body)
      const signed = request.headers["x-app-token"] === PARTNER.appToken && request.headers["x-app-access-sig"] === expected
      calls.push({ path: request.url ?? "", body, signed })
      if (!signed) {
        response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ code: 401, description: "invalid signature" }))
        return
      }
      const parsed = JSON.parse(body) as { userId: string }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ token: `_act-sbx-test-${parsed.userId}`, userId: parsed.userId }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const stamp = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "")

describe("levels 2 and 3 through the partner: token and webhooks (issue 19, decision 0930)", () => {
  let database: TestDatabase
  let server: RunningServer
  let partner: Awaited<ReturnType<typeof startFakePartner>>

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    partner = await startFakePartner()
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      plugins: [serverPlugin],
      pluginConfig: { kyc: { partner: { apiUrl: partner.url, sdkUrl: "http://127.0.0.1:1", ...PARTNER, sandbox: true } } },
    })
  })

  afterAll(async () => {
    await server?.close()
    await partner?.close()
    await database?.stop()
  })

  const signIn = async (id: number) => bearer((await initUser(server.url, BOT_TOKEN, id)).access_token)
  const sharePhone = async (id: number, auth: string) => {
    const contactRawData = signContact(
      { user_id: id, phone_number: "4915112345678", first_name: "Ann" },
      { botToken: BOT_TOKEN, authDateSeconds: Math.floor(Date.now() / 1000) },
    )
    expect((await call(server.url, "POST", "/api/kyc/phone", { authorization: auth, body: { contactRawData } })).status).toBe(200)
  }
  const token = (auth: string, level = "LEVEL_2") => call(server.url, "POST", "/api/kyc/partner/token", { authorization: auth, body: { level } })

  let clock = Date.UTC(2026, 10, 27, 12, 0, 0)
  const event = (userId: number, type: string, extra: Record<string, unknown> = {}, at = (clock += 1000)) => ({
    applicantId: `app-${userId}`,
    inspectionId: `insp-${userId}`,
    correlationId: `req-${at}`,
    externalUserId: String(userId),
    levelName: "id-and-liveness",
    type,
    sandboxMode: true,
    reviewStatus: type === "applicantReviewed" ? "completed" : "pending",
    createdAtMs: stamp(at),
    clientId: "wallet-test",
    ...extra,
  })
  const deliver = async (payload: object, options: { readonly secret?: string; readonly algorithm?: "sha256" | "sha512"; readonly raw?: string } = {}) => {
    const raw = options.raw ?? JSON.stringify(payload)
    const algorithm = options.algorithm ?? "sha256"
    const response = await fetch(`${server.url}/api/kyc/webhooks/sumsub`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-payload-digest": createHmac(algorithm, options.secret ?? PARTNER.webhookSecret)
          .update(raw)
          .digest("hex"),
        "x-payload-digest-alg": algorithm === "sha512" ? "HMAC_SHA512_HEX" : "HMAC_SHA256_HEX",
      },
      body: raw,
    })
    return { status: response.status, body: (await response.json()) as { outcome?: string; code?: string } }
  }
  const green = (userId: number) => event(userId, "applicantReviewed", { reviewResult: { reviewAnswer: "GREEN" } })
  const events = async (userId: number) =>
    (await server.sql(`select count(*)::int as n from kyc_events where user_id = $1 and kind = 'partner.review'`, [userId]))[0]?.n

  it("the token needs the phone first, is asked of the partner with a valid signature, and records the level the user goes for", async () => {
    const id = 8_300_000_001
    const auth = await signIn(id)
    const early = await token(auth)
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ code: "steps_first" })
    await sharePhone(id, auth)
    const answer = await token(auth)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ accessToken: `_act-sbx-test-${id}`, baseUrl: "http://127.0.0.1:1", level: "LEVEL_2", levelName: "id-and-liveness" })
    expect(partner.calls.at(-1)).toMatchObject({ path: "/resources/accessTokens/sdk", signed: true })
    expect(JSON.parse(partner.calls.at(-1)!.body)).toMatchObject({ userId: String(id), levelName: "id-and-liveness" })
    expect(await kycStatus(server.url, auth)).toMatchObject({ requiredLevelAfterKyc1: "LEVEL_2", level: "LEVEL_0", review: null })
  })

  it("a forged, unsigned or unreadable webhook is refused (401) and changes nothing", async () => {
    const id = 8_300_000_002
    const auth = await signIn(id)
    await sharePhone(id, auth)
    expect((await deliver(green(id), { secret: "not-the-secret" })).status).toBe(401)
    const unsigned = await fetch(`${server.url}/api/kyc/webhooks/sumsub`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(green(id)),
    })
    expect(unsigned.status).toBe(401)
    expect(await unsigned.json()).toMatchObject({ code: "webhook_signature_invalid" })
    // Signed, but the body is not the partner's shape: nothing is read from it.
    expect((await deliver({}, { raw: "{not json" })).status).toBe(401)
    const after = await kycStatus(server.url, auth)
    expect(after).toMatchObject({ level: "LEVEL_0", review: null })
    expect(await events(id)).toBe(0)
  })

  it("a GREEN review opens level 2 with its permissions and a bot message; the same delivery again changes nothing", async () => {
    const id = 8_300_000_003
    const auth = await signIn(id)
    await sharePhone(id, auth)
    expect((await deliver(event(id, "applicantPending"))).body.outcome).toBe("applied")
    expect(await kycStatus(server.url, auth)).toMatchObject({ review: { reviewStatus: "pending", answer: null } })
    expect((await token(auth)).body).toMatchObject({ code: "review_pending" })
    const review = green(id)
    expect((await deliver(review, { algorithm: "sha512" })).body.outcome).toBe("applied")
    const after = await kycStatus(server.url, auth)
    // Level 2 stands for the declared name: level 1 is passed without the name step.
    expect(after).toMatchObject({ level: "LEVEL_2", level1Status: "PASSED", review: { level: "LEVEL_2", reviewStatus: "completed", answer: "GREEN" } })
    expect((await initUser(server.url, BOT_TOKEN, id)).permissions).toMatchObject({ canUseP2p: true })
    const messages = await server.sql(`select body from outbox_messages where recipient = $1 and subject = 'kyc.review'`, [String(id)])
    expect(messages).toHaveLength(1)
    expect(String(messages[0]?.body)).toContain("level 2")
    // A redelivery (byte for byte the same) is acknowledged and ignored.
    expect(await deliver(review)).toEqual({ status: 200, body: { ok: true, outcome: "duplicate" } })
    expect(await events(id)).toBe(1)
    expect(await server.sql(`select 1 from outbox_messages where recipient = $1 and subject = 'kyc.review'`, [String(id)])).toHaveLength(1)
    expect((await token(auth)).body).toMatchObject({ code: "level_held" })
  })

  it("an older event delivered after a newer one (out of order, or replayed) is recorded but moves nothing", async () => {
    const id = 8_300_000_004
    const auth = await signIn(id)
    await sharePhone(id, auth)
    const pending = event(id, "applicantPending")
    const rejected = event(id, "applicantReviewed", {
      reviewResult: { reviewAnswer: "RED", reviewRejectType: "RETRY", rejectLabels: ["BAD_PROOF_OF_IDENTITY"], moderationComment: "The photo is blurred." },
    })
    expect((await deliver(rejected)).body.outcome).toBe("applied")
    expect((await deliver(pending)).body.outcome).toBe("stale")
    const after = await kycStatus(server.url, auth)
    expect(after).toMatchObject({
      level: "LEVEL_0",
      review: {
        reviewStatus: "completed",
        answer: "RED",
        rejectType: "RETRY",
        rejectLabels: ["BAD_PROOF_OF_IDENTITY"],
        moderationComment: "The photo is blurred.",
      },
    })
    // A retry rejection lets the user resubmit: a new token is given.
    expect((await token(auth)).status).toBe(200)
  })

  it("a RED review after a GREEN one takes level 2 back; a final rejection closes the flow", async () => {
    const id = 8_300_000_005
    const auth = await signIn(id)
    await sharePhone(id, auth)
    await deliver(green(id))
    expect(await kycStatus(server.url, auth)).toMatchObject({ level: "LEVEL_2" })
    await deliver(event(id, "applicantReviewed", { reviewResult: { reviewAnswer: "RED", reviewRejectType: "FINAL", rejectLabels: ["FORGERY"] } }))
    const after = await kycStatus(server.url, auth)
    expect(after).toMatchObject({ level: "LEVEL_0", review: { answer: "RED", rejectType: "FINAL" } })
    expect((await token(auth)).body).toMatchObject({ code: "review_final" })
  })

  it("the same review delivered five times at once is applied once", async () => {
    const id = 8_300_000_006
    const auth = await signIn(id)
    await sharePhone(id, auth)
    const review = green(id)
    const outcomes = (await Promise.all(Array.from({ length: 5 }, () => deliver(review)))).map((answer) => answer.body.outcome)
    expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(4)
    expect(await events(id)).toBe(1)
    expect(await kycStatus(server.url, auth)).toMatchObject({ level: "LEVEL_2" })
  })

  it("a user blocked until they pass level 2 (BR_015, PASS_KYC) may open the partner's check; the approval lifts the block", async () => {
    const id = 8_300_000_007
    const auth = await signIn(id)
    await kycStatus(server.url, auth)
    await server.sql("insert into kyc_blocks (user_id, kind, code, required_level, created_at) values ($1, 'full', 'BR_015', 'LEVEL_2', now())", [id])
    expect(await kycStatus(server.url, auth)).toMatchObject({ level: "BLOCKED", block: { code: "BR_015" } })
    // No phone shared: the document is the way out of this block.
    expect((await token(auth)).status).toBe(200)
    await deliver(green(id))
    expect(await kycStatus(server.url, auth)).toMatchObject({ level: "LEVEL_2", status: "SUCCESS", block: null })
    expect((await initUser(server.url, BOT_TOKEN, id)).permissions).toMatchObject({ canReceive: true, canUseP2p: true })
  })

  it("a user blocked without a way through verification (BR_001) gets no token", async () => {
    const id = 8_300_000_008
    const auth = await signIn(id)
    await sharePhone(id, auth)
    await server.sql("insert into kyc_blocks (user_id, kind, code, required_action, created_at) values ($1, 'full', 'BR_001', 'CS_001', now())", [id])
    expect((await token(auth)).body).toMatchObject({ code: "user_blocked" })
  })

  it("a webhook for a user the wallet does not know is acknowledged and changes nothing", async () => {
    expect((await deliver(green(8_399_999_999))).body.outcome).toBe("unknown_user")
  })
})
