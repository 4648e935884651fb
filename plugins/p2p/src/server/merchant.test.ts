import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defineServerPlugin, startServer, VerificationLimits, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { EXPORT_COLUMNS } from "../orderCsv.ts"
import { serverPlugin } from "./index.ts"
import { initUser, publishSaleOffer, signInOperator } from "./testSupport.ts"
import { p2pProbePlugin } from "./testing.ts"

/**
 * Issue 21: trusted merchants (criteria checked by the server, support's decisions in the operator
 * console with audit entries and bot messages, the badge in the market's lists) and the order-history
 * export (CSV quoting and formula neutralising, only the caller's orders, a single-use link that expires).
 */
const BOT_TOKEN = "1234567:p2p-merchant-test"
const USDT = 1_000_000n
const DAY = 86_400_000

/** The verification levels the test gives its users (the kyc plugin's port, without the kyc plugin). */
const levels = new Map<number, string>()
const levelsPlugin = defineServerPlugin({
  id: "p2p-test-levels",
  verificationLimits: Layer.succeed(
    VerificationLimits,
    VerificationLimits.of({
      allowance: (userId) => Effect.succeed({ level: levels.get(userId) ?? "LEVEL_0", limitUsdCents: null, windowDays: 30, nextLevel: null }),
    }),
  ),
})

