/**
 * The ramp against the provider sandboxes started in-process (`startRampSandbox` from @wallet/partners):
 * the wallet's signed widget URLs are accepted by the provider's page, the test cards drive the
 * provider's statuses, and the provider's own signed webhooks (retried, and with chaos sent twice or out
 * of order) credit a purchase once, fail a declined one, and hold then post a sale.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rampProvidersConfig, startRampSandbox, TEST_CARDS, type RunningRampSandbox } from "@wallet/partners"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, tma, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { serverPlugin } from "./index.ts"
import { rampProbePlugin } from "./testing.ts"

const BOT_TOKEN = "1234567:ramp-sandbox-test"
const USDT = 1_000_000n

describe("ramp with the provider sandboxes (issue 23)", () => {
  let database: TestDatabase
  let server: RunningServer
  let sandbox: RunningRampSandbox
  let nextUser = 8_410_000_000

  beforeAll(async () => {
    sandbox = await startRampSandbox({ port: 0, dataDir: "memory", retryDelaysMs: [50, 100, 200], threeDsDelayMs: 3_600_000, settleDelayMs: 3_600_000 })
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      plugins: [custodyPlugin, serverPlugin, rampProbePlugin],
      pluginConfig: { ramp: { sandbox: true, providers: rampProvidersConfig(sandbox.url) } },
    })
    sandbox.setWebhookUrls({ moonpay: `${server.url}/api/ramp/webhooks/moonpay`, mercuryo: `${server.url}/api/ramp/webhooks/mercuryo` })
  }, 60_000)

  afterAll(async () => {
    await sandbox?.close()
    await server?.close()
    await database?.stop()
  })

  const signIn = async () => {
    const id = ++nextUser
    const initData = signInitData(
      { user: { id, first_name: "Sam", language_code: "en" }, authDate: new Date(), queryId: `q${id}`, chatType: "sender" },
      BOT_TOKEN,
    )
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    expect(reply.status).toBe(200)
    return { id, auth: bearer(reply.body.access_token as string) }
  }
  const available = async (userId: number, currency: string) =>
    BigInt((await call(server.url, "POST", "/api/ramp-probe/balance", { body: { owner: `user:${userId}`, currency } })).body.available)
  const held = async (userId: number, currency: string) =>
    BigInt((await call(server.url, "POST", "/api/ramp-probe/balance", { body: { owner: `user:${userId}`, currency } })).body.held)
  const movements = async (key: string) =>
    Number(((await server.sql("select count(*)::int as n from ledger_transactions where idempotency_key = $1", [key])) as Array<{ n: number }>)[0]!.n)
  const form = (url: string, fields: Record<string, string>) =>
    fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    })
  const card = (number: string) => ({ card: number, expiry: "12/39", cvc: "123", holder: "Sam Test" })

  const startBuy = async (auth: string, body: Record<string, unknown> = {}) => {
    const reply = await call(server.url, "POST", "/api/ramp/buy", {
      authorization: auth,
      body: { provider: "moonpay", currency: "TON", network: "ton", fiatCurrency: "EUR", amount: "50", inputMode: "fiat", paymentMethod: "card", ...body },
    })
    expect(reply.status).toBe(200)
    return { id: reply.body.transaction.id as string, url: new URL(reply.body.widgetUrl as string) }
  }
  const pay = async (widget: URL, number: string) => {
    // The provider's page accepts the wallet's signature (a tampered URL would show MoonPay's error).
    expect((await fetch(widget, { redirect: "manual" })).status).toBe(200)
    return form(`${widget.origin}${widget.pathname}/checkout`, { widget: widget.search, ...card(number) })
  }
  const read = async (auth: string, id: string) => (await call(server.url, "GET", `/api/ramp/transaction?id=${id}`, { authorization: auth })).body

  it("MoonPay: the approved test card credits the provider's crypto amount once, even when every webhook is sent twice and out of order", async () => {
    sandbox.setChaos({ duplicate: 1, reorder: 0.5 })
    try {
      const { id: userId, auth } = await signIn()
      const { id, url } = await startBuy(auth)
      const tampered = new URL(url)
      tampered.searchParams.set("baseCurrencyAmount", "5000")
      expect((await fetch(tampered, { redirect: "manual" })).status).toBeGreaterThanOrEqual(400)
      const paid = await pay(url, TEST_CARDS.approved)
      expect(paid.status).toBe(303)
      await sandbox.idle()
      const provider = (await (await fetch(`${sandbox.url}/moonpay/v1/transactions/ext/${id}?apiKey=pk_test_wallet_dev`)).json()) as {
        quoteCurrencyAmount: number
      }
      const expected = BigInt(Math.round(provider.quoteCurrencyAmount * 1e9))
      expect(await available(userId, "TON")).toBe(expected)
      expect(await movements(`ramp:${id}:credit`)).toBe(1)
      expect(await read(auth, id)).toMatchObject({ status: "COMPLETED", provider: "moonpay" })
      const deliveries = (await server.sql("select outcome from ramp_webhooks where ramp_id = $1", [id])) as Array<{ outcome: string }>
      expect(deliveries.filter((d) => d.outcome === "credited")).toHaveLength(1)
    } finally {
      sandbox.setChaos({})
    }
  })

  it("MoonPay: a declined card fails the purchase and credits nothing", async () => {
    const { id: userId, auth } = await signIn()
    const { id, url } = await startBuy(auth)
    await pay(url, TEST_CARDS.declined)
    await sandbox.idle()
    expect(await read(auth, id)).toMatchObject({ status: "FAILED", failureReason: "card_declined" })
    expect(await available(userId, "TON")).toBe(0n)
  })

  it("MoonPay: a 3-D Secure payment is pending after the challenge and credited when it completes", async () => {
    const { id: userId, auth } = await signIn()
    const { id, url } = await startBuy(auth)
    const answer = await pay(url, TEST_CARDS.threeDs)
    const challenge = new URL(answer.headers.get("location")!, sandbox.url)
    expect((await form(challenge.toString(), { answer: "pass" })).status).toBe(303)
    await sandbox.idle()
    expect((await read(auth, id)).status).toBe("PENDING")
    expect(await available(userId, "TON")).toBe(0n)
    await sandbox.completePending3ds()
    await sandbox.idle()
    expect((await read(auth, id)).status).toBe("COMPLETED")
    expect(await available(userId, "TON")).toBeGreaterThan(0n)
  })

  it("Mercuryo: the approved card credits once through its signed callback", async () => {
    const { id: userId, auth } = await signIn()
    const { id, url } = await startBuy(auth, { provider: "mercuryo", currency: "USDT", amount: "30" })
    expect(url.searchParams.get("merchant_transaction_id")).toBe(id)
    await pay(url, TEST_CARDS.approved)
    await sandbox.idle()
    expect(await read(auth, id)).toMatchObject({ status: "COMPLETED", provider: "mercuryo" })
    expect(await available(userId, "USDT")).toBeGreaterThan(0n)
    expect(await movements(`ramp:${id}:credit`)).toBe(1)
  })

  it("MoonPay sell: held at confirmation, the deposit is announced, posted when the provider completes", async () => {
    const { id: userId, auth } = await signIn()
    await call(server.url, "POST", "/api/ramp-probe/fund", { body: { userId, currency: "USDT", amount: (100n * USDT).toString() } })
    const reply = await call(server.url, "POST", "/api/ramp/sell", {
      authorization: auth,
      body: { provider: "moonpay", currency: "USDT", network: "ton", fiatCurrency: "EUR", amount: "40" },
    })
    expect(reply.status).toBe(200)
    const id = reply.body.transaction.id as string
    const url = new URL(reply.body.widgetUrl as string)
    expect(await held(userId, "USDT")).toBe(40n * USDT)
    expect((await fetch(url, { redirect: "manual" })).status).toBe(200)
    expect((await form(`${url.origin}/moonpay/sell/confirm`, { widget: url.search })).status).toBe(303)
    await sandbox.idle()
    // The sell webhook made it PENDING and the wallet told the sandbox the crypto is deposited.
    const sandboxTx = (await (
      await fetch(`${sandbox.url}/moonpay/v3/sell_transactions/ext/${id}`, { headers: { authorization: "Api-Key sk_test_wallet_dev_not_a_secret" } })
    ).json()) as {
      status: string
    }
    expect(sandboxTx.status).toBe("pending")
    await sandbox.completePending3ds()
    await sandbox.idle()
    expect((await read(auth, id)).status).toBe("COMPLETED")
    expect(await held(userId, "USDT")).toBe(0n)
    expect(await available(userId, "USDT")).toBe(60n * USDT)
    expect(await movements(`ramp:${id}:post`)).toBe(1)
  })
})
