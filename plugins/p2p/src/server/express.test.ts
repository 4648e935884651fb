import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { serverPlugin } from "./index.ts"
import { initUser } from "./testSupport.ts"
import { escrowOwner, p2pProbePlugin, userOf } from "./testing.ts"

const BOT_TOKEN = "1234567:p2p-express"
const USDT = 1_000_000n

/** A test server's helpers: users, funds, balances, offers and the express calls. */
const helpers = (server: () => RunningServer, clock: () => number) => {
  const signIn = async (id: number) => bearer((await initUser(server().url, BOT_TOKEN, id, "Ann", new Date(clock()))).access_token)
  const post = (auth: string, path: string, body?: unknown) =>
    call(server().url, "POST", path, { authorization: auth, ...(body === undefined ? {} : { body }) })
  const get = (auth: string, path: string) => call(server().url, "GET", path, { authorization: auth })
  const fund = (userId: number, currency: string, amount: bigint) =>
    call(server().url, "POST", "/api/p2p-probe/fund", { body: { userId, currency, amount: amount.toString() } })
  const balance = async (owner: string, currency = "USDT") => {
    const reply = await call(server().url, "POST", "/api/p2p-probe/balance", { body: { owner, currency } })
    return { available: BigInt(reply.body.available), held: BigInt(reply.body.held) }
  }
  const audit = async () => (await call(server().url, "GET", "/api/p2p-probe/audit")).body
  let keys = 0
  const key = () => `e${Date.now()}x${++keys}`
  /** Card details for a fiat (the card method serves many fiats, so each test can keep to its own market). */
  const card = async (auth: string, fiat: string) =>
    (
      await post(auth, "/api/p2p/user/payments", {
        code: "card",
        fiat,
        fields: { cardNumber: "4111 1111 1111 1111", holderName: "Ann Example", bankName: "Bank" },
      })
    ).body.id as number
  /** A maker funded and signed in, with card details for `fiat`. */
  const maker = async (id: number, fiat: string, funds = 500n * USDT) => {
    const auth = await signIn(id)
    await fund(id, "USDT", funds)
    return { id, auth, details: await card(auth, fiat) }
  }
  const offer = async (
    who: { readonly auth: string; readonly details: number },
    type: "SALE" | "PURCHASE",
    fiat: string,
    priceCents: string,
    overrides: Record<string, unknown> = {},
  ) => {
    const reply = await post(who.auth, "/api/p2p/offers", {
      type,
      crypto: "USDT",
      fiat,
      price: { type: "FIXED", value: priceCents },
      volume: (100n * USDT).toString(),
      minOrderFiat: "50000",
      maxOrderFiat: "1000000",
      paymentDetailsIds: type === "SALE" ? [who.details] : [],
      paymentMethodCodes: type === "SALE" ? [] : ["card"],
      paymentWindowMinutes: 15,
      terms: null,
      autoAccept: true,
      idempotencyKey: key(),
      ...overrides,
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as { id: number; available: string }
  }
  const pairs = (auth: string, offerType: string) => post(auth, "/api/p2p/express/pairs", { offerType })
  const limits = (auth: string, offerType: string, fiat: string) =>
    post(auth, "/api/p2p/express/limits", { offerType, baseCurrencyCode: "USDT", quoteCurrencyCode: fiat })
  const quote = (auth: string, offerType: string, fiat: string, amount: string, calculationType = "BY_FIAT") =>
    post(auth, "/api/p2p/express/quote", { offerType, baseCurrencyCode: "USDT", quoteCurrencyCode: fiat, amount, calculationType })
  const create = (auth: string, offerType: string, fiat: string, amount: string, priceCents: string, extra: Record<string, unknown> = {}) =>
    post(auth, "/api/p2p/express/requests", {
      offerType,
      baseCurrencyCode: "USDT",
      quoteCurrencyCode: fiat,
      amount,
      calculationType: "BY_FIAT",
      priceCents,
      idempotencyKey: key(),
      ...extra,
    })
  const current = (auth: string) => get(auth, "/api/p2p/express/current")
  const move = (auth: string, orderId: number, step: string) => post(auth, "/api/p2p/orders/move", { orderId, move: step })
  return { signIn, post, get, fund, balance, audit, key, card, maker, offer, pairs, limits, quote, create, current, move }
}

describe("express mode on PGlite (issue 21; spec 3 §7.1)", () => {
  let database: TestDatabase
  let server: RunningServer
  const clock = Date.now()
  const h = helpers(
    () => server,
    () => clock,
  )

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

  it("pairs come from other users' active offers only, per side", async () => {
    const lena = await h.maker(9_200_000_001, "UAH")
    const buyer = await h.signIn(9_200_000_002)
    await h.card(lena.auth, "GEL")
    await h.offer(lena, "SALE", "UAH", "4000")
    const stopped = await h.offer({ ...lena, details: await h.card(lena.auth, "TRY") }, "SALE", "TRY", "4000")
    expect((await h.post(lena.auth, "/api/p2p/offers/status", { id: stopped.id, status: "INACTIVE" })).body.status).toBe("INACTIVE")
    await h.offer(lena, "PURCHASE", "GEL", "270", { minOrderFiat: "1000" })

    const buying = await h.pairs(buyer, "PURCHASE")
    expect(buying.status).toBe(200)
    expect(buying.body.status).toBe("SUCCESS")
    expect(buying.body.pairs).toContainEqual({ crypto: "USDT", fiat: "UAH" })
    // A stopped offer makes no pair; a PURCHASE offer is for sellers.
    expect(buying.body.pairs).not.toContainEqual({ crypto: "USDT", fiat: "TRY" })
    expect(buying.body.pairs).not.toContainEqual({ crypto: "USDT", fiat: "GEL" })
    expect((await h.pairs(buyer, "SALE")).body.pairs).toContainEqual({ crypto: "USDT", fiat: "GEL" })
    // The maker's own offers make no pair for the maker.
    const own = (await h.pairs(lena.auth, "PURCHASE")).body.pairs
    expect(own).not.toContainEqual({ crypto: "USDT", fiat: "UAH" })
    // A malformed side is a 400 in the API's error shape, not a 500.
    expect((await h.pairs(buyer, "BUY")).status).toBe(400)
  })

  it("limits span the matching offers (the smallest minimum, the largest fill), without the user's own offers", async () => {
    const a = await h.maker(9_200_000_011, "KZT")
    const b = await h.maker(9_200_000_012, "KZT")
    const buyer = await h.signIn(9_200_000_013)
    await h.offer(a, "SALE", "KZT", "10000", { minOrderFiat: "50000", maxOrderFiat: "200000" })
    // 30 USDT at 110.00 fills at most 3,300.00 (below its 5,000.00 maximum).
    await h.offer(b, "SALE", "KZT", "11000", { volume: (30n * USDT).toString(), minOrderFiat: "100000", maxOrderFiat: "500000" })
    const reply = await h.limits(buyer, "PURCHASE", "KZT")
    expect(reply.body).toEqual({ status: "SUCCESS", limits: { minFiat: "50000", maxFiat: "330000", minAmount: "5000000", maxAmount: "30000000" } })
    // Maker a sees only b's offer.
    expect((await h.limits(a.auth, "PURCHASE", "KZT")).body.limits).toEqual({
      minFiat: "100000",
      maxFiat: "330000",
      minAmount: "9090909",
      maxAmount: "30000000",
    })
    // No offers: no limits.
    expect((await h.limits(buyer, "SALE", "KZT")).body).toEqual({ status: "SUCCESS", limits: null })
  })

  it("the best offer: the cheapest for a buyer, the highest for a seller, own offers skipped, ties by completion rate", async () => {
    const m1 = await h.maker(9_200_000_021, "UZS")
    const m2 = await h.maker(9_200_000_022, "UZS")
    const m3 = await h.maker(9_200_000_023, "UZS")
    const buyer = await h.signIn(9_200_000_024)
    const dear = await h.offer(m1, "SALE", "UZS", "10500")
    const cheap = await h.offer(m2, "SALE", "UZS", "10000")
    const buys = await h.quote(buyer, "PURCHASE", "UZS", "100000")
    expect(buys.status).toBe(200)
    expect(buys.body.match).toMatchObject({
      offerId: cheap.id,
      side: "PURCHASE",
      priceCents: "10000",
      fiatAmount: "100000",
      amount: (10n * USDT).toString(),
      // The taker's 0.5 % comes out of what the buyer receives.
      buyerReceives: (10n * USDT - 50_000n).toString(),
      paymentMethod: { code: "card" },
      merchant: { userId: m2.id },
    })
    // m2 asking for itself skips its own cheaper offer.
    expect((await h.quote(m2.auth, "PURCHASE", "UZS", "100000")).body.match.offerId).toBe(dear.id)

    // Sellers get the highest bid; a seller needs details for the offer's method (the buyer pays to them).
    const lowBid = await h.offer(m1, "PURCHASE", "UZS", "9000")
    const highBid = await h.offer(m3, "PURCHASE", "UZS", "9500")
    const seller = await h.signIn(9_200_000_025)
    expect((await h.quote(seller, "SALE", "UZS", "100000")).body).toMatchObject({ code: "express_no_payment_details" })
    const details = await h.card(seller, "UZS")
    const sells = await h.quote(seller, "SALE", "UZS", "100000")
    expect(sells.body.match).toMatchObject({ offerId: highBid.id, side: "SALE", priceCents: "9500", paymentDetailsId: details })
    expect(sells.body.match.offerId).not.toBe(lowBid.id)

    // One price, two makers without a record: the older offer. Then m5 completes an order and m4 cancels one: m5 first.
    const m4 = await h.maker(9_200_000_026, "AZN")
    const m5 = await h.maker(9_200_000_027, "AZN")
    const small = { minOrderFiat: "1000", maxOrderFiat: "10000" }
    const older = await h.offer(m4, "SALE", "AZN", "170", small)
    const newer = await h.offer(m5, "SALE", "AZN", "170", small)
    expect((await h.quote(buyer, "PURCHASE", "AZN", "5000")).body.match.offerId).toBe(older.id)
    const take = (offerId: number) =>
      h.post(buyer, "/api/p2p/orders", { offerId, amount: (10n * USDT).toString(), priceCents: "170", paymentMethodCode: "card", idempotencyKey: h.key() })
    const failed = (await take(older.id)).body
    expect((await h.move(m4.auth, failed.id, "cancel")).body.status).toBe("CANCELLED")
    const done = (await take(newer.id)).body
    await h.move(buyer, done.id, "paid")
    expect((await h.move(m5.auth, done.id, "received")).body.status).toBe("COMPLETED")
    const tie = await h.quote(buyer, "PURCHASE", "AZN", "5000")
    expect(tie.body.match).toMatchObject({ offerId: newer.id, merchant: { userId: m5.id, completionRate: 100 } })
  })

  it("an amount out of limits, a gap between offers, a worse price: refused with a clear code and nothing placed", async () => {
    const m = await h.maker(9_200_000_031, "AMD")
    const buyer = await h.signIn(9_200_000_032)
    await h.offer(m, "SALE", "AMD", "40000", { minOrderFiat: "100000", maxOrderFiat: "200000" })
    await h.offer(m, "SALE", "AMD", "41000", { minOrderFiat: "500000", maxOrderFiat: "600000" })
    const low = await h.quote(buyer, "PURCHASE", "AMD", "99999")
    expect(low.status).toBe(400)
    expect(low.body).toMatchObject({ code: "amount_out_of_limits", fields: ["amount"] })
    expect((await h.create(buyer, "PURCHASE", "AMD", "700000", "41000")).body).toMatchObject({ code: "amount_out_of_limits" })
    // Between the two offers' ranges: inside the limits, but no one offer fills it.
    expect((await h.quote(buyer, "PURCHASE", "AMD", "300000")).body).toMatchObject({ code: "express_no_offer" })
    // The user confirmed 390.00 and the best is 400.00 now (beyond the 0.5 % tolerance): the price now, nothing placed.
    const moved = await h.create(buyer, "PURCHASE", "AMD", "150000", "39000")
    expect(moved.status).toBe(409)
    expect(moved.body).toMatchObject({ code: "price_moved", priceCents: "40000" })
    expect((await h.current(buyer)).body).toEqual({ request: null })
    // Malformed: a negative amount, an unknown calculation type.
    expect((await h.create(buyer, "PURCHASE", "AMD", "-5", "40000")).status).toBe(400)
    expect((await h.create(buyer, "PURCHASE", "AMD", "150000", "40000", { calculationType: "BY_MOOD" })).status).toBe(400)
  })

  it("creating places a real order (the crypto held in the Ledger), the current request follows it, and a new one can start after", async () => {
    const m = await h.maker(9_200_000_041, "BYN")
    const buyer = await h.signIn(9_200_000_042)
    const offer = await h.offer(m, "SALE", "BYN", "300", { minOrderFiat: "1000", maxOrderFiat: "100000" })
    const escrow = await h.balance(escrowOwner(offer.id))
    expect(escrow.held).toBe(0n)
    const quoted = (await h.quote(buyer, "PURCHASE", "BYN", "3000")).body.match
    expect(quoted.amount).toBe((10n * USDT).toString())
    const idempotencyKey = h.key()
    const made = await h.create(buyer, "PURCHASE", "BYN", "3000", quoted.priceCents, { idempotencyKey })
    expect(made.status).toBe(200)
    expect(made.body).toMatchObject({ side: "PURCHASE", crypto: "USDT", fiat: "BYN", status: "MATCHED", failure: null })
    expect(made.body.order).toMatchObject({ offerId: offer.id, status: "ACCEPTED", side: "buyer", amount: (10n * USDT).toString(), fiatAmount: "3000" })
    // The order's crypto and the seller's 1 % fee are held from the offer's escrow for the buyer.
    expect(await h.balance(escrowOwner(offer.id))).toEqual({ available: escrow.available - 10n * USDT - 100_000n, held: 10n * USDT + 100_000n })
    // A retry with the same key answers the same request; nothing is placed twice.
    const again = await h.create(buyer, "PURCHASE", "BYN", "3000", quoted.priceCents, { idempotencyKey })
    expect(again.body).toMatchObject({ id: made.body.id, order: { id: made.body.order.id } })
    expect((await h.balance(escrowOwner(offer.id))).held).toBe(10n * USDT + 100_000n)
    // The current request: the order it became, with its status.
    const now = await h.current(buyer)
    expect(now.body.request).toMatchObject({ id: made.body.id, status: "MATCHED", order: { id: made.body.order.id, status: "ACCEPTED" } })
    // While it is open, another is refused.
    expect((await h.create(buyer, "PURCHASE", "BYN", "3000", quoted.priceCents)).body).toMatchObject({ code: "express_request_open" })
    // The buyer cancels the order: the request is over (shown as such), the hold back in the escrow, and a new one may start.
    expect((await h.move(buyer, made.body.order.id, "cancel")).body.status).toBe("CANCELLED")
    expect((await h.current(buyer)).body.request).toMatchObject({ id: made.body.id, status: "CLOSED", order: { status: "CANCELLED" } })
    expect((await h.balance(escrowOwner(offer.id))).held).toBe(0n)
    const next = await h.create(buyer, "PURCHASE", "BYN", "3300", quoted.priceCents)
    expect(next.body).toMatchObject({ status: "MATCHED", order: { fiatAmount: "3300" } })
    expect((await h.audit()).ok).toBe(true)
  })

  it("an express sale holds the seller's own crypto for the buyer, paid to the seller's details", async () => {
    const bidder = await h.maker(9_200_000_051, "GBP")
    const sellerId = 9_200_000_052
    const seller = await h.signIn(sellerId)
    await h.offer(bidder, "PURCHASE", "GBP", "80", { minOrderFiat: "500", maxOrderFiat: "100000" })
    const details = await h.card(seller, "GBP")
    const quoted = (await h.quote(seller, "SALE", "GBP", (10n * USDT).toString(), "BY_AMOUNT")).body.match
    expect(quoted).toMatchObject({ fiatAmount: "800", paymentDetailsId: details, hold: (10n * USDT + 50_000n).toString() })
    const sell = () =>
      h.post(seller, "/api/p2p/express/requests", {
        offerType: "SALE",
        baseCurrencyCode: "USDT",
        quoteCurrencyCode: "GBP",
        amount: (10n * USDT).toString(),
        calculationType: "BY_AMOUNT",
        priceCents: quoted.priceCents,
        idempotencyKey: h.key(),
      })
    // Nothing to sell yet: the take is refused, the request FAILED with the reason, and it blocks nothing.
    const broke = await sell()
    expect(broke.status).toBe(400)
    expect(broke.body).toMatchObject({ code: "insufficient_funds" })
    expect(await server.sql("select status, failure, order_id from p2p_express_requests where user_id = $1", [sellerId])).toEqual([
      { status: "FAILED", failure: "insufficient_funds", order_id: null },
    ])
    expect((await h.current(seller)).body).toEqual({ request: null })
    await h.fund(sellerId, "USDT", 50n * USDT)
    const made = await sell()
    expect(made.body).toMatchObject({ status: "MATCHED", order: { side: "seller", status: "ACCEPTED", paymentDetails: { id: details } } })
    // The amount and the 0.5 % taker fee are held from the seller's own account.
    expect(await h.balance(userOf(sellerId))).toEqual({ available: 40n * USDT - 50_000n, held: 10n * USDT + 50_000n })
    expect((await h.audit()).ok).toBe(true)
  })

  it("a user the market is closed to (RU in the default config) is refused, and never express-only", async () => {
    const id = 9_200_000_061
    const auth = await h.signIn(id)
    await server.sql("update kernel_users set country_alpha2_ip = 'RU' where id = $1", [id])
    const user = await h.get(auth, "/api/p2p/user")
    expect(user.body).toMatchObject({ unavailable: "region", expressOnly: false })
    expect((await h.pairs(auth, "PURCHASE")).body).toMatchObject({ code: "p2p_unavailable", why: "region" })
  })
})

/**
 * On PostgreSQL (real concurrency), in a region whose market does not restrict RU: many creates of one
 * user at once end in one request and one order; express-only users from RU created today.
 */
describe("express mode on PostgreSQL, RU unrestricted (issue 21; spec 3 §4.1)", () => {
  let database: TestDatabase
  let server: RunningServer
  const h = helpers(
    () => server,
    () => Date.now(),
  )

  beforeAll(async () => {
    database = await startTestDatabase("postgres")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      plugins: [custodyPlugin, serverPlugin, p2pProbePlugin],
      pluginConfig: { p2p: { makerFeeBps: 100, takerFeeBps: 0, maxOpenOrdersPerOffer: 100, restrictedCountries: [] } },
    })
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  it("concurrent creates of one user: one current request, one order, one hold", async () => {
    const m = await h.maker(9_300_000_001, "RUB")
    const buyer = await h.signIn(9_300_000_002)
    const offer = await h.offer(m, "SALE", "RUB", "9000")
    const replies = await Promise.all(Array.from({ length: 8 }, () => h.create(buyer, "PURCHASE", "RUB", "90000", "9000")))
    const made = replies.filter((reply) => reply.status === 200)
    expect(made).toHaveLength(1)
    for (const reply of replies.filter((r) => r.status !== 200)) expect(reply.body).toMatchObject({ code: "express_request_open" })
    const current = (await h.current(buyer)).body.request
    expect(current).toMatchObject({ id: made[0]!.body.id, status: "MATCHED", order: { status: "ACCEPTED" } })
    const orders = (await h.post(buyer, "/api/p2p/orders/history", { offset: 0, limit: 50, filter: { status: "ALL_ACTIVE" } })).body.items
    expect(orders).toHaveLength(1)
    expect(await h.balance(escrowOwner(offer.id))).toMatchObject({ held: 10n * USDT + 100_000n })
    const rows = (await server.sql("select status from p2p_express_requests where user_id = $1", [9_300_000_002])) as Array<{ status: string }>
    expect(rows.map((row) => row.status)).toEqual(["MATCHED"])
    expect((await h.audit()).ok).toBe(true)
  })

  it("an unrestricted user from RU created today is express-only: no ads, no list takes, express works", async () => {
    const m = await h.maker(9_300_000_011, "TRY")
    const offer = await h.offer(m, "SALE", "TRY", "3500")
    const id = 9_300_000_012
    const auth = await h.signIn(id)
    await server.sql("update kernel_users set country_alpha2_ip = 'RU' where id = $1", [id])
    expect((await h.get(auth, "/api/p2p/user")).body).toMatchObject({ unavailable: null, expressOnly: true })
    const details = await h.card(auth, "RUB")
    const ad = await h.post(auth, "/api/p2p/offers", {
      type: "SALE",
      crypto: "USDT",
      fiat: "RUB",
      price: { type: "FIXED", value: "9000" },
      volume: "1000000",
      minOrderFiat: "1000",
      maxOrderFiat: "9000",
      paymentDetailsIds: [details],
      paymentMethodCodes: [],
      paymentWindowMinutes: 15,
      terms: null,
      autoAccept: true,
      idempotencyKey: h.key(),
    })
    expect(ad.status).toBe(400)
    expect(ad.body).toMatchObject({ code: "express_only" })
    const direct = await h.post(auth, "/api/p2p/orders", {
      offerId: offer.id,
      amount: "20000000",
      priceCents: "3500",
      paymentMethodCode: "card",
      idempotencyKey: h.key(),
    })
    expect(direct.body).toMatchObject({ code: "express_only" })
    const express = await h.create(auth, "PURCHASE", "TRY", "70000", "3500")
    expect(express.body).toMatchObject({ status: "MATCHED", order: { offerId: offer.id, status: "ACCEPTED" } })
  })

  it("by residence or phone country too; not once the account is older than today", async () => {
    const byPhone = 9_300_000_021
    const auth = await h.signIn(byPhone)
    await server.sql("update kernel_users set country_alpha2_ip = 'NL', country_alpha2_phone = 'RU' where id = $1", [byPhone])
    expect((await h.get(auth, "/api/p2p/user")).body.expressOnly).toBe(true)
    await server.sql("update kernel_users set created_at = now() - interval '2 days', profile_created_at = null where id = $1", [byPhone])
    expect((await h.get(auth, "/api/p2p/user")).body.expressOnly).toBe(false)
    const dutch = 9_300_000_022
    const other = await h.signIn(dutch)
    await server.sql("update kernel_users set country_alpha2_ip = 'NL' where id = $1", [dutch])
    expect((await h.get(other, "/api/p2p/user")).body.expressOnly).toBe(false)
  })
})
