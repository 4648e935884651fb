import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { serverPlugin } from "./index.ts"
import { initUser, signInOperator } from "./testSupport.ts"
import { escrowOwner, FEES, p2pProbePlugin, userOf } from "./testing.ts"

const BOT_TOKEN = "1234567:p2p-test"
const USDT = 1_000_000n

describe("P2P market on PGlite (issue 20)", () => {
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
      plugins: [custodyPlugin, serverPlugin, p2pProbePlugin],
      pluginConfig: { p2p: { makerFeeBps: 100, takerFeeBps: 50, maxOpenOrdersPerOffer: 3, sweepMs: 3_600_000 } },
    })
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (id: number) => bearer((await initUser(server.url, BOT_TOKEN, id, "Ann", new Date(clock))).access_token)
  const post = (auth: string, path: string, body?: unknown) => call(server.url, "POST", path, { authorization: auth, ...(body === undefined ? {} : { body }) })
  const fund = (userId: number, currency: string, amount: bigint) =>
    call(server.url, "POST", "/api/p2p-probe/fund", { body: { userId, currency, amount: amount.toString() } })
  const balance = async (owner: string, currency = "USDT") => {
    const reply = await call(server.url, "POST", "/api/p2p-probe/balance", { body: { owner, currency } })
    return { available: BigInt(reply.body.available), held: BigInt(reply.body.held) }
  }
  const audit = async () => (await call(server.url, "GET", "/api/p2p-probe/audit")).body
  let keys = 0
  const key = () => `k${Date.now()}x${++keys}`

  const sbp = (auth: string) =>
    post(auth, "/api/p2p/user/payments", { code: "sbp", fiat: "RUB", fields: { phone: "+7 916 123-45-67", bankName: "Tinkoff", holderName: "Lena Level" } })
  const saleOffer = async (auth: string, detailsId: number, overrides: Record<string, unknown> = {}) =>
    post(auth, "/api/p2p/offers", {
      type: "SALE",
      crypto: "USDT",
      fiat: "RUB",
      price: { type: "FIXED", value: "10000" },
      volume: (100n * USDT).toString(),
      minOrderFiat: "50000",
      maxOrderFiat: "1000000",
      paymentDetailsIds: [detailsId],
      paymentMethodCodes: [],
      paymentWindowMinutes: 15,
      terms: "Own account only",
      autoAccept: true,
      idempotencyKey: key(),
      ...overrides,
    })
  const take = (auth: string, offerId: number, amount: bigint, extra: Record<string, unknown> = {}) =>
    post(auth, "/api/p2p/orders", { offerId, amount: amount.toString(), priceCents: "10000", paymentMethodCode: "sbp", idempotencyKey: key(), ...extra })
  const move = (auth: string, orderId: number, step: string, status?: string) =>
    post(auth, "/api/p2p/orders/move", { orderId, move: step, ...(status === undefined ? {} : { status }) })

  it("payment details are checked per method (sbp: a +7 phone) and normalised", async () => {
    const auth = await signIn(9_100_000_001)
    const bad = await post(auth, "/api/p2p/user/payments", { code: "sbp", fiat: "RUB", fields: { phone: "+44 7700 900123", bankName: "X", holderName: "L1" } })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: "invalid_payment_details", fields: expect.arrayContaining(["phone", "bankName", "holderName"]) })
    const wrongFiat = await post(auth, "/api/p2p/user/payments", { code: "sbp", fiat: "EUR", fields: {} })
    expect(wrongFiat.body).toMatchObject({ code: "invalid_payment_details", fields: ["fiat"] })
    const ok = await sbp(auth)
    expect(ok.status).toBe(200)
    expect(ok.body.fields).toEqual({ phone: "+79161234567", bankName: "Tinkoff", holderName: "Lena Level" })
    const list = await call(server.url, "GET", "/api/p2p/user/payments", { authorization: auth })
    expect(list.body.items).toHaveLength(1)
  })

  it("a seller publishes (volume and fee held in the offer's escrow), a buyer takes part, pays, the seller releases: balances, fees, history", async () => {
    const sellerId = 9_100_000_010
    const buyerId = 9_100_000_011
    const seller = await signIn(sellerId)
    const buyer = await signIn(buyerId)
    await fund(sellerId, "USDT", 150n * USDT)
    const details = (await sbp(seller)).body.id as number
    const published = await saleOffer(seller, details)
    expect(published.status).toBe(200)
    const offer = published.body
    expect(offer).toMatchObject({ type: "SALE", status: "ACTIVE", available: (100n * USDT).toString(), isMine: true, makerFeeBps: 100, takerFeeBps: 50 })
    // 100 USDT and the maker's 1 % fee room left the seller for the escrow.
    expect(await balance(userOf(sellerId))).toEqual({ available: 49n * USDT, held: 0n })
    expect(await balance(escrowOwner(offer.id))).toEqual({ available: 101n * USDT, held: 0n })

    const order = await take(buyer, offer.id, 20n * USDT)
    expect(order.status).toBe(200)
    expect(order.body).toMatchObject({
      status: "ACCEPTED",
      side: "buyer",
      role: "taker",
      offerType: "SALE",
      amount: "20000000",
      fiatAmount: "200000",
      moves: ["paid", "cancel"],
    })
    expect(order.body.paymentDetails.fields.phone).toBe("+79161234567")
    expect(order.body.sellerFee).toBe("200000")
    expect(order.body.buyerFee).toBe("100000")
    expect(await balance(escrowOwner(offer.id))).toEqual({ available: (101n - 20n) * USDT - 200_000n, held: 20n * USDT + 200_000n })
    const after = (await post(buyer, "/api/p2p/offers/get", { offerId: offer.id })).body
    expect(after).toMatchObject({ available: (80n * USDT).toString(), openOrders: 1, unavailableReason: null })

    // The seller cannot mark it paid; the buyer cannot release.
    expect((await move(seller, order.body.id, "paid")).status).toBe(403)
    expect((await move(buyer, order.body.id, "received")).status).toBe(403)
    const paid = await move(buyer, order.body.id, "paid", "ACCEPTED")
    expect(paid.body).toMatchObject({ status: "PAID", moves: ["appeal"] })
    // A paid order never cancels: not by the buyer, not by the seller, not by its deadline.
    expect((await move(buyer, order.body.id, "cancel")).body).toMatchObject({ code: "order_state_changed", status: "PAID" })
    clock += 3 * 3_600_000
    await call(server.url, "POST", "/api/p2p-probe/sweep")
    const sellerAgain = await signIn(sellerId)
    expect((await post(sellerAgain, "/api/p2p/orders/get", { orderId: order.body.id })).body).toMatchObject({
      status: "PAID",
      side: "seller",
      moves: ["received", "appeal"],
    })

    const done = await move(sellerAgain, order.body.id, "received", "PAID")
    expect(done.body).toMatchObject({ status: "COMPLETED", buyerReceives: "19900000" })
    // A retried release answers the order as it is; nothing moves twice.
    expect((await move(sellerAgain, order.body.id, "received", "PAID")).body.status).toBe("COMPLETED")
    expect(await balance(userOf(buyerId))).toEqual({ available: 19_900_000n, held: 0n })
    expect((await balance(FEES)).available).toBe(300_000n)
    expect(await balance(escrowOwner(offer.id))).toEqual({ available: 81n * USDT - 200_000n, held: 0n })

    const buyerAgain = await signIn(buyerId)
    const history = await call(server.url, "GET", "/api/custody/transactions?limit=10", { authorization: buyerAgain })
    expect(JSON.stringify(history.body)).toContain("p2p_order")
    const completed = await post(buyerAgain, "/api/p2p/orders/history", { offset: 0, limit: 20, filter: { status: "COMPLETED_FOR_REQUESTER" } })
    expect(completed.body.items.map((o: { id: number }) => o.id)).toEqual([order.body.id])
    const user = await call(server.url, "GET", "/api/p2p/user", { authorization: sellerAgain })
    expect(user.body).toMatchObject({
      completedOrders: 1,
      completionRate: 100,
      isExperienced: true,
      inOffers: [{ crypto: "USDT", amount: (81n * USDT - 200_000n).toString() }],
    })
    expect((await audit()).ok).toBe(true)
  })

  it("an unpaid order expires at its deadline and its volume returns to the offer; cancel before payment does the same", async () => {
    const sellerId = 9_100_000_020
    const buyerId = 9_100_000_021
    let seller = await signIn(sellerId)
    let buyer = await signIn(buyerId)
    await fund(sellerId, "USDT", 200n * USDT)
    const offer = (await saleOffer(seller, (await sbp(seller)).body.id)).body
    const order = (await take(buyer, offer.id, 30n * USDT)).body
    expect((await post(buyer, "/api/p2p/offers/get", { offerId: offer.id })).body.available).toBe((70n * USDT).toString())
    clock += 16 * 60_000
    buyer = await signIn(buyerId)
    seller = await signIn(sellerId)
    // Read after the deadline: expired, and the volume is back.
    const read = await post(buyer, "/api/p2p/orders/get", { orderId: order.id })
    expect(read.body).toMatchObject({ status: "EXPIRED", cancelledBy: "system", moves: [] })
    expect((await post(buyer, "/api/p2p/offers/get", { offerId: offer.id })).body).toMatchObject({ available: (100n * USDT).toString(), openOrders: 0 })
    expect(await balance(escrowOwner(offer.id))).toEqual({ available: 101n * USDT, held: 0n })
    // A late "paid" is refused with the status now.
    expect((await move(buyer, order.id, "paid", "ACCEPTED")).body).toMatchObject({ code: "order_state_changed", status: "EXPIRED" })

    const second = (await take(buyer, offer.id, 10n * USDT)).body
    const cancelled = await move(seller, second.id, "cancel", "ACCEPTED")
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", cancelledBy: "seller" })
    expect((await post(buyer, "/api/p2p/offers/get", { offerId: offer.id })).body.available).toBe((100n * USDT).toString())
    const canceled = await post(buyer, "/api/p2p/orders/history", { offset: 0, limit: 20, filter: { status: "CANCELLED_OR_CANCELLING" } })
    expect(canceled.body.items.map((o: { id: number }) => o.id)).toEqual([second.id, order.id])
    expect((await audit()).ok).toBe(true)
  })

  it("bad takes are refused with a clear error and the Ledger unchanged", async () => {
    const sellerId = 9_100_000_030
    const seller = await signIn(sellerId)
    const buyer = await signIn(9_100_000_031)
    await fund(sellerId, "USDT", 200n * USDT)
    const offer = (await saleOffer(seller, (await sbp(seller)).body.id, { volume: (10n * USDT).toString(), minOrderFiat: "10000" })).body
    const before = await balance(escrowOwner(offer.id))
    expect((await take(buyer, offer.id, 1_000n)).body).toMatchObject({ code: "amount_out_of_limits" })
    expect((await take(buyer, offer.id, 11n * USDT)).body).toMatchObject({ code: "amount_above_available" })
    expect((await take(buyer, offer.id, 2n * USDT, { priceCents: "9000" })).body).toMatchObject({ code: "price_moved", priceCents: "10000" })
    expect((await take(buyer, offer.id, 2n * USDT, { paymentMethodCode: "card" })).body).toMatchObject({ code: "payment_method_required" })
    expect((await take(seller, offer.id, 2n * USDT)).body).toMatchObject({ code: "offer_unavailable", reason: "own_offer" })
    const malformed = await post(buyer, "/api/p2p/orders", { offerId: offer.id, amount: "-5", priceCents: "x", idempotencyKey: "short" })
    expect(malformed.status).toBe(400)
    // Bug: a volume beyond the database's bigint reached the insert and answered 500.
    const huge = await saleOffer(seller, offer.paymentDetailsIds[0] ?? 1, { volume: "9".repeat(25) })
    expect(huge.status).toBe(400)
    expect(huge.body).toMatchObject({ code: "invalid_request" })
    expect(await balance(escrowOwner(offer.id))).toEqual(before)
    // The open-orders cap (3 in this region), then sold out.
    for (let i = 0; i < 3; i++) expect((await take(buyer, offer.id, 2n * USDT)).status).toBe(200)
    expect((await take(buyer, offer.id, 2n * USDT)).body).toMatchObject({ code: "offer_unavailable", reason: "open_orders_per_offer_cap_reached" })
    // The same idempotency key answers the same order.
    const k = key()
    const a = await take(buyer, offer.id, USDT, { idempotencyKey: k })
    expect(a.body).toMatchObject({ code: "offer_unavailable" })
  })

  it("stopping an offer returns what no order holds; an order released later is refunded to the seller", async () => {
    const sellerId = 9_100_000_040
    const seller = await signIn(sellerId)
    const buyer = await signIn(9_100_000_041)
    await fund(sellerId, "USDT", 101n * USDT)
    const offer = (await saleOffer(seller, (await sbp(seller)).body.id)).body
    expect((await balance(userOf(sellerId))).available).toBe(0n)
    const order = (await take(buyer, offer.id, 10n * USDT)).body
    const stopped = await post(seller, "/api/p2p/offers/status", { id: offer.id, status: "INACTIVE" })
    expect(stopped.body).toMatchObject({ status: "INACTIVE" })
    expect((await balance(userOf(sellerId))).available).toBe(101n * USDT - 10n * USDT - 100_000n)
    expect((await balance(escrowOwner(offer.id))).available).toBe(0n)
    expect((await take(buyer, offer.id, 5n * USDT)).body).toMatchObject({ code: "offer_unavailable", reason: "inactive" })
    await move(buyer, order.id, "cancel", "ACCEPTED")
    expect(await balance(userOf(sellerId))).toEqual({ available: 101n * USDT, held: 0n })
    expect(await balance(escrowOwner(offer.id))).toEqual({ available: 0n, held: 0n })
    // Activating holds the available volume again.
    expect((await post(seller, "/api/p2p/offers/status", { id: offer.id, status: "ACTIVE" })).body.status).toBe("ACTIVE")
    expect((await balance(escrowOwner(offer.id))).available).toBe(101n * USDT)
    expect((await audit()).ok).toBe(true)
  })

  it("a PURCHASE offer: the taking seller's own crypto is held, with manual accept by the maker", async () => {
    const makerId = 9_100_000_050
    const sellerId = 9_100_000_051
    const maker = await signIn(makerId)
    const seller = await signIn(sellerId)
    await fund(sellerId, "USDT", 50n * USDT)
    const offer = (
      await post(maker, "/api/p2p/offers", {
        type: "PURCHASE",
        crypto: "USDT",
        fiat: "RUB",
        price: { type: "FIXED", value: "10000" },
        volume: (40n * USDT).toString(),
        minOrderFiat: "10000",
        maxOrderFiat: "1000000",
        paymentDetailsIds: [],
        paymentMethodCodes: ["sbp"],
        paymentWindowMinutes: 30,
        terms: null,
        autoAccept: false,
        idempotencyKey: key(),
      })
    ).body
    expect(offer).toMatchObject({ type: "PURCHASE", status: "ACTIVE" })
    const details = (await sbp(seller)).body.id as number
    const noDetails = await post(seller, "/api/p2p/orders", { offerId: offer.id, amount: (10n * USDT).toString(), priceCents: "10000", idempotencyKey: key() })
    expect(noDetails.body).toMatchObject({ code: "payment_method_required" })
    const order = await post(seller, "/api/p2p/orders", {
      offerId: offer.id,
      amount: (10n * USDT).toString(),
      priceCents: "10000",
      paymentDetailsId: details,
      idempotencyKey: key(),
    })
    expect(order.body).toMatchObject({ status: "REQUESTED", side: "seller", role: "taker", offerType: "BUY", moves: ["cancel"] })
    // The taker sells: its amount and its 0.5 % taker fee are held from its own account.
    expect(await balance(userOf(sellerId))).toEqual({ available: 50n * USDT - 10n * USDT - 50_000n, held: 10n * USDT + 50_000n })
    const makerView = await post(maker, "/api/p2p/orders/get", { orderId: order.body.id })
    expect(makerView.body).toMatchObject({ side: "buyer", role: "maker", moves: ["accept", "reject", "cancel"] })
    await move(maker, order.body.id, "accept", "REQUESTED")
    await move(maker, order.body.id, "paid", "ACCEPTED")
    const done = await move(seller, order.body.id, "received", "PAID")
    // The maker (buyer) pays the 1 % maker fee out of what it receives.
    expect(done.body).toMatchObject({ status: "COMPLETED", buyerReceives: (10n * USDT - 100_000n).toString() })
    expect(await balance(userOf(makerId))).toEqual({ available: 10n * USDT - 100_000n, held: 0n })
    expect(await balance(userOf(sellerId))).toEqual({ available: 40n * USDT - 50_000n, held: 0n })
    expect((await audit()).ok).toBe(true)
  })

  it("issue 21: a paid order goes to appeal (hold frozen, statements from both sides), and support's decision moves the Ledger once", async () => {
    const sellerId = 9_100_000_060
    const buyerId = 9_100_000_061
    const seller = await signIn(sellerId)
    const buyer = await signIn(buyerId)
    await fund(sellerId, "USDT", 200n * USDT)
    const offer = (await saleOffer(seller, (await sbp(seller)).body.id)).body
    const order = (await take(buyer, offer.id, 10n * USDT)).body
    // Not before "paid": nothing to appeal yet.
    const early = await post(buyer, "/api/p2p/orders/appeal", { orderId: order.id, issue: "seller_not_releasing", statement: "Paid at 10:02" })
    expect(early.body).toMatchObject({ code: "order_state_changed", status: "ACCEPTED" })
    await move(buyer, order.id, "paid", "ACCEPTED")
    const bad = await post(buyer, "/api/p2p/orders/appeal", { orderId: order.id, issue: "nonsense", statement: "x" })
    expect(bad.status).toBe(400)
    const appealed = await post(buyer, "/api/p2p/orders/appeal", {
      orderId: order.id,
      issue: "seller_not_releasing",
      statement: "Paid 1,000 RUB by SBP at 10:02",
      status: "PAID",
    })
    expect(appealed.body).toMatchObject({
      status: "IN_APPEAL",
      moves: [],
      appeal: { status: "OPEN", issue: "seller_not_releasing", openedBy: "buyer", outcome: null },
    })
    expect(appealed.body.appeal.statements).toHaveLength(1)
    const sellerSide = await post(seller, "/api/p2p/orders/appeal/statement", { orderId: order.id, text: "Nothing arrived yet" })
    expect(sellerSide.body.appeal.statements.map((st: { author: string }) => st.author)).toEqual(["buyer", "seller"])
    // The seller may still release; the buyer cannot cancel; the hold stays pending.
    expect(sellerSide.body.moves).toEqual(["received"])
    expect((await move(buyer, order.id, "cancel")).body).toMatchObject({ code: "order_state_changed", status: "IN_APPEAL" })
    expect((await balance(escrowOwner(offer.id))).held).toBe(10n * USDT + 100_000n)
    // Active orders include it (the strip keeps counting it).
    const active = await post(buyer, "/api/p2p/orders/history", { offset: 0, limit: 20, filter: { status: "ALL_ACTIVE" } })
    expect(active.body.items.map((o: { id: number }) => o.id)).toContain(order.id)

    // Support, in the operator console: the queue, the order with both statements, a split.
    const ops = await signInOperator(server)
    expect(await ops.page("")).toContain(`data-appeal-order="${order.id}"`)
    const detail = await ops.page(`?order=${order.id}`)
    expect(detail).toContain("Paid 1,000 RUB by SBP at 10:02")
    expect(detail).toContain("Nothing arrived yet")
    const tooMuch = await ops.form("/decide", { order: String(order.id), outcome: "SPLIT", buyerAmount: (10n * USDT).toString() })
    expect(tooMuch.status).toBe(400)
    expect(await tooMuch.text()).toContain("less than the whole amount")
    const decided = await ops.form("/decide", {
      order: String(order.id),
      outcome: "SPLIT",
      buyerAmount: (4n * USDT).toString(),
      note: "Half the transfer arrived",
    })
    expect(decided.status).toBe(303)
    const after = (await post(buyer, "/api/p2p/orders/get", { orderId: order.id })).body
    expect(after).toMatchObject({ status: "COMPLETED", moves: [], appeal: { status: "RESOLVED", outcome: "SPLIT", buyerAmount: (4n * USDT).toString() } })
    expect(after.appeal.statements.map((st: { author: string }) => st.author)).toEqual(["buyer", "seller", "support"])
    // The buyer got 4 USDT; the rest of the hold (6 USDT and the fee room) went back to the offer's escrow.
    expect(await balance(userOf(buyerId))).toEqual({ available: 4n * USDT, held: 0n })
    expect(await balance(escrowOwner(offer.id))).toEqual({ available: 101n * USDT - 4n * USDT, held: 0n })
    expect((await post(buyer, "/api/p2p/offers/get", { offerId: offer.id })).body.available).toBe((96n * USDT).toString())
    // A second decision changes nothing: the order is no longer in appeal.
    const again = await ops.form("/decide", { order: String(order.id), outcome: "BUYER" })
    expect(again.status).toBe(400)
    expect(await again.text()).toContain("COMPLETED")
    expect(await balance(userOf(buyerId))).toEqual({ available: 4n * USDT, held: 0n })
    const log = (await server.sql("select action, target from operator_audit where action = 'p2p.appeal.decide'")) as Array<{ target: string }>
    expect(log.map((row) => row.target)).toEqual([`order ${order.id}`])
    expect((await audit()).ok).toBe(true)
  })
})
