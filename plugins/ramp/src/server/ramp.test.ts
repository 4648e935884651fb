import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, tma, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { DEV_RAMP, serverPlugin } from "./index.ts"
import { rampProbePlugin } from "./testing.ts"

const BOT_TOKEN = "1234567:ramp-test"
const USDT = 1_000_000n
const MOONPAY = DEV_RAMP.moonpay
const MERCURYO = DEV_RAMP.mercuryo
/** No provider answers here: the status reads fall back to the row (webhooks drive these tests). */
const NOWHERE = "http://127.0.0.1:9"

describe("ramp on PGlite (issue 23)", () => {
  let database: TestDatabase
  let server: RunningServer
  let clock = Date.UTC(2030, 0, 7, 12, 0)
  let nextUser = 8_400_000_000

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock,
      plugins: [custodyPlugin, serverPlugin, rampProbePlugin],
      pluginConfig: {
        ramp: {
          sandbox: true,
          providers: {
            moonpay: { ...MOONPAY, apiUrl: NOWHERE, widgetUrl: `${NOWHERE}/moonpay/buy`, sellWidgetUrl: `${NOWHERE}/moonpay/sell` },
            mercuryo: { ...MERCURYO, apiUrl: NOWHERE, widgetUrl: `${NOWHERE}/mercuryo/widget` },
          },
        },
      },
    })
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (language = "en") => {
    const id = ++nextUser
    const initData = signInitData(
      { user: { id, first_name: "Rita", language_code: language }, authDate: new Date(clock), queryId: `q${id}`, chatType: "sender" },
      BOT_TOKEN,
    )
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    expect(reply.status).toBe(200)
    return { id, auth: bearer(reply.body.access_token as string) }
  }
  const fund = (userId: number, currency: string, amount: bigint) =>
    call(server.url, "POST", "/api/ramp-probe/fund", { body: { userId, currency, amount: amount.toString() } })
  const balance = async (owner: string, currency: string) => {
    const body = (await call(server.url, "POST", "/api/ramp-probe/balance", { body: { owner, currency } })).body
    return { available: BigInt(body.available), held: BigInt(body.held) }
  }
  const audit = async () => (await call(server.url, "GET", "/api/ramp-probe/audit")).body
  const movements = async (key: string) =>
    Number(((await server.sql("select count(*)::int as n from ledger_transactions where idempotency_key = $1", [key])) as Array<{ n: number }>)[0]!.n)
  const row = async (id: string) =>
    (
      (await server.sql("select status, crypto_units::text as units, failure_reason from ramp_transactions where id = $1", [id])) as Array<
        Record<string, string | null>
      >
    )[0]
  const messages = async (userId: number) =>
    (await server.sql("select subject, body from outbox_messages where recipient = $1 order by id", [String(userId)])) as Array<{
      subject: string
      body: string
    }>

  const buy = (auth: string, body: Record<string, unknown> = {}) =>
    call(server.url, "POST", "/api/ramp/buy", {
      authorization: auth,
      body: { provider: "moonpay", currency: "TON", network: "ton", fiatCurrency: "EUR", amount: "50", inputMode: "fiat", paymentMethod: "card", ...body },
    })

  /** A MoonPay webhook as MoonPay signs it: `t=<unix s>,s=<hex HMAC-SHA256("<t>.<body>")>`. */
  const moonpayHook = (payload: unknown, options: { key?: string; t?: number } = {}) => {
    const text = JSON.stringify(payload)
    const t = options.t ?? Math.floor(clock / 1000)
    const s = createHmac("sha256", options.key ?? MOONPAY.webhookKey)
      .update(`${t}.${text}`)
      .digest("hex")
    return fetch(`${server.url}/api/ramp/webhooks/moonpay`, {
      method: "POST",
      headers: { "content-type": "application/json", "moonpay-signature-v2": `t=${t},s=${s}` },
      body: text,
    })
  }
  const mercuryoHook = (payload: unknown, key: string = MERCURYO.signKey) => {
    const text = JSON.stringify(payload)
    const signature = createHmac("sha256", key).update(text).digest("hex")
    return fetch(`${server.url}/api/ramp/webhooks/mercuryo`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": signature },
      body: text,
    })
  }
  const moonpayBuyEvent = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
    type: status === "failed" ? "transaction_failed" : "transaction_updated",
    data: {
      id: `mp-${id.slice(0, 8)}`,
      status,
      baseCurrencyAmount: 50,
      quoteCurrencyAmount: 8.5,
      externalTransactionId: id,
      createdAt: "2030-01-07T12:00:00Z",
      updatedAt: "2030-01-07T12:01:00Z",
      ...extra,
    },
    externalCustomerId: "x",
  })

  it("answers the routing, the payment methods (unsupported fiat: a clear 4xx) and the providers' currencies without restricted ones", async () => {
    const { auth } = await signIn()
    const routing = await call(server.url, "GET", "/api/ramp/routing", { authorization: auth })
    expect(routing.status).toBe(200)
    expect(routing.body.buy.TON).toMatchObject({ provider: "moonpay", providers: ["moonpay", "mercuryo"], networks: ["ton"] })
    expect(routing.body.sell.USDT.providers).toEqual(["moonpay"])
    const eur = await call(server.url, "GET", "/api/ramp/payment-methods?direction=buy&fiatCurrency=EUR", { authorization: auth })
    expect(eur.status).toBe(200)
    expect(eur.body.methods.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(["card", "sepa", "apple_pay"]))
    const rub = await call(server.url, "GET", "/api/ramp/payment-methods?direction=buy&fiatCurrency=RUB", { authorization: auth })
    expect(rub.status).toBe(400)
    expect(rub.body.code).toBe("unsupported_fiat_currency")
    expect((await call(server.url, "GET", "/api/ramp/payment-methods?direction=up&fiatCurrency=EUR", { authorization: auth })).status).toBe(400)
    const currencies = await call(server.url, "GET", "/api/ramp/payment-currencies?provider=moonpay&direction=buy", { authorization: auth })
    expect(currencies.status).toBe(200)
    const codes = currencies.body.fiats.map((f: { code: string }) => f.code)
    expect(codes).toContain("EUR")
    expect(codes).not.toContain("NGN")
    const options = await call(server.url, "GET", "/api/ramp/options", { authorization: auth })
    expect(options.body).toMatchObject({ defaultFiat: "EUR", recentFiats: [] })
    expect((await call(server.url, "GET", "/api/ramp/routing")).status).toBe(401)
  })

  it("signs a MoonPay buy URL the provider can verify, and refuses amounts outside the limits and an unsupported fiat", async () => {
    const { id, auth } = await signIn()
    const started = await buy(auth, { returnUrl: "https://app.example/assets/ramp/asterium-trx-status" })
    expect(started.status).toBe(200)
    const url = new URL(started.body.widgetUrl)
    expect(url.origin + url.pathname).toBe(`${NOWHERE}/moonpay/buy`)
    expect(url.searchParams.get("externalTransactionId")).toBe(started.body.transaction.id)
    expect(url.searchParams.get("externalCustomerId")).toBe(String(id))
    expect(url.searchParams.get("baseCurrencyCode")).toBe("eur")
    expect(url.searchParams.get("currencyCode")).toBe("ton")
    const search = url.search
    const at = search.lastIndexOf("&signature=")
    const expected = createHmac("sha256", MOONPAY.secretKey).update(search.slice(0, at)).digest("base64")
    expect(decodeURIComponent(search.slice(at + "&signature=".length))).toBe(expected)
    expect(new URL(url.searchParams.get("redirectURL")!).searchParams.get("external_transaction_id")).toBe(started.body.transaction.id)
    expect(started.body.transaction).toMatchObject({ status: "CREATED", fiatAmount: "50", fiatCurrency: "EUR", provider: "moonpay", direction: "buy" })

    const small = await buy(auth, { amount: "5" })
    expect(small.status).toBe(400)
    expect(small.body).toMatchObject({ code: "amount_too_small", limit: "20" })
    const large = await buy(auth, { amount: "1000000" })
    expect(large.status).toBe(400)
    expect(large.body.code).toBe("amount_too_large")
    const rub = await buy(auth, { fiatCurrency: "RUB" })
    expect(rub.status).toBe(400)
    expect(rub.body.code).toBe("unsupported_fiat_currency")
    const malformed = await buy(auth, { amount: "-1" })
    expect(malformed.status).toBe(400)
    expect((await buy(auth, { currency: "DOGE" })).status).toBe(400)
    const rows = (await server.sql("select count(*)::int as n from ramp_transactions where user_id = $1", [id])) as Array<{ n: number }>
    expect(rows[0]!.n).toBe(1)

    const mercuryo = await buy(auth, { provider: "mercuryo", amount: "30" })
    expect(mercuryo.status).toBe(200)
    const murl = new URL(mercuryo.body.widgetUrl)
    expect(murl.searchParams.get("merchant_transaction_id")).toBe(mercuryo.body.transaction.id)
    expect(murl.searchParams.get("signature")).toMatch(/^[0-9a-f]{128}$/)
  })

  it("refuses a forged and a replayed webhook (401, nothing changes); a completed one credits once, duplicates and racing copies change nothing", async () => {
    const { id, auth } = await signIn("ru")
    const started = await buy(auth)
    const rampId = started.body.transaction.id as string
    const owner = `user:${id}`

    const forged = await moonpayHook(moonpayBuyEvent(rampId, "completed"), { key: "wk_wrong" })
    expect(forged.status).toBe(401)
    expect(((await forged.json()) as { code: string }).code).toBe("webhook_signature_invalid")
    const unsigned = await fetch(`${server.url}/api/ramp/webhooks/moonpay`, { method: "POST", body: JSON.stringify(moonpayBuyEvent(rampId, "completed")) })
    expect(unsigned.status).toBe(401)
    const replayed = await moonpayHook(moonpayBuyEvent(rampId, "completed"), { t: Math.floor(clock / 1000) - 600 })
    expect(replayed.status).toBe(401)
    expect(((await replayed.json()) as { code: string }).code).toBe("webhook_timestamp_stale")
    expect((await row(rampId))!.status).toBe("CREATED")
    expect((await balance(owner, "TON")).available).toBe(0n)

    const pending = await moonpayHook(moonpayBuyEvent(rampId, "pending"))
    expect(await pending.json()).toMatchObject({ ok: true, outcome: "applied" })
    expect((await row(rampId))!.status).toBe("PENDING")

    const completed = moonpayBuyEvent(rampId, "completed")
    const first = await moonpayHook(completed)
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ outcome: "credited" })
    expect((await balance(owner, "TON")).available).toBe(8_500_000_000n)
    // The same delivery again (a retry), another delivery of the same news, and an older status: nothing moves.
    expect(await (await moonpayHook(completed)).json()).toMatchObject({ outcome: "duplicate" })
    expect(await (await moonpayHook(moonpayBuyEvent(rampId, "completed", { updatedAt: "2030-01-07T12:02:00Z" }))).json()).toMatchObject({ outcome: "stale" })
    expect(await (await moonpayHook(moonpayBuyEvent(rampId, "pending", { updatedAt: "2030-01-07T12:03:00Z" }))).json()).toMatchObject({ outcome: "stale" })
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => moonpayHook(moonpayBuyEvent(rampId, "completed", { updatedAt: `2030-01-07T12:1${i}:00Z` })).then((r) => r.json())),
    )
    expect(racing.every((r) => (r as { outcome: string }).outcome === "stale")).toBe(true)
    expect((await balance(owner, "TON")).available).toBe(8_500_000_000n)
    expect(await movements(`ramp:${rampId}:credit`)).toBe(1)
    expect(await row(rampId)).toMatchObject({ status: "COMPLETED", units: "8500000000" })
    expect((await balance("system:ramp:moonpay", "TON")).available).toBe(-8_500_000_000n)
    const sent = await messages(id)
    expect(sent.filter((m) => m.subject === "ramp.credited")).toHaveLength(1)
    expect(sent[0]!.body).toContain("8.5 TON")
    expect(sent[0]!.body).toContain("Покупка")

    const read = await call(server.url, "GET", `/api/ramp/transaction?id=${rampId}`, { authorization: auth })
    expect(read.body).toMatchObject({ status: "COMPLETED", cryptoAmount: "8.5" })
    const other = await signIn()
    expect((await call(server.url, "GET", `/api/ramp/transaction?id=${rampId}`, { authorization: other.auth })).status).toBe(404)
    expect((await call(server.url, "GET", `/api/ramp/transaction?id=nope`, { authorization: other.auth })).status).toBe(400)
    expect((await call(server.url, "GET", "/api/ramp/options", { authorization: auth })).body.recentFiats).toEqual(["EUR"])
    expect((await audit()).ok).toBe(true)
  })

  it("credits once when completed copies arrive at the same moment (first delivery racing)", async () => {
    const { id, auth } = await signIn()
    const rampId = (await buy(auth)).body.transaction.id as string
    const copies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => moonpayHook(moonpayBuyEvent(rampId, "completed", { updatedAt: `2030-01-07T12:2${i}:00Z` })).then((r) => r.json())),
    )
    expect(copies.filter((c) => (c as { outcome: string }).outcome === "credited")).toHaveLength(1)
    expect((await balance(`user:${id}`, "TON")).available).toBe(8_500_000_000n)
    expect(await movements(`ramp:${rampId}:credit`)).toBe(1)
  })

  it("a declined card fails the purchase and credits nothing; a completion after it changes nothing", async () => {
    const { id, auth } = await signIn()
    const rampId = (await buy(auth)).body.transaction.id as string
    const failed = await moonpayHook(moonpayBuyEvent(rampId, "failed", { failureReason: "card_declined" }))
    expect(await failed.json()).toMatchObject({ outcome: "applied" })
    expect(await row(rampId)).toMatchObject({ status: "FAILED", failure_reason: "card_declined" })
    expect(await (await moonpayHook(moonpayBuyEvent(rampId, "completed"))).json()).toMatchObject({ outcome: "stale" })
    expect((await balance(`user:${id}`, "TON")).available).toBe(0n)
    expect(await movements(`ramp:${rampId}:credit`)).toBe(0)
  })

  it("does not credit a completion outside the provider's limits or in another currency", async () => {
    const { id, auth } = await signIn()
    const rampId = (await buy(auth)).body.transaction.id as string
    expect(await (await moonpayHook(moonpayBuyEvent(rampId, "completed", { quoteCurrencyAmount: 999_999 }))).json()).toMatchObject({
      outcome: "refused_amount",
    })
    expect(await (await moonpayHook(moonpayBuyEvent(rampId, "completed", { currency: { code: "usdt_ton" }, updatedAt: "x" }))).json()).toMatchObject({
      outcome: "refused_amount",
    })
    expect((await balance(`user:${id}`, "TON")).available).toBe(0n)
    expect((await row(rampId))!.status).toBe("CREATED")
  })

  it("Mercuryo: a forged callback is refused; a succeeded one credits once (gateway card)", async () => {
    const { id, auth } = await signIn()
    const rampId = (await buy(auth, { provider: "mercuryo", currency: "USDT", amount: "30" })).body.transaction.id as string
    const callback = (status: string, extra: Record<string, unknown> = {}) => ({
      payload: {
        type: "buy",
        data: { id: "m-1", status, amount: "29.5", currency: "USDT", fiat_amount: "30", fiat_currency: "EUR", merchant_transaction_id: rampId, ...extra },
      },
    })
    expect((await mercuryoHook(callback("succeeded"), "wrong")).status).toBe(401)
    expect((await balance(`user:${id}`, "USDT")).available).toBe(0n)
    expect(await (await mercuryoHook(callback("paid"))).json()).toMatchObject({ outcome: "applied" })
    expect(await (await mercuryoHook(callback("succeeded"))).json()).toMatchObject({ outcome: "credited" })
    expect(await (await mercuryoHook(callback("succeeded"))).json()).toMatchObject({ outcome: "duplicate" })
    expect((await balance(`user:${id}`, "USDT")).available).toBe(29_500_000n)
    const [movement] = (await server.sql("select metadata->>'gateway' as gateway from ledger_transactions where idempotency_key = $1", [
      `ramp:${rampId}:credit`,
    ])) as Array<{
      gateway: string
    }>
    expect(movement!.gateway).toBe("card")
  })

  it("a sale holds the crypto with the row, posts it when MoonPay completes, voids it when it fails", async () => {
    const { id, auth } = await signIn()
    await fund(id, "USDT", 100n * USDT)
    const sell = (amount: string) =>
      call(server.url, "POST", "/api/ramp/sell", {
        authorization: auth,
        body: { provider: "moonpay", currency: "USDT", network: "ton", fiatCurrency: "EUR", amount },
      })
    const short = await sell("500")
    expect(short.status).toBe(400)
    expect(short.body.code).toBe("insufficient_balance")
    expect((await sell("1")).body.code).toBe("amount_too_small")
    const started = await sell("40")
    expect(started.status).toBe(200)
    const url = new URL(started.body.widgetUrl)
    expect(url.searchParams.get("baseCurrencyCode")).toBe("usdt_ton")
    expect(url.searchParams.get("quoteCurrencyCode")).toBe("eur")
    const rampId = started.body.transaction.id as string
    expect(await balance(`user:${id}`, "USDT")).toEqual({ available: 60n * USDT, held: 40n * USDT })
    const sellEvent = (status: string, type = "sell_transaction_updated") => ({
      type,
      data: { id: "ms-1", status, baseCurrencyAmount: 40, quoteCurrencyAmount: 36.5, externalTransactionId: rampId },
    })
    expect(await (await moonpayHook(sellEvent("waitingForDeposit", "sell_transaction_created"))).json()).toMatchObject({ outcome: "applied" })
    expect(await (await moonpayHook(sellEvent("completed"))).json()).toMatchObject({ outcome: "paid_out" })
    expect(await balance(`user:${id}`, "USDT")).toEqual({ available: 60n * USDT, held: 0n })
    expect((await balance("system:ramp:moonpay", "USDT")).available).toBe(40n * USDT)
    expect(await (await moonpayHook(sellEvent("failed", "sell_transaction_failed"))).json()).toMatchObject({ outcome: "stale" })
    expect(await movements(`ramp:${rampId}:post`)).toBe(1)
    expect((await messages(id)).some((m) => m.subject === "ramp.paid_out")).toBe(true)

    const second = await sell("20")
    const secondId = second.body.transaction.id as string
    expect((await balance(`user:${id}`, "USDT")).available).toBe(40n * USDT)
    const failed = {
      type: "sell_transaction_failed",
      data: { id: "ms-2", status: "failed", externalTransactionId: secondId, failureReason: "deposit_timeout" },
    }
    expect(await (await moonpayHook(failed)).json()).toMatchObject({ outcome: "voided" })
    expect(await balance(`user:${id}`, "USDT")).toEqual({ available: 60n * USDT, held: 0n })
    expect((await audit()).ok).toBe(true)
  })

  it("answers malformed webhooks with a 4xx, never a 5xx, and unknown transactions with 200", async () => {
    const bad = await fetch(`${server.url}/api/ramp/webhooks/moonpay`, { method: "POST", headers: { "moonpay-signature-v2": "garbage" }, body: "{" })
    expect(bad.status).toBe(401)
    const text = "not json"
    const t = Math.floor(clock / 1000)
    const s = createHmac("sha256", MOONPAY.webhookKey).update(`${t}.${text}`).digest("hex")
    const unreadable = await fetch(`${server.url}/api/ramp/webhooks/moonpay`, {
      method: "POST",
      headers: { "moonpay-signature-v2": `t=${t},s=${s}` },
      body: text,
    })
    expect(unreadable.status).toBe(400)
    const unknown = await moonpayHook(moonpayBuyEvent("00000000-0000-4000-8000-000000000000", "completed"))
    expect(await unknown.json()).toMatchObject({ ok: true, outcome: "unknown_transaction" })
  })
})
