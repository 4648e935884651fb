import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { serverPlugin } from "./index.ts"
import { initUser, publishSaleOffer, signInOperator } from "./testSupport.ts"
import { p2pProbePlugin } from "./testing.ts"

const BOT_TOKEN = "1234567:p2p-reputation-test"
const USDT = 1_000_000n
const DAY = 86_400_000

/**
 * Issue 21 reputation, end to end over HTTP on PGlite with a fake clock: completion rates after completed,
 * cancelled and expired orders (whose fault), the anti-wash cap per pair, the 30-day window, average release
 * and payment times, and feedback (one per side, only parties, only after completion).
 */
describe("P2P reputation (issue 21)", () => {
  let database: TestDatabase
  let server: RunningServer
  let clock = Date.parse("2030-01-01T10:00:00Z")

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock,
      // The test moves the clock by weeks; a token outlives it.
      accessTokenTtlSeconds: 120 * 86_400,
      plugins: [custodyPlugin, serverPlugin, p2pProbePlugin],
      pluginConfig: { p2p: { makerFeeBps: 0, takerFeeBps: 0, maxOpenOrdersPerOffer: 10, sweepMs: 3_600_000 } },
    })
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const tick = (seconds: number) => {
    clock += seconds * 1000
  }
  const signIn = async (id: number, name = "Ann") => bearer((await initUser(server.url, BOT_TOKEN, id, name, new Date(clock))).access_token)
  const post = (auth: string, path: string, body?: unknown) => call(server.url, "POST", path, { authorization: auth, ...(body === undefined ? {} : { body }) })
  const fund = (userId: number, amount: bigint) =>
    call(server.url, "POST", "/api/p2p-probe/fund", { body: { userId, currency: "USDT", amount: amount.toString() } })
  let keys = 0
  const key = () => `rep${Date.now()}x${++keys}`

  /** A trader: signed in, funded, with SBP details and a SALE offer of 200 USDT at 100 RUB (auto-accept or not). */
  const trader = async (id: number, name: string, autoAccept = true) => {
    const auth = await signIn(id, name)
    await fund(id, 500n * USDT)
    const offerId = await publishSaleOffer(server.url, auth, {
      holderName: "Test Trader",
      volume: 200n * USDT,
      maxOrderFiat: "1000000",
      autoAccept,
      idempotencyKey: key(),
    })
    return { id, auth, offerId }
  }
  type Trader = Awaited<ReturnType<typeof trader>>

  const take = async (buyer: Trader, offerId: number) => {
    const reply = await post(buyer.auth, "/api/p2p/orders", {
      offerId,
      amount: (5n * USDT).toString(),
      priceCents: "10000",
      paymentMethodCode: "sbp",
      idempotencyKey: key(),
    })
    expect(reply.status).toBe(200)
    return reply.body as { id: number; status: string }
  }
  const move = async (who: Trader, orderId: number, step: string) => {
    const reply = await post(who.auth, "/api/p2p/orders/move", { orderId, move: step })
    expect(reply.status).toBe(200)
    return reply.body as { status: string }
  }
  /** The buyer takes the seller's offer, pays after `pay` seconds, the seller releases `release` seconds later. */
  const trade = async (seller: Trader, buyer: Trader, pay = 120, release = 300) => {
    const order = await take(buyer, seller.offerId)
    tick(pay)
    await move(buyer, order.id, "paid")
    tick(release)
    expect((await move(seller, order.id, "received")).status).toBe("COMPLETED")
    tick(1)
    return order.id
  }
  const reputation = async (viewer: Trader, userId: number) => {
    const reply = await post(viewer.auth, "/api/p2p/users/reputation", { userId })
    expect(reply.status).toBe(200)
    return reply.body
  }
  /** What an offer list shows of its maker (the one grouped stats query behind every Trader). */
  const listed = async (viewer: Trader, makerId: number) => {
    const reply = await post(viewer.auth, "/api/p2p/offers/list", { type: "SALE", crypto: "USDT", fiat: "RUB", paymentMethods: [], offset: 0, limit: 50 })
    expect(reply.status).toBe(200)
    return (reply.body.items as Array<{ user: Record<string, unknown> }>).find((offer) => offer.user.userId === makerId)!.user
  }

  it("the completion rate counts a user's own cancels, rejects and expiries, never the other side's", async () => {
    const seller = await trader(9_200_000_001, "Sam")
    const manual = { ...seller, offerId: (await trader(9_200_000_001, "Sam", false)).offerId }
    const b1 = await trader(9_200_000_011, "Bea")
    const b2 = await trader(9_200_000_012, "Bob")
    const b3 = await trader(9_200_000_013, "Cy")
    const b4 = await trader(9_200_000_014, "Di")

    // Four trades: Bea once, Bob twice (the second released after 7 minutes), Di once.
    await trade(seller, b1)
    await trade(seller, b2, 120, 420)
    await trade(seller, b2)
    await trade(seller, b4)
    // The seller cancels an accepted order: against the seller.
    const cancelledBySeller = await take(b3, seller.offerId)
    expect(await move(seller, cancelledBySeller.id, "cancel")).toMatchObject({ status: "CANCELLED" })
    // The buyer cancels: against the buyer, not the seller.
    const cancelledByBuyer = await take(b3, seller.offerId)
    expect(await move(b3, cancelledByBuyer.id, "cancel")).toMatchObject({ status: "CANCELLED" })
    // The buyer does not pay in time: against the buyer.
    const unpaid = await take(b4, seller.offerId)
    tick(16 * 60)
    expect((await post(b4.auth, "/api/p2p/orders/get", { orderId: unpaid.id })).body).toMatchObject({ status: "EXPIRED", cancelledBy: "system" })
    // The seller (the maker) does not accept a request in time: against the seller, not the waiting buyer.
    const unanswered = await take(b4, manual.offerId)
    expect(unanswered.status).toBe("REQUESTED")
    tick(11 * 60)
    expect((await post(b4.auth, "/api/p2p/orders/get", { orderId: unanswered.id })).body.status).toBe("EXPIRED")
    // The seller rejects a request: against the seller.
    const rejected = await take(b1, manual.offerId)
    expect(await move(seller, rejected.id, "reject")).toMatchObject({ status: "REJECTED" })

    // The seller: 4 completed, 3 failed (own cancel, own expiry, own reject) = 57 %.
    const sam = await reputation(b1, seller.id)
    expect(sam).toMatchObject({
      userId: seller.id,
      name: "Sam",
      allTime: { completedOrders: 4, completionRate: 57 },
      last30d: { completedOrders: 4, completionRate: 57 },
      // Released after 5, 7, 5 and 5 minutes; the seller never paid as a buyer.
      avgReleaseSeconds: 330,
      avgPaymentSeconds: null,
    })
    // Bea: 1 completed; the rejected request was the seller's doing = 100 %.
    expect((await reputation(b1, b1.id)).allTime).toEqual({ completedOrders: 1, completionRate: 100 })
    // Cy: never traded, cancelled once himself; the seller's cancel is not his = 0 % of 1 closed order.
    expect((await reputation(b1, b3.id)).allTime).toEqual({ completedOrders: 0, completionRate: 0 })
    // Di: 1 completed, 1 payment window run out; the unanswered request was the seller's = 50 %, paid after 2 minutes.
    expect(await reputation(b1, b4.id)).toMatchObject({ allTime: { completedOrders: 1, completionRate: 50 }, avgPaymentSeconds: 120, avgReleaseSeconds: null })

    // The same numbers on the offer list (one grouped query for the page) and on the order's parties.
    expect(await listed(b1, seller.id)).toMatchObject({
      completedOrders: 4,
      completionRate: 57,
      completedOrders30d: 4,
      completionRate30d: 57,
      avgReleaseSeconds: 330,
      avgPaymentSeconds: null,
      positiveFeedbackRate: null,
      feedbackCount: 0,
    })
    const order = (await post(b4.auth, "/api/p2p/orders/get", { orderId: unpaid.id })).body
    expect(order.seller).toMatchObject({ userId: seller.id, completedOrders: 4, completionRate: 57 })
    expect(order.buyer).toMatchObject({ userId: b4.id, completedOrders: 1, completionRate: 50 })
    // The old profile read keeps its two fields.
    expect((await call(server.url, "GET", "/api/p2p/user", { authorization: seller.auth })).body).toMatchObject({ completedOrders: 4, completionRate: 57 })

    // 31 days on: the 30-day record is empty, the all-time one stays; a new trade counts in both.
    clock += 31 * DAY
    expect(await reputation(b1, seller.id)).toMatchObject({
      allTime: { completedOrders: 4, completionRate: 57 },
      last30d: { completedOrders: 0, completionRate: null },
      avgReleaseSeconds: null,
    })
    await trade(seller, b3, 60, 60)
    expect(await reputation(b1, seller.id)).toMatchObject({
      allTime: { completedOrders: 5, completionRate: 62 },
      last30d: { completedOrders: 1, completionRate: 100 },
      avgReleaseSeconds: 60,
    })
  })

  it("trading back and forth with one friend raises neither side beyond the cap: 3 per 30 days, 10 in all", async () => {
    const ann = await trader(9_200_000_101, "Ann")
    const friend = await trader(9_200_000_102, "Fay")
    const stranger = await trader(9_200_000_103, "Stan")
    // Ann cancels one order herself first, so the rate has something to lose.
    const own = await take(ann, friend.offerId)
    await move(ann, own.id, "cancel")
    // Twelve trades with the friend, each way in turn.
    const orders: Array<number> = []
    for (let i = 0; i < 12; i++) orders.push(i % 2 === 0 ? await trade(ann, friend) : await trade(friend, ann))

    // Only the first 10 count all time (10 / 11 = 90 %), and 3 in the last 30 days (3 / 4 = 75 %), not 12 / 13.
    expect(await reputation(stranger, ann.id)).toMatchObject({
      allTime: { completedOrders: 10, completionRate: 90 },
      last30d: { completedOrders: 3, completionRate: 75 },
    })
    expect(await reputation(stranger, friend.id)).toMatchObject({
      allTime: { completedOrders: 10, completionRate: 100 },
      last30d: { completedOrders: 3, completionRate: 100 },
    })
    // Feedback on an order beyond the cap is accepted but carries nothing.
    const beyond = await post(friend.auth, "/api/p2p/orders/feedback", { orderId: orders[11], positive: true, comment: "Best trader ever" })
    expect(beyond.body).toMatchObject({ counts: false, mine: { positive: true, comment: "Best trader ever" } })
    const within = await post(friend.auth, "/api/p2p/orders/feedback", { orderId: orders[0], positive: true })
    expect(within.body).toMatchObject({ counts: true })
    expect(await reputation(stranger, ann.id)).toMatchObject({
      feedbackCount: 1,
      positiveFeedbackRate: 100,
      recentFeedback: [{ positive: true, comment: null }],
    })

    // A trade with someone else counts at once.
    await trade(ann, stranger)
    expect(await reputation(stranger, ann.id)).toMatchObject({
      allTime: { completedOrders: 11, completionRate: 91 },
      last30d: { completedOrders: 4, completionRate: 80 },
    })
    // A month later the pair gets 3 more for the new window, but all time stays at 10 for the pair.
    clock += 31 * DAY
    for (let i = 0; i < 4; i++) await trade(friend, ann)
    expect(await reputation(stranger, ann.id)).toMatchObject({
      allTime: { completedOrders: 11, completionRate: 91 },
      last30d: { completedOrders: 3, completionRate: 100 },
    })
  })

  it("support's decision counts against the side it went against; a split counts for nobody", async () => {
    const seller = await trader(9_200_000_301, "Zed")
    const [won, split, lost] = [await trader(9_200_000_311, "Wyn"), await trader(9_200_000_312, "Sia"), await trader(9_200_000_313, "Lou")] as [
      Trader,
      Trader,
      Trader,
    ]
    const ops = await signInOperator(server)
    const appealed = async (buyer: Trader) => {
      const order = await take(buyer, seller.offerId)
      await move(buyer, order.id, "paid")
      const appeal = await post(buyer.auth, "/api/p2p/orders/appeal", { orderId: order.id, issue: "seller_not_releasing", statement: "Paid by SBP" })
      expect(appeal.body.status).toBe("IN_APPEAL")
      return order.id
    }
    expect((await ops.form("/decide", { order: String(await appealed(won)), outcome: "BUYER" })).status).toBe(303)
    expect((await ops.form("/decide", { order: String(await appealed(split)), outcome: "SPLIT", buyerAmount: (2n * USDT).toString() })).status).toBe(303)
    expect((await ops.form("/decide", { order: String(await appealed(lost)), outcome: "SELLER" })).status).toBe(303)
    // The seller lost one appeal and won one: 0 completed, 1 failed = 0 %. No trade counts for either side.
    expect((await reputation(won, seller.id)).allTime).toEqual({ completedOrders: 0, completionRate: 0 })
    expect((await reputation(won, won.id)).allTime).toEqual({ completedOrders: 0, completionRate: null })
    expect((await reputation(won, split.id)).allTime).toEqual({ completedOrders: 0, completionRate: null })
    expect((await reputation(won, lost.id)).allTime).toEqual({ completedOrders: 0, completionRate: 0 })
  })

  it("feedback: one rating per side, only by a party, only after completion; shown as positive % and count", async () => {
    const seller = await trader(9_200_000_201, "Sel")
    const buyers = [await trader(9_200_000_211, "Uno"), await trader(9_200_000_212, "Duo"), await trader(9_200_000_213, "Tre")]
    const outsider = await trader(9_200_000_219, "Out")
    const orderIds: Array<number> = []
    for (const buyer of buyers) orderIds.push(await trade(seller, buyer))
    const [first, second, third] = orderIds as [number, number, number]
    const [uno, duo, tre] = buyers as [Trader, Trader, Trader]

    // Not yet completed: refused with the status now.
    const open = await take(uno, seller.offerId)
    const early = await post(uno.auth, "/api/p2p/orders/feedback", { orderId: open.id, positive: true })
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ code: "order_state_changed", status: "ACCEPTED" })
    expect((await post(uno.auth, "/api/p2p/orders/feedback/get", { orderId: open.id })).body).toMatchObject({ canRate: false, mine: null })
    // Not a party: the order does not exist for them.
    expect((await post(outsider.auth, "/api/p2p/orders/feedback", { orderId: first, positive: false })).status).toBe(404)
    expect((await post(outsider.auth, "/api/p2p/orders/feedback/get", { orderId: first })).status).toBe(404)
    // Bad input is a 400 in the API's shape.
    expect((await post(uno.auth, "/api/p2p/orders/feedback", { orderId: first, positive: "yes" })).status).toBe(400)
    expect((await post(uno.auth, "/api/p2p/orders/feedback", { orderId: first, positive: true, comment: "x".repeat(201) })).status).toBe(400)
    expect((await post(uno.auth, "/api/p2p/orders/feedback", { orderId: first, positive: true, comment: "bad\u0000text" })).status).toBe(400)

    // Uno rates: once. The seller may still rate Uno; a second rating by either is 409.
    expect((await post(uno.auth, "/api/p2p/orders/feedback/get", { orderId: first })).body).toMatchObject({
      canRate: true,
      mine: null,
      theirs: null,
      counts: true,
    })
    const rated = await post(uno.auth, "/api/p2p/orders/feedback", { orderId: first, positive: true, comment: "  Fast release  " })
    expect(rated.status).toBe(200)
    expect(rated.body).toMatchObject({ orderId: first, canRate: false, mine: { positive: true, comment: "Fast release" }, theirs: null })
    const again = await post(uno.auth, "/api/p2p/orders/feedback", { orderId: first, positive: false })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: "already_rated" })
    const back = await post(seller.auth, "/api/p2p/orders/feedback", { orderId: first, positive: true })
    expect(back.body).toMatchObject({ canRate: false, mine: { positive: true }, theirs: { positive: true, comment: "Fast release" } })
    expect((await post(seller.auth, "/api/p2p/orders/feedback", { orderId: first, positive: false })).body).toMatchObject({ code: "already_rated" })

    await post(duo.auth, "/api/p2p/orders/feedback", { orderId: second, positive: true })
    await post(tre.auth, "/api/p2p/orders/feedback", { orderId: third, positive: false, comment: "Slow" })
    // The seller got 2 positive of 3; Uno got 1 of 1 (from the seller).
    expect(await reputation(outsider, seller.id)).toMatchObject({
      positiveFeedbackRate: 66,
      feedbackCount: 3,
      recentFeedback: [
        { positive: false, comment: "Slow" },
        { positive: true, comment: null },
        { positive: true, comment: "Fast release" },
      ],
    })
    expect(await listed(outsider, seller.id)).toMatchObject({ positiveFeedbackRate: 66, feedbackCount: 3 })
    expect(await reputation(outsider, uno.id)).toMatchObject({ positiveFeedbackRate: 100, feedbackCount: 1 })

    // The rated side is told through the bot, in the move's transaction.
    const told = (await server.sql("select recipient, subject, body from outbox_messages where subject = 'p2p.order.rated' and recipient = $1 order by id", [
      String(seller.id),
    ])) as Array<{ body: string }>
    expect(told.map((m) => m.body)).toEqual([
      `Order #${first}: the buyer rated the trade with you positive.`,
      `Order #${second}: the buyer rated the trade with you positive.`,
      `Order #${third}: the buyer rated the trade with you negative.`,
    ])
    // An unknown user has no reputation.
    const unknown = await post(outsider.auth, "/api/p2p/users/reputation", { userId: 9_299_999_999 })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ code: "user_not_found" })
  })
})
