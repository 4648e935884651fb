/** The ramp sandbox's webhooks: signatures checked independently, retries until 2xx, and the duplicate and reorder chaos. */
import { createHmac } from "node:crypto"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { DEV_RAMP, startRampSandbox, type RunningRampSandbox } from "../index.ts"
import { movableClock, startReceiver, type Receiver } from "../testing.ts"
import { api, eventually, hooksFor, postForm, redirectParams, signMercuryoUrl, signMoonpayUrl } from "./testing.ts"

let sandbox: RunningRampSandbox
let moonpayHooks: Receiver
let mercuryoHooks: Receiver
let base = ""
let n = 0
const clock = movableClock()

beforeAll(async () => {
  moonpayHooks = await startReceiver()
  mercuryoHooks = await startReceiver()
  sandbox = await startRampSandbox({
    port: 0,
    dataDir: "memory",
    webhookUrls: { moonpay: moonpayHooks.url, mercuryo: mercuryoHooks.url },
    retryDelaysMs: [50, 100],
    threeDsDelayMs: 60_000,
    now: clock.now,
  })
  base = sandbox.url
})
afterAll(async () => {
  await sandbox.close()
  await moonpayHooks.close()
  await mercuryoHooks.close()
})
afterEach(() => {
  sandbox.setChaos({})
  moonpayHooks.respond = () => 200
  mercuryoHooks.respond = () => 200
})

const CARD = { expiry: "12/39", cvc: "123" }

/** A MoonPay buy paid with `card`; its MoonPay transaction id. */
const moonpayBuy = async (cardNumber = "4242424242424242"): Promise<string> => {
  const url = signMoonpayUrl(`${base}/moonpay/buy`, {
    apiKey: DEV_RAMP.moonpay.publishableKey,
    currencyCode: "usdt_ton",
    walletAddress: "custodial:user-9",
    baseCurrencyCode: "eur",
    baseCurrencyAmount: "25.50",
    externalTransactionId: `hook-${++n}`,
    externalCustomerId: "user-9",
    redirectURL: "http://127.0.0.1:9/back",
  })
  const answer = await postForm(`${base}/moonpay/buy/checkout`, { widget: url.slice(url.indexOf("?")), card: cardNumber, ...CARD })
  if (answer.status !== 303) throw new Error(`checkout answered ${answer.status}`)
  if (answer.location?.startsWith("/")) return answer.location.split("/")[4]?.split("?")[0] ?? ""
  return redirectParams(answer.location).get("transactionId") ?? ""
}

const mercuryoBuy = async (): Promise<string> => {
  const ext = `hook-merc-${++n}`
  const url = signMercuryoUrl(`${base}/mercuryo/widget`, {
    widget_id: DEV_RAMP.mercuryo.widgetId,
    type: "buy",
    currency: "USDT",
    network: "TON",
    fiat_currency: "USD",
    fiat_amount: "30",
    address: "custodial:user-8",
    merchant_transaction_id: ext,
  })
  await postForm(`${base}/mercuryo/widget/checkout`, { widget: url.slice(url.indexOf("?")), card: "4242424242424242", ...CARD })
  const found = await api(`${base}/mercuryo/v1.6/sdk-partner/transactions?merchant_transaction_id=${ext}`, {
    headers: { "sdk-partner-token": DEV_RAMP.mercuryo.secret },
  })
  return (found.json["data"] as Array<{ id: string }>)[0]?.id ?? ""
}

const header = (h: { headers: Readonly<Record<string, string | string[] | undefined>> }, name: string): string => String(h.headers[name] ?? "")

describe("webhook signatures", () => {
  it("MoonPay: Moonpay-Signature-V2 t=<unix s>,s=<hex HMAC-SHA256 of t.body> with the webhook key", async () => {
    const id = await moonpayBuy()
    await sandbox.idle()
    const hooks = hooksFor(moonpayHooks, id)
    expect(hooks).toHaveLength(3)
    for (const hook of hooks) {
      expect(header(hook, "content-type")).toBe("application/json")
      const m = /^t=(\d+),s=([0-9a-f]{64})$/.exec(header(hook, "moonpay-signature-v2"))
      if (!m) throw new Error(`no signature: ${header(hook, "moonpay-signature-v2")}`)
      const [, t, s] = m
      expect(Math.abs(Number(t) - Math.floor(clock.now() / 1000))).toBeLessThanOrEqual(5)
      expect(s).toBe(createHmac("sha256", DEV_RAMP.moonpay.webhookKey).update(`${t}.${hook.body}`).digest("hex"))
      expect(s).not.toBe(createHmac("sha256", "wk_someone_else").update(`${t}.${hook.body}`).digest("hex"))
      expect(s).not.toBe(createHmac("sha256", DEV_RAMP.moonpay.webhookKey).update(`${t}.${hook.body} `).digest("hex"))
    }
    const completed = JSON.parse(hooks[2]?.body ?? "{}") as { type: string; data: Record<string, unknown>; externalCustomerId: string }
    expect(completed).toMatchObject({ type: "transaction_updated", externalCustomerId: "user-9", data: { id, status: "completed", baseCurrencyAmount: 25.5 } })
  })

  it("Mercuryo: X-Signature is the hex HMAC-SHA256 of the raw body with the sign key", async () => {
    const id = await mercuryoBuy()
    await sandbox.idle()
    const hooks = hooksFor(mercuryoHooks, id)
    expect(hooks.map((h) => h.status)).toEqual(["new", "pending", "paid", "succeeded"])
    for (const hook of hooks) {
      expect(header(hook, "x-signature")).toBe(createHmac("sha256", DEV_RAMP.mercuryo.signKey).update(hook.body).digest("hex"))
      expect(JSON.parse(hook.body)).toMatchObject({ payload: { type: "buy", data: { id, currency: "USDT", fiat_currency: "USD" } } })
    }
  })
})