describe("trusted merchants and the order-history export (issue 21)", () => {
  let database: TestDatabase
  let server: RunningServer
  let clock = Date.now()

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock,
      plugins: [custodyPlugin, serverPlugin, p2pProbePlugin, levelsPlugin],
      pluginConfig: {
        p2p: {
          makerFeeBps: 100,
          takerFeeBps: 0,
          sweepMs: 3_600_000,
          trustedMerchant: { minLevel: 2, minCompletedOrders30d: 1, minCompletionRatePercent: 90, minAccountAgeDays: 30, reapplyCooldownDays: 7 },
        },
      },
    })
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (id: number, name = "Ann") => bearer((await initUser(server.url, BOT_TOKEN, id, name, new Date(clock))).access_token)
  const post = (auth: string, path: string, body?: unknown) => call(server.url, "POST", path, { authorization: auth, ...(body === undefined ? {} : { body }) })
  const get = (auth: string, path: string) => call(server.url, "GET", path, { authorization: auth })
  let keys = 0
  const key = () => `m${Date.now()}x${++keys}`

  /** A SALE offer of 100 USDT at 100 RUB by SBP (auto-accept), funded through the Ledger. */
  const sellerOffer = async (userId: number, auth: string) => {
    await call(server.url, "POST", "/api/p2p-probe/fund", { body: { userId, currency: "USDT", amount: (200n * USDT).toString() } })
    return publishSaleOffer(server.url, auth, { holderName: "Mira Merchant", volume: 100n * USDT, maxOrderFiat: "1000000", idempotencyKey: key() })
  }
  const take = async (auth: string, offerId: number, amount: bigint) => {
    const order = await post(auth, "/api/p2p/orders", {
      offerId,
      amount: amount.toString(),
      priceCents: "10000",
      paymentMethodCode: "sbp",
      idempotencyKey: key(),
    })
    expect(order.status).toBe(200)
    return order.body.id as number
  }
  const move = (auth: string, orderId: number, step: string) => post(auth, "/api/p2p/orders/move", { orderId, move: step })
  const complete = async (seller: string, buyer: string, orderId: number) => {
    expect((await move(buyer, orderId, "paid")).body.status).toBe("PAID")
    expect((await move(seller, orderId, "received")).body.status).toBe("COMPLETED")
  }
  const outbox = async (userId: number) =>
    (await server.sql("select subject, body from outbox_messages where recipient = $1 order by id", [String(userId)])) as Array<{
      subject: string
      body: string
    }>
  const auditOf = async (action: string) =>
    (await server.sql("select target, before, after from operator_audit where action = $1 order by id", [action])) as Array<{
      target: string
      before: unknown
      after: unknown
    }>
  const listed = async (auth: string, offerId: number) => {
    const list = await post(auth, "/api/p2p/offers/list", { type: "SALE", crypto: "USDT", fiat: "RUB", paymentMethods: [], offset: 0, limit: 50 })
    return (list.body.items as Array<{ id: number; user: { trustedMerchant?: boolean } }>).find((offer) => offer.id === offerId)?.user
  }

  const merchantId = 9_300_000_001
  const buyerId = 9_300_000_002
  let offerId = 0
  let orderId = 0
  let applicationId = 0

  it("refuses an application until every criterion is met, then records it PENDING with the figures", async () => {
    let merchant = await signIn(merchantId, "Mira")
    const fresh = await get(merchant, "/api/p2p/merchant")
    expect(fresh.status).toBe(200)
    expect(fresh.body).toMatchObject({ trustedMerchant: false, canApply: false, application: null })
    expect(fresh.body.criteria).toEqual([
      { id: "verification", met: false, value: 0, required: 2 },
      { id: "orders30d", met: false, value: 0, required: 1 },
      { id: "completionRate", met: false, value: null, required: 90 },
      { id: "accountAge", met: false, value: 0, required: 30 },
    ])
    // The screen's gate is a convenience: the server checks again and stores nothing.
    const early = await post(merchant, "/api/p2p/merchant/apply")
    expect(early.status).toBe(400)
    expect(early.body).toMatchObject({ code: "merchant_criteria_not_met", fields: ["verification", "orders30d", "completionRate", "accountAge"] })
    expect(await server.sql("select id from p2p_merchant_applications where user_id = $1", [merchantId])).toEqual([])

    // Verified to level 2, 31 days later, one completed order in the last 30 days.
    levels.set(merchantId, "LEVEL_2")
    clock += 31 * DAY
    merchant = await signIn(merchantId, "Mira")
    const buyer = await signIn(buyerId, "Bo")
    offerId = await sellerOffer(merchantId, merchant)
    orderId = await take(buyer, offerId, 10n * USDT)
    await complete(merchant, buyer, orderId)

    const ready = await get(merchant, "/api/p2p/merchant")
    expect(ready.body.criteria.map((c: { met: boolean }) => c.met)).toEqual([true, true, true, true])
    expect(ready.body.criteria.find((c: { id: string }) => c.id === "completionRate").value).toBe(100)
    expect(ready.body.canApply).toBe(true)
    const applied = await post(merchant, "/api/p2p/merchant/apply")
    expect(applied.status).toBe(200)
    expect(applied.body).toMatchObject({ trustedMerchant: false, canApply: false, application: { status: "PENDING", reason: null, decidedAt: null } })
    applicationId = applied.body.application.id
    const [row] = (await server.sql("select facts from p2p_merchant_applications where id = $1", [applicationId])) as Array<{ facts: unknown }>
    expect(row!.facts).toMatchObject({ level: 2, completedOrders30d: 1, completionRatePercent: 100, accountAgeDays: 31 })
    expect((await outbox(merchantId)).map((m) => m.subject)).toContain("p2p.merchant.applied")
    // One at a time.
    const twice = await post(merchant, "/api/p2p/merchant/apply")
    expect(twice.body).toMatchObject({ code: "merchant_application_exists" })
    // Not trusted while pending.
    expect((await listed(buyer, offerId))?.trustedMerchant).toBe(false)
  })

  it("support approves in the console: the badge shows in the offer list, the order and the profile; audit entry and bot message", async () => {
    const merchant = await signIn(merchantId, "Mira")
    const buyer = await signIn(buyerId, "Bo")
    const ops = await signInOperator(server)
    const page = await ops.page("/merchants")
    expect(page).toContain(`data-merchant-application="${applicationId}"`)
    // The figures the user applied with.
    expect(page).toContain("level 2 · 1 orders in 30 days · rate 100 % · 31 days old")

    const approved = await ops.form("/merchants/approve", { application: String(applicationId) })
    expect(approved.status).toBe(303)
    expect(approved.headers.get("location")).toContain("approved")
    expect((await listed(buyer, offerId))?.trustedMerchant).toBe(true)
    expect((await get(merchant, "/api/p2p/user")).body.trustedMerchant).toBe(true)
    expect((await get(buyer, "/api/p2p/user")).body.trustedMerchant).toBe(false)
    const order = await post(buyer, "/api/p2p/orders/get", { orderId })
    expect(order.body.seller.trustedMerchant).toBe(true)
    expect(order.body.buyer.trustedMerchant).toBe(false)
    expect((await get(merchant, "/api/p2p/merchant")).body).toMatchObject({ trustedMerchant: true, canApply: false, application: { status: "APPROVED" } })

    const audit = await auditOf("p2p.merchant.approve")
    expect(audit).toEqual([
      {
        target: `user ${merchantId}, application ${applicationId}`,
        before: { userId: merchantId, status: "PENDING", reason: null },
        after: { status: "APPROVED", reason: null },
      },
    ])
    expect((await outbox(merchantId)).map((m) => m.subject)).toContain("p2p.merchant.approved")

    // A second decision on the same application changes nothing.
    const again = await ops.form("/merchants/approve", { application: String(applicationId) })
    expect(again.status).toBe(400)
    expect(await again.text()).toContain("is APPROVED, not PENDING")
    expect(await auditOf("p2p.merchant.approve")).toHaveLength(1)
    expect(await ops.page("/merchants")).toContain(`data-merchant-approved="${applicationId}"`)
  })

  it("a revocation and a rejection need a reason, which the user reads; a new application waits out the cooldown", async () => {
    let merchant = await signIn(merchantId, "Mira")
    const buyer = await signIn(buyerId, "Bo")
    const ops = await signInOperator(server)
    const bare = await ops.form("/merchants/revoke", { application: String(applicationId), reason: "  " })
    expect(bare.status).toBe(400)
    expect(await bare.text()).toContain("needs a reason")
    const revoked = await ops.form("/merchants/revoke", { application: String(applicationId), reason: "Buyers reported slow releases" })
    expect(revoked.status).toBe(303)
    expect((await listed(buyer, offerId))?.trustedMerchant).toBe(false)
    const status = (await get(merchant, "/api/p2p/merchant")).body
    expect(status).toMatchObject({ trustedMerchant: false, canApply: false, application: { status: "REVOKED", reason: "Buyers reported slow releases" } })
    expect(Date.parse(status.application.reapplyAt) - clock).toBe(7 * DAY)
    expect((await auditOf("p2p.merchant.revoke"))[0]).toMatchObject({
      target: `user ${merchantId}, application ${applicationId}`,
      after: { status: "REVOKED" },
    })
    expect((await outbox(merchantId)).at(-1)).toMatchObject({ subject: "p2p.merchant.revoked", body: expect.stringContaining("Buyers reported slow releases") })

    // Within the cooldown: refused; after it: a new application.
    const soon = await post(merchant, "/api/p2p/merchant/apply")
    expect(soon.body).toMatchObject({ code: "merchant_cooldown" })
    clock += 8 * DAY
    merchant = await signIn(merchantId, "Mira")
    const second = await post(merchant, "/api/p2p/merchant/apply")
    expect(second.body.application).toMatchObject({ status: "PENDING" })
    const secondId = second.body.application.id as number
    expect(secondId).not.toBe(applicationId)

    // The console's session did not outlive the 8 days.
    const later = await signInOperator(server)
    const noReason = await later.form("/merchants/reject", { application: String(secondId) })
    expect(noReason.status).toBe(400)
    const rejected = await later.form("/merchants/reject", { application: String(secondId), reason: "Most orders are with one buyer" })
    expect(rejected.status).toBe(303)
    const after = (await get(merchant, "/api/p2p/merchant")).body
    expect(after).toMatchObject({
      trustedMerchant: false,
      canApply: false,
      application: { id: secondId, status: "REJECTED", reason: "Most orders are with one buyer" },
    })
    expect((await auditOf("p2p.merchant.reject"))[0]).toMatchObject({ target: `user ${merchantId}, application ${secondId}`, before: { status: "PENDING" } })
    expect((await outbox(merchantId)).at(-1)).toMatchObject({
      subject: "p2p.merchant.rejected",
      body: expect.stringContaining("Most orders are with one buyer"),
    })
    // The page shows the decision; a bad id is refused.
    expect(await later.page("/merchants")).toContain(`data-merchant-decided="${secondId}"`)
    expect((await later.form("/merchants/approve", { application: "abc" })).status).toBe(400)
  })

  it("exports only the caller's orders as RFC 4180 CSV with formula cells neutralised, behind a single-use link", async () => {
    const sellerId = 9_300_000_010
    const seller = await signIn(sellerId, "Sam")
    // Counterparties whose names a spreadsheet would misread.
    const evil = await signIn(9_300_000_011, '=HYPERLINK("http://x","y")')
    const quoted = await signIn(9_300_000_012, 'Ann, "the" Trader')
    const offer = await sellerOffer(sellerId, seller)
    const first = await take(evil, offer, 10n * USDT)
    await complete(seller, evil, first)
    const second = await take(quoted, offer, 5n * USDT)
    expect((await move(quoted, second, "cancel")).body.status).toBe("CANCELLED")
    // Someone else's order.
    const otherSeller = await signIn(9_300_000_013, "Oz")
    const otherOrder = await take(quoted, await sellerOffer(9_300_000_013, otherSeller), 5n * USDT)

    const bad = await post(seller, "/api/p2p/orders/export", { period: "7d", delivery: "download" })
    expect(bad.status).toBe(400)
    const link = await post(seller, "/api/p2p/orders/export", { period: "all", delivery: "download" })
    expect(link.status).toBe(200)
    expect(link.body).toMatchObject({ orders: 2, delivery: "download", fileName: expect.stringMatching(/^p2p-orders-all-\d{4}-\d{2}-\d{2}\.csv$/) })
    expect(Date.parse(link.body.expiresAt) - clock).toBe(10 * 60_000)
    expect(link.body.url).toMatch(new RegExp(`^${server.url}/api/p2p/export/[A-Za-z0-9_-]{43}$`))
    // A download sends no bot message.
    expect((await outbox(sellerId)).map((m) => m.subject)).not.toContain("p2p.export.ready")

    // No Authorization header: the token is the credential.
    const file = await fetch(link.body.url)
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8")
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="${link.body.fileName}"`)
    expect(file.headers.get("cache-control")).toBe("no-store")
    const text = (await file.text()).replace(/^\uFEFF/, "")
    const lines = text.split("\r\n")
    expect(lines.at(-1)).toBe("")
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(","))
    expect(lines).toHaveLength(4)
    // Newest first; amounts as decimals, times in ISO UTC, the seller's own fee (1 % of 5 USDT).
    expect(lines[1]).toMatch(new RegExp(`^${second},\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,CANCELLED,seller,USDT,5,RUB,500,100,0.05,"Ann, ""the"" Trader",SBP,$`))
    expect(lines[2]).toMatch(new RegExp(`^${first},[^,]+Z,COMPLETED,seller,USDT,10,RUB,1000,100,0.1,"'=HYPERLINK\\(""http://x"",""y""\\)",SBP,\\d{4}-[^,]+Z$`))
    expect(text).not.toContain(`\r\n${otherOrder},`)

    // Single use: the second download is refused and the stored file is gone.
    const reused = await fetch(link.body.url)
    expect(reused.status).toBe(410)
    expect(await reused.json()).toMatchObject({ code: "export_link_used" })
    expect(await server.sql("select content from p2p_exports where user_id = $1 and used_at is not null", [sellerId])).toEqual([{ content: null }])
    // Unknown or malformed tokens.
    expect((await fetch(`${server.url}/api/p2p/export/${"A".repeat(43)}`)).status).toBe(404)
    expect((await fetch(`${server.url}/api/p2p/export/short`)).status).toBe(404)

    // A link not used within 10 minutes expires.
    const late = await post(seller, "/api/p2p/orders/export", { period: "all", delivery: "download" })
    clock += 10 * 60_000 + 1
    const expired = await fetch(late.body.url)
    expect(expired.status).toBe(410)
    expect(await expired.json()).toMatchObject({ code: "export_link_expired" })

    // A client without the download method: the link in a bot message.
    const viaBot = await post(await signIn(sellerId, "Sam"), "/api/p2p/orders/export", { period: "30d", delivery: "message" })
    expect(viaBot.body).toMatchObject({ delivery: "message", orders: 2 })
    const message = (await outbox(sellerId)).at(-1)!
    expect(message.subject).toBe("p2p.export.ready")
    expect(message.body).toContain(viaBot.body.url)
    expect((await fetch(viaBot.body.url)).status).toBe(200)

    // The period counts from now: 31 days later the last 30 days hold none of them.
    clock += 31 * DAY
    const recent = await post(await signIn(sellerId, "Sam"), "/api/p2p/orders/export", { period: "30d", delivery: "download" })
    expect(recent.body.orders).toBe(0)
    expect((await (await fetch(recent.body.url)).text()).replace(/^\uFEFF/, "")).toBe(`${EXPORT_COLUMNS.join(",")}\r\n`)
  })

  it("limits how many exports one user asks for in 10 minutes", async () => {
    const auth = await signIn(9_300_000_020, "Rae")
    for (let i = 0; i < 5; i++) expect((await post(auth, "/api/p2p/orders/export", { period: "all", delivery: "download" })).status).toBe(200)
    expect((await post(auth, "/api/p2p/orders/export", { period: "all", delivery: "download" })).body).toMatchObject({ code: "export_rate_limited" })
    clock += 10 * 60_000 + 1
    expect((await post(await signIn(9_300_000_020, "Rae"), "/api/p2p/orders/export", { period: "all", delivery: "download" })).status).toBe(200)
  })
})
