import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defineServerPlugin, signInitData, startServer, VerificationLimits, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, tma, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { priceQuote } from "../domain.ts"
import { serverPlugin } from "./index.ts"
import { exchangeProbePlugin, HOUSE, userOf } from "./testing.ts"

const BOT_TOKEN = "1234567:exchange-test"
const USDT = 1_000_000n
const TON = 1_000_000_000n
/** Monday 7 January 2030, 15:00 UTC: the US market is open. */
const MONDAY_OPEN = Date.UTC(2030, 0, 7, 15, 0)
/** Saturday 5 January 2030, 15:00 UTC: closed. */
const SATURDAY = Date.UTC(2030, 0, 5, 15, 0)

/** Verification levels by user (the kyc plugin's port, here a table the test fills). */
const levels = new Map<number, string>()
const levelsPlugin = defineServerPlugin({
  id: "test-levels",
  verificationLimits: Layer.succeed(VerificationLimits, {
    allowance: (userId) => Effect.succeed({ level: levels.get(userId) ?? "LEVEL_0", limitUsdCents: null, windowDays: 30, nextLevel: null }),
  }),
})

describe("exchange on PGlite (issue 22)", () => {
  let database: TestDatabase
  let server: RunningServer
  let clock = MONDAY_OPEN
  let nextUser = 8_300_000_000

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock,
      plugins: [custodyPlugin, serverPlugin, exchangeProbePlugin, levelsPlugin],
      pluginConfig: { exchange: { spreadBps: 50, feeBps: 10, quoteTtlMs: 15_000, minUsdCents: 100, maxUsdCents: 1_000_000, restrictedCountries: ["XX"] } },
    })
    await fund(0, "TON", 100_000n * TON)
    await fund(0, "USDT", 100_000n * USDT)
    await fund(0, "TSLAx", 1_000n * 100_000_000n)
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const fund = (userId: number, currency: string, amount: bigint) =>
    call(server.url, "POST", "/api/exchange-probe/fund", { body: { userId, currency, amount: amount.toString() } })
  const balance = async (owner: string, currency: string) =>
    BigInt((await call(server.url, "POST", "/api/exchange-probe/balance", { body: { owner, currency } })).body.available)
  const movements = async (uid: string) => (await call(server.url, "POST", "/api/exchange-probe/movements", { body: { uid } })).body.count as number
  const audit = async () => (await call(server.url, "GET", "/api/exchange-probe/audit")).body
  const signIn = async (usdt = 0n, language = "en") => {
    const id = ++nextUser
    const initData = signInitData(
      { user: { id, first_name: "Xena", language_code: language }, authDate: new Date(clock), queryId: `q${id}`, chatType: "sender" },
      BOT_TOKEN,
    )
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    expect(reply.status).toBe(200)
    if (usdt > 0n) await fund(id, "USDT", usdt)
    return { id, auth: bearer(reply.body.access_token as string) }
  }
  const post = (auth: string, path: string, body: unknown) => call(server.url, "POST", path, { authorization: auth, body })
  const quote = (auth: string, body: Record<string, unknown>) =>
    post(auth, "/api/exchange/quote", { payCurrency: "USDT", receiveCurrency: "TON", exchangeMode: "pay", amount: "10", ...body })
  /** The prices the server stored with the quote. */
  const pricesOf = async (uid: string) => {
    const [row] = (await server.sql("select pay_price::text as pay, receive_price::text as receive from exchange_quotes where uid = $1", [uid])) as Array<{
      pay: string
      receive: string
    }>
    return { pay: BigInt(row!.pay), receive: BigInt(row!.receive) }
  }

  it("prices pay mode exactly in minor units: the fee on top of the converted part, the spread off the rate", async () => {
    const { auth } = await signIn(100n * USDT)
    const reply = await quote(auth, { amount: "10" })
    expect(reply.status).toBe(200)
    const q = reply.body
    const prices = await pricesOf(q.uid)
    const expected = priceQuote({
      mode: "pay",
      amount: 10n * USDT,
      pay: { decimals: 6, price: prices.pay },
      receive: { decimals: 9, price: prices.receive },
      spreadBps: 50,
      feeBps: 10,
    })!
    expect(q).toMatchObject({
      status: "OPEN",
      exchangeMode: "pay",
      payUnits: "10000000",
      payAmount: "10",
      feeUnits: expected.fee.toString(),
      receiveUnits: expected.receive.toString(),
      insufficientBalance: false,
      sandbox: true,
    })
    // 10 USDT = net + fee, the fee 0.1 % of the net rounded up; receive = net at the price less 0.5 %, rounded down.
    expect(expected.net + expected.fee).toBe(10n * USDT)
    expect(expected.fee).toBe(9_991n)
    expect(expected.receive).toBe((expected.net * prices.pay * TON * 9_950n) / (prices.receive * USDT * 10_000n))
    expect(new Date(q.expiresAt).getTime() - new Date(q.serverTime).getTime()).toBe(15_000)
  })

  it("prices receive mode: the user gets exactly the amount asked, paying the rounded-up net plus its fee", async () => {
    const { auth } = await signIn(100n * USDT)
    const q = (await quote(auth, { exchangeMode: "receive", amount: "2.5" })).body
    const prices = await pricesOf(q.uid)
    const expected = priceQuote({
      mode: "receive",
      amount: 2_500_000_000n,
      pay: { decimals: 6, price: prices.pay },
      receive: { decimals: 9, price: prices.receive },
      spreadBps: 50,
      feeBps: 10,
    })!
    expect(q.receiveUnits).toBe("2500000000")
    expect(q.payUnits).toBe(expected.payTotal.toString())
    // The net pays for at least the amount asked, one unit less would not.
    const gets = (net: bigint) => (net * prices.pay * TON * 9_950n) / (prices.receive * USDT * 10_000n)
    expect(gets(expected.net)).toBeGreaterThanOrEqual(2_500_000_000n)
    expect(gets(expected.net - 1n)).toBeLessThan(2_500_000_000n)
  })

  it("executes a quote once: balances move by its figures, a second and a racing confirm answer the same, one movement, a bot message and a history row", async () => {
    const { id, auth } = await signIn(100n * USDT)
    const houseTon = await balance(HOUSE, "TON")
    const q = (await quote(auth, { amount: "10" })).body
    const [first, second] = await Promise.all([post(auth, "/api/exchange/confirm", { uid: q.uid }), post(auth, "/api/exchange/confirm", { uid: q.uid })])
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.body.transactionId).toBe(first.body.transactionId)
    const third = await post(auth, "/api/exchange/confirm", { uid: q.uid })
    expect(third.body).toMatchObject({ transactionId: first.body.transactionId, quote: { status: "EXECUTED", uid: q.uid } })
    expect(await movements(q.uid)).toBe(1)
    expect(await balance(userOf(id), "USDT")).toBe(90n * USDT)
    expect(await balance(userOf(id), "TON")).toBe(BigInt(q.receiveUnits))
    expect(await balance(HOUSE, "TON")).toBe(houseTon - BigInt(q.receiveUnits))
    const messages = (await server.sql("select subject, body from outbox_messages where recipient = $1", [String(id)])) as Array<{
      subject: string
      body: string
    }>
    expect(messages).toEqual([
      { subject: "exchange.executed", body: `Exchange completed: you paid 10 USDT and received ${q.receiveAmount} TON. It is in your wallet now.` },
    ])
    const history = (await call(server.url, "GET", "/api/custody/transactions", { authorization: auth })).body
    const row = history.items.find((item: { gateway: string }) => item.gateway === "crypto_exchange")
    expect(row).toMatchObject({ type: "withdraw", currency: "USDT", amount: "10", pairTransactionAmount: q.receiveAmount, pairTransactionCurrency: "TON" })
    expect((await audit()).violations).toEqual([])
    // In Russian for a Russian speaker.
    const ru = await signIn(100n * USDT, "ru")
    const ruQuote = (await quote(ru.auth, { amount: "10" })).body
    expect((await post(ru.auth, "/api/exchange/confirm", { uid: ruQuote.uid })).status).toBe(200)
    const [said] = (await server.sql("select body from outbox_messages where recipient = $1", [String(ru.id)])) as Array<{ body: string }>
    expect(said!.body).toBe(`Обмен выполнен: вы отдали 10 USDT и получили ${ruQuote.receiveAmount} TON. Средства уже в кошельке.`)
  })

  it("an expired quote moves nothing and answers 409 quote_expired with a fresh quote, which confirms", async () => {
    const { id, auth } = await signIn(100n * USDT)
    const q = (await quote(auth, { amount: "5" })).body
    clock += 15_001
    const expired = await post(auth, "/api/exchange/confirm", { uid: q.uid })
    expect(expired.status).toBe(409)
    expect(expired.body).toMatchObject({ code: "quote_expired", fresh: { status: "OPEN", payUnits: "5000000", exchangeMode: "pay" } })
    expect(expired.body.fresh.uid).not.toBe(q.uid)
    expect(await movements(q.uid)).toBe(0)
    expect(await balance(userOf(id), "USDT")).toBe(100n * USDT)
    expect((await post(auth, "/api/exchange/quote/get", { uid: q.uid })).body.status).toBe("EXPIRED")
    // Confirming the old one again still refuses; the fresh one executes.
    expect((await post(auth, "/api/exchange/confirm", { uid: q.uid })).status).toBe(409)
    const done = await post(auth, "/api/exchange/confirm", { uid: expired.body.fresh.uid })
    expect(done.status).toBe(200)
    expect(await balance(userOf(id), "USDT")).toBe(95n * USDT)
  })

  it("refuses amounts outside the limits, a pair not offered, a malformed request and another user's quote", async () => {
    const { auth } = await signIn(100n * USDT)
    const small = await quote(auth, { amount: "0.5" })
    expect(small.status).toBe(400)
    expect(small.body).toMatchObject({ code: "amount_too_small", limit: expect.any(String) })
    const large = await quote(auth, { amount: "20000" })
    expect(large.body).toMatchObject({ code: "amount_too_large" })
    expect(Number(large.body.limit)).toBeGreaterThan(9_000)
    expect((await quote(auth, { receiveCurrency: "USDT" })).body).toMatchObject({ code: "pair_not_offered" })
    expect((await quote(auth, { amount: "0.0000001" })).body).toMatchObject({ code: "invalid_amount" })
    const malformed = await quote(auth, { amount: "-1", receiveCurrency: "DOGE" })
    expect(malformed.status).toBe(400)
    expect(malformed.body).toMatchObject({ _tag: expect.any(String), message: expect.any(String) })
    const other = await signIn()
    const mine = (await quote(auth, { amount: "10" })).body
    expect((await post(other.auth, "/api/exchange/confirm", { uid: mine.uid })).body).toMatchObject({ code: "quote_not_found" })
    expect((await call(server.url, "POST", "/api/exchange/quote", { body: {} })).status).toBe(401)
  })

  it("over balance: the quote says so and confirming refuses with nothing moved; the house's inventory caps receive", async () => {
    const { id, auth } = await signIn(3n * USDT)
    const q = (await quote(auth, { amount: "10" })).body
    expect(q.insufficientBalance).toBe(true)
    const refused = await post(auth, "/api/exchange/confirm", { uid: q.uid })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe("insufficient_balance")
    expect(await movements(q.uid)).toBe(0)
    expect(await balance(userOf(id), "USDT")).toBe(3n * USDT)
    expect((await post(auth, "/api/exchange/quote/get", { uid: q.uid })).body.status).toBe("OPEN")
    // The house holds 1,000 TSLAx: asking for more is refused before any quote.
    const rich = await signIn(1_000_000n * USDT)
    const tooMuch = await post(rich.auth, "/api/exchange/quote", {
      payCurrency: "USDT",
      receiveCurrency: "TSLAx",
      exchangeMode: "receive",
      amount: "1001",
    })
    expect(tooMuch.body.code).toMatch(/insufficient_liquidity|amount_too_large/)
  })

  it("stock tokens trade only in market hours: TSLAx refused on a Saturday (quote and confirm), allowed on a Monday afternoon", async () => {
    const { id, auth } = await signIn(1_000n * USDT)
    clock = SATURDAY
    const closed = await post(auth, "/api/exchange/quote", { payCurrency: "USDT", receiveCurrency: "TSLAx", exchangeMode: "pay", amount: "50" })
    expect(closed.status).toBe(400)
    expect(closed.body).toMatchObject({ code: "trading_closed", nextOpening: new Date(Date.UTC(2030, 0, 7, 14, 30)).toISOString() })
    clock = MONDAY_OPEN
    const open = await post(auth, "/api/exchange/quote", { payCurrency: "USDT", receiveCurrency: "TSLAx", exchangeMode: "pay", amount: "50" })
    expect(open.status).toBe(200)
    // Quoted at 20:59:55 UTC, confirmed at 21:00:01 (16:00 in New York in January): the market closed in between.
    clock = Date.UTC(2030, 0, 7, 20, 59, 55)
    const evening = await signIn(1_000n * USDT)
    const late = (await post(evening.auth, "/api/exchange/quote", { payCurrency: "USDT", receiveCurrency: "TSLAx", exchangeMode: "pay", amount: "50" })).body
    clock = Date.UTC(2030, 0, 7, 21, 0, 1)
    expect((await post(evening.auth, "/api/exchange/confirm", { uid: late.uid })).body).toMatchObject({ code: "trading_closed" })
    expect(await movements(late.uid)).toBe(0)
    expect(await balance(userOf(evening.id), "USDT")).toBe(1_000n * USDT)
    clock = MONDAY_OPEN + 60_000
    const again = (await post(auth, "/api/exchange/quote", { payCurrency: "USDT", receiveCurrency: "TSLAx", exchangeMode: "pay", amount: "50" })).body
    expect((await post(auth, "/api/exchange/confirm", { uid: again.uid })).status).toBe(200)
    expect(await balance(userOf(id), "TSLAx")).toBe(BigInt(again.receiveUnits))
  })

  it("access: no exchange without canExchange; on iOS/macOS at level 1 in a restricted country region_restricted; elsewhere allowed", async () => {
    const blocked = await signIn(100n * USDT)
    await server.sql(`update kernel_users set permissions = '{"canExchange": false}'::jsonb where id = $1`, [blocked.id])
    expect((await quote(blocked.auth, {})).body).toMatchObject({ code: "exchange_unavailable" })
    const level1 = await signIn(100n * USDT)
    levels.set(level1.id, "LEVEL_1")
    await server.sql(`update kernel_users set country_alpha2_ip = 'XX' where id = $1`, [level1.id])
    const ios = await quote(level1.auth, { platform: "ios" })
    expect(ios.status).toBe(403)
    expect(ios.body).toMatchObject({ code: "region_restricted" })
    expect((await quote(level1.auth, { platform: "macos" })).body.code).toBe("region_restricted")
    expect((await quote(level1.auth, { platform: "android" })).status).toBe(200)
    levels.set(level1.id, "LEVEL_2")
    expect((await quote(level1.auth, { platform: "ios" })).status).toBe(200)
    // Stocks: at level 2 the country flag must hold too.
    expect(
      (await post(level1.auth, "/api/exchange/quote", { payCurrency: "USDT", receiveCurrency: "TSLAx", exchangeMode: "pay", amount: "50" })).body.code,
    ).toBe("stocks_unavailable")
  })

  it("settings list the offered currencies with the stock flag and the market state by the server's clock", async () => {
    const { auth } = await signIn()
    clock = SATURDAY
    const settings = (await call(server.url, "GET", "/api/exchange/settings", { authorization: auth })).body
    clock = MONDAY_OPEN
    expect(settings).toMatchObject({ marketOpen: false, quoteTtlMs: 15_000, minUsdCents: 100, spreadBps: 50, feeBps: 10 })
    expect(settings.currencies.find((c: { code: string }) => c.code === "TSLAx")).toMatchObject({ marketHours: true, category: "stock" })
    expect(settings.currencies.find((c: { code: string }) => c.code === "TON")).toMatchObject({ marketHours: false, decimals: 9 })
    expect((await audit()).ok).toBe(true)
  })
})