describe("webhook delivery", () => {
  it("retries until the receiver answers 2xx, then stops", async () => {
    let refused = 0
    moonpayHooks.respond = (_, r) => (r.body.includes('"type":"transaction_created"') && refused++ < 2 ? 500 : 200)
    const id = await moonpayBuy("4000000000000002")
    await eventually(() => hooksFor(moonpayHooks, id).length >= 4)
    await sandbox.idle()
    await new Promise((resolve) => setTimeout(resolve, 300))
    const hooks = hooksFor(moonpayHooks, id)
    // the created event was refused twice, then accepted (and not sent again); the failed event went out once, meanwhile
    const created = hooks.filter((h) => h.type === "transaction_created")
    expect(created).toHaveLength(3)
    expect(new Set(created.map((h) => h.body)).size).toBe(1)
    expect(hooks.filter((h) => h.type === "transaction_failed")).toHaveLength(1)
  })

  it("gives up after the last retry and keeps delivering newer events", async () => {
    mercuryoHooks.respond = (_, r) => (r.body.includes('"status":"new"') ? 503 : 200)
    const id = await mercuryoBuy()
    await eventually(() => hooksFor(mercuryoHooks, id).filter((h) => h.status === "new").length === 3)
    await sandbox.idle()
    const statuses = hooksFor(mercuryoHooks, id).map((h) => h.status)
    expect(statuses.filter((s) => s === "new")).toHaveLength(3) // 1 + 2 retries
    expect(statuses.filter((s) => s !== "new")).toEqual(["pending", "paid", "succeeded"])
  })

  it("chaos duplicate: every event is delivered twice, the same body", async () => {
    sandbox.setChaos({ duplicate: 1 })
    const id = await moonpayBuy()
    await eventually(() => hooksFor(moonpayHooks, id).length >= 6)
    await sandbox.idle()
    const hooks = hooksFor(moonpayHooks, id)
    expect(hooks).toHaveLength(6)
    const bodies = hooks.map((h) => h.body)
    for (const body of new Set(bodies)) expect(bodies.filter((b) => b === body)).toHaveLength(2)
  })

  it("chaos reorder: the pending event arrives after the completed one", async () => {
    sandbox.setChaos({ reorder: 1 })
    const id = await moonpayBuy()
    await eventually(() => hooksFor(moonpayHooks, id).length >= 3)
    await sandbox.idle()
    expect(hooksFor(moonpayHooks, id).map((h) => h.status)).toEqual(["waitingPayment", "completed", "pending"])
  })

  it("a 3-D Secure buy completes by itself once its delay has passed", async () => {
    const id = await moonpayBuy("4000000000003220")
    const passed = await postForm(`${base}/moonpay/buy/3ds/${id}`, { answer: "pass" })
    expect(redirectParams(passed.location).get("transactionStatus")).toBe("pending")
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect((await api(`${base}/moonpay/v1/transactions/${id}?apiKey=${DEV_RAMP.moonpay.publishableKey}`)).json["status"]).toBe("pending")
    clock.advance(60_000)
    await eventually(() => hooksFor(moonpayHooks, id).some((h) => h.status === "completed"))
    clock.reset()
    expect((await api(`${base}/moonpay/v1/transactions/${id}?apiKey=${DEV_RAMP.moonpay.publishableKey}`)).json["status"]).toBe("completed")
  })

  it("webhooks wait while no URL is set and go out once one is", async () => {
    sandbox.setWebhookUrls({ moonpay: undefined })
    const id = await moonpayBuy()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(hooksFor(moonpayHooks, id)).toEqual([])
    sandbox.setWebhookUrls({ moonpay: moonpayHooks.url })
    await eventually(() => hooksFor(moonpayHooks, id).length === 3)
  })
})
