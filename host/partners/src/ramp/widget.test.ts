/** The ramp sandbox's widgets: signed URLs (tampered ones refused), the test cards' status paths, sells, and the status APIs' keys. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEV_RAMP, startRampSandbox, type RunningRampSandbox } from "../index.ts"
import { startReceiver, type Receiver } from "../testing.ts"
import { api, getPage, hooksFor, postForm, redirectParams, signMercuryoUrl, signMoonpayUrl } from "./testing.ts"

let sandbox: RunningRampSandbox
let moonpayHooks: Receiver
let mercuryoHooks: Receiver
let base = ""
let n = 0

const APPROVED = "4242 4242 4242 4242"
const DECLINED = "4000 0000 0000 0002"
const THREE_DS = "4000 0000 0000 3220"
const card = (number: string) => ({ card: number, expiry: "12/39", cvc: "123", holder: "Test User" })

beforeAll(async () => {
  moonpayHooks = await startReceiver()
  mercuryoHooks = await startReceiver()
  // 3-D Secure never completes by itself here: completePending3ds() does it
  sandbox = await startRampSandbox({
    port: 0,
    dataDir: "memory",
    webhookUrls: { moonpay: moonpayHooks.url, mercuryo: mercuryoHooks.url },
    retryDelaysMs: [50, 100],
    threeDsDelayMs: 3_600_000,
    settleDelayMs: 3_600_000,
  })
  base = sandbox.url
})
afterAll(async () => {
  await sandbox.close()
  await moonpayHooks.close()
  await mercuryoHooks.close()
})

const moonpayBuyParams = (over: Record<string, string> = {}): Record<string, string> => ({
  apiKey: DEV_RAMP.moonpay.publishableKey,
  currencyCode: "ton",
  walletAddress: "custodial:user-1",
  baseCurrencyCode: "usd",
  baseCurrencyAmount: "50",
  externalTransactionId: `ramp-buy-${++n}`,
  externalCustomerId: "user-1",
  redirectURL: "http://127.0.0.1:9/ramp/return?x=1",
  ...over,
})

const mercuryoParams = (over: Record<string, string> = {}): Record<string, string> => ({
  widget_id: DEV_RAMP.mercuryo.widgetId,
  type: "buy",
  currency: "TON",
  network: "TON",
  fiat_currency: "EUR",
  fiat_amount: "100",
  address: "custodial:user-2",
  merchant_transaction_id: `ramp-merc-${++n}`,
  redirect_url: "http://127.0.0.1:9/ramp/return",
  ...over,
})

const widgetOf = (signedUrl: string): string => signedUrl.slice(signedUrl.indexOf("?"))

const moonpayBuyByExt = (ext: string) => api(`${base}/moonpay/v1/transactions/ext/${ext}?apiKey=${DEV_RAMP.moonpay.publishableKey}`)

describe("MoonPay widget URL signature", () => {
  it("shows the checkout for a signed URL: summary, labelled card fields, English or Russian", async () => {
    const url = signMoonpayUrl(`${base}/moonpay/buy`, moonpayBuyParams())
    const page = await getPage(url)
    expect(page.status).toBe(200)
    expect(page.text).toContain('<label for="card">Card number</label>')
    expect(page.text).toContain("50 USD")
    expect(page.text).toContain("prefers-color-scheme: dark")
    const ru = await getPage(signMoonpayUrl(`${base}/moonpay/buy`, moonpayBuyParams({ language: "ru" })))
    expect(ru.text).toContain('<html lang="ru">')
    expect(ru.text).toContain("Номер карты")
  })

  it("refuses a tampered, unsigned or wrongly keyed URL and creates nothing", async () => {
    const params = moonpayBuyParams()
    const signed = signMoonpayUrl(`${base}/moonpay/buy`, params)
    const tampered = signed.replace("baseCurrencyAmount=50", "baseCurrencyAmount=5000")
    expect(tampered).not.toBe(signed)
    const refused = await getPage(tampered)
    expect(refused.status).toBe(403)
    expect(refused.text).toContain("Invalid signature")
    expect((await getPage(signed.slice(0, signed.indexOf("&signature=")))).status).toBe(403)
    expect((await getPage(signMoonpayUrl(`${base}/moonpay/buy`, params, "sk_test_someone_else"))).status).toBe(403)
    // the form posted with the tampered query is refused too, even with a good card
    const posted = await postForm(`${base}/moonpay/buy/checkout`, { widget: widgetOf(tampered), ...card(APPROVED) })
    expect(posted.status).toBe(403)
    expect((await moonpayBuyByExt(params["externalTransactionId"] ?? "")).status).toBe(404)
    await sandbox.idle()
    expect(moonpayHooks.received.filter((r) => JSON.stringify(r.json).includes(params["externalTransactionId"] ?? "?"))).toEqual([])
  })

  it("refuses a signed URL with another publishable key", async () => {
    const page = await getPage(signMoonpayUrl(`${base}/moonpay/buy`, moonpayBuyParams({ apiKey: "pk_test_other" })))
    expect(page.status).toBe(401)
  })
})

describe("MoonPay test cards", () => {
  const buy = async (number: string) => {
    const params = moonpayBuyParams()
    const answer = await postForm(`${base}/moonpay/buy/checkout`, { widget: widgetOf(signMoonpayUrl(`${base}/moonpay/buy`, params)), ...card(number) })
    return { ext: params["externalTransactionId"] ?? "", answer }
  }

  it("4242…: completed, redirected with the id and status, webhooks created → pending → completed", async () => {
    const { ext, answer } = await buy(APPROVED)
    expect(answer.status).toBe(303)
    const back = redirectParams(answer.location)
    expect(answer.location?.startsWith("http://127.0.0.1:9/ramp/return?x=1&")).toBe(true)
    expect(back.get("transactionStatus")).toBe("completed")
    const tx = await moonpayBuyByExt(ext)
    expect(tx.status).toBe(200)
    expect(tx.json).toMatchObject({
      id: back.get("transactionId"),
      status: "completed",
      externalTransactionId: ext,
      baseCurrencyAmount: 50,
      failureReason: null,
    })
    // 50 USD − 4.5 % fee (2.25) = 47.75 at 5.50 → 8.681818181 TON
    expect(tx.json["quoteCurrencyAmount"]).toBe(8.681818181)
    expect(typeof tx.json["cryptoTransactionId"]).toBe("string")
    await sandbox.idle()
    const hooks = hooksFor(moonpayHooks, String(tx.json["id"]))
    expect(hooks.map((h) => `${h.type}:${h.status}`)).toEqual([
      "transaction_created:waitingPayment",
      "transaction_updated:pending",
      "transaction_updated:completed",
    ])
    expect(JSON.parse(hooks[0]?.body ?? "{}")).toMatchObject({ externalCustomerId: "user-1" })
  })

  it("4000…0002: failed with card_declined, webhook transaction_failed", async () => {
    const { ext, answer } = await buy(DECLINED)
    expect(redirectParams(answer.location).get("transactionStatus")).toBe("failed")
    const tx = await moonpayBuyByExt(ext)
    expect(tx.json).toMatchObject({ status: "failed", failureReason: "card_declined" })
    await sandbox.idle()
    expect(hooksFor(moonpayHooks, String(tx.json["id"])).map((h) => `${h.type}:${h.status}`)).toEqual([
      "transaction_created:waitingPayment",
      "transaction_failed:failed",
    ])
  })

  it("4000…3220: a 3-D Secure challenge, then pending, completed by completePending3ds()", async () => {
    const { ext, answer } = await buy(THREE_DS)
    expect(answer.status).toBe(303)
    expect(answer.location).toMatch(/^\/moonpay\/buy\/3ds\//)
    expect((await moonpayBuyByExt(ext)).json["status"]).toBe("waitingAuthorization")
    const challenge = await getPage(`${base}${answer.location}`)
    expect(challenge.status).toBe(200)
    expect(challenge.text).toContain('data-testid="ramp-3ds-complete"')
    const passed = await postForm(`${base}${answer.location}`, { answer: "pass" })
    expect(redirectParams(passed.location).get("transactionStatus")).toBe("pending")
    expect((await moonpayBuyByExt(ext)).json["status"]).toBe("pending")
    expect(await sandbox.completePending3ds()).toBeGreaterThanOrEqual(1)
    const tx = await moonpayBuyByExt(ext)
    expect(tx.json["status"]).toBe("completed")
    await sandbox.idle()
    expect(hooksFor(moonpayHooks, String(tx.json["id"])).map((h) => `${h.type}:${h.status}`)).toEqual([
      "transaction_created:waitingAuthorization",
      "transaction_updated:pending",
      "transaction_updated:completed",
    ])
  })

  it("a failed 3-D Secure challenge fails the transaction", async () => {
    const { ext, answer } = await buy(THREE_DS)
    const failed = await postForm(`${base}${answer.location}`, { answer: "fail" })
    expect(redirectParams(failed.location).get("transactionStatus")).toBe("failed")
    expect((await moonpayBuyByExt(ext)).json).toMatchObject({ status: "failed", failureReason: "3ds_authentication_failed" })
  })

  it("any other card number, a past expiry or a bad CVC is a form error and creates nothing", async () => {
    const params = moonpayBuyParams()
    const widget = widgetOf(signMoonpayUrl(`${base}/moonpay/buy`, params))
    const other = await postForm(`${base}/moonpay/buy/checkout`, { widget, ...card("5555 5555 5555 4444") })
    expect(other.status).toBe(400)
    expect(other.text).toContain('aria-invalid="true"')
    expect(other.text).toContain("not accepted")
    const past = await postForm(`${base}/moonpay/buy/checkout`, { widget, ...card(APPROVED), expiry: "01/20" })
    expect(past.status).toBe(400)
    const cvc = await postForm(`${base}/moonpay/buy/checkout`, { widget, ...card(APPROVED), cvc: "1" })
    expect(cvc.status).toBe(400)
    expect((await moonpayBuyByExt(params["externalTransactionId"] ?? "")).status).toBe(404)
  })

  it("the same external id pays once: a second form post shows the first transaction", async () => {
    const params = moonpayBuyParams()
    const widget = widgetOf(signMoonpayUrl(`${base}/moonpay/buy`, params))
    const first = await postForm(`${base}/moonpay/buy/checkout`, { widget, ...card(APPROVED) })
    const second = await postForm(`${base}/moonpay/buy/checkout`, { widget, ...card(DECLINED) })
    expect(redirectParams(second.location).get("transactionId")).toBe(redirectParams(first.location).get("transactionId"))
    expect(redirectParams(second.location).get("transactionStatus")).toBe("completed")
  })

  it("amounts outside the limits or unknown currencies are refused", async () => {
    expect((await getPage(signMoonpayUrl(`${base}/moonpay/buy`, moonpayBuyParams({ baseCurrencyAmount: "5" })))).status).toBe(400)
    expect((await getPage(signMoonpayUrl(`${base}/moonpay/buy`, moonpayBuyParams({ currencyCode: "btc" })))).status).toBe(400)
    expect((await getPage(signMoonpayUrl(`${base}/moonpay/buy`, moonpayBuyParams({ baseCurrencyAmount: "abc" })))).status).toBe(400)
  })
})

describe("MoonPay sell", () => {
  it("waitingForDeposit → pending (the wallet's deposit call) → completed, with sell webhooks", async () => {
    const ext = `ramp-sell-${++n}`
    const url = signMoonpayUrl(`${base}/moonpay/sell`, {
      apiKey: DEV_RAMP.moonpay.publishableKey,
      baseCurrencyCode: "usdt_ton",
      baseCurrencyAmount: "100",
      quoteCurrencyCode: "eur",
      externalTransactionId: ext,
      externalCustomerId: "user-3",
      refundWalletAddress: "custodial:user-3",
      redirectURL: "http://127.0.0.1:9/ramp/sold",
    })
    const page = await getPage(url)
    expect(page.status).toBe(200)
    expect(page.text).toContain('data-testid="ramp-sell-confirm"')
    // Continue creates the sell and shows the deposit page, which links back to the wallet with MoonPay's parameters
    const confirmed = await postForm(`${base}/moonpay/sell/confirm`, { widget: widgetOf(url) })
    expect(confirmed.status).toBe(303)
    expect(confirmed.location).toMatch(/^\/moonpay\/sell\/transactions\//)
    const depositPageAnswer = await getPage(`${base}${confirmed.location}`)
    expect(depositPageAnswer.text).toContain('data-status="waitingForDeposit"')
    const address = /data-testid="ramp-deposit-address">([^<]+)</.exec(depositPageAnswer.text)?.[1]
    expect(address).toMatch(/^0:[0-9a-f]{64}$/)
    const link = /href="([^"]+)" data-testid="ramp-return"/.exec(depositPageAnswer.text)?.[1]?.replaceAll("&amp;", "&")
    const back = redirectParams(link ?? null)
    expect(back.get("transactionStatus")).toBe("waitingForDeposit")
    expect(back.get("depositWalletAddress")).toBe(address)
    const id = back.get("transactionId") ?? ""
    const secret = { authorization: `Api-Key ${DEV_RAMP.moonpay.secretKey}` }
    const sell = await api(`${base}/moonpay/v3/sell_transactions/ext/${ext}`, { headers: secret })
    // 100 USDT at 0.92 EUR = 92.00 − 4.5 % fee (4.14) = 87.86 EUR
    expect(sell.json).toMatchObject({ id, status: "waitingForDeposit", baseCurrencyAmount: 100, quoteCurrencyAmount: 87.86 })

    const deposit = (init: RequestInit) => api(`${base}/moonpay/v3/sell_transactions/${id}/deposit`, { method: "POST", ...init })
    expect((await deposit({ headers: { authorization: "Api-Key sk_wrong" } })).status).toBe(401)
    expect((await deposit({ headers: { ...secret, "content-type": "application/json" }, body: JSON.stringify({ baseCurrencyAmount: 99 }) })).status).toBe(400)
    expect((await deposit({ headers: { ...secret, "content-type": "application/json" }, body: "{not json" })).status).toBe(400)
    const ok = await deposit({
      headers: { ...secret, "content-type": "application/json" },
      body: JSON.stringify({ baseCurrencyAmount: "100", cryptoTransactionId: "ledger-tx-1" }),
    })
    expect(ok.json).toMatchObject({ status: "pending", cryptoTransactionId: "ledger-tx-1" })
    expect((await deposit({ headers: secret })).json["status"]).toBe("pending") // repeated: no change
    await sandbox.completePending3ds()
    expect((await api(`${base}/moonpay/v3/sell_transactions/${id}`, { headers: secret })).json["status"]).toBe("completed")
    await sandbox.idle()
    expect(hooksFor(moonpayHooks, id).map((h) => `${h.type}:${h.status}`)).toEqual([
      "sell_transaction_created:waitingForDeposit",
      "sell_transaction_updated:pending",
      "sell_transaction_updated:completed",
    ])
  })
})

describe("Mercuryo widget", () => {
  const merc = (ext: string) =>
    api(`${base}/mercuryo/v1.6/sdk-partner/transactions?merchant_transaction_id=${ext}`, { headers: { "sdk-partner-token": DEV_RAMP.mercuryo.secret } })

  it("refuses a URL whose address does not match the signature, and creates nothing", async () => {
    const params = mercuryoParams()
    const signed = signMercuryoUrl(`${base}/mercuryo/widget`, params)
    expect((await getPage(signed)).status).toBe(200)
    const tampered = signed.replace("custodial%3Auser-2", "custodial%3Aattacker")
    expect(tampered).not.toBe(signed)
    expect((await getPage(tampered)).status).toBe(403)
    expect((await postForm(`${base}/mercuryo/widget/checkout`, { widget: widgetOf(tampered), ...card(APPROVED) })).status).toBe(403)
    expect((await merc(params["merchant_transaction_id"] ?? "")).json["data"]).toEqual([])
  })

  it("4242…: new → pending → paid → succeeded; 4000…0002: new → failed; 3-D Secure: new → pending → paid → succeeded", async () => {
    const run = async (number: string) => {
      const params = mercuryoParams()
      const answer = await postForm(`${base}/mercuryo/widget/checkout`, {
        widget: widgetOf(signMercuryoUrl(`${base}/mercuryo/widget`, params)),
        ...card(number),
      })
      return { ext: params["merchant_transaction_id"] ?? "", answer }
    }
    const approved = await run(APPROVED)
    expect(redirectParams(approved.answer.location).get("transactionStatus")).toBe("succeeded")
    const declined = await run(DECLINED)
    expect(redirectParams(declined.answer.location).get("transactionStatus")).toBe("failed")
    const threeDs = await run(THREE_DS)
    expect(threeDs.answer.location).toMatch(/^\/mercuryo\/widget\/3ds\//)
    await postForm(`${base}${threeDs.answer.location}`, { answer: "pass" })
    await sandbox.completePending3ds()
    await sandbox.idle()
    const statuses = async (ext: string) => {
      const found = (await merc(ext)).json["data"] as Array<{ id: string; status: string }>
      return hooksFor(mercuryoHooks, found[0]?.id ?? "?").map((h) => h.status)
    }
    expect(await statuses(approved.ext)).toEqual(["new", "pending", "paid", "succeeded"])
    expect(await statuses(declined.ext)).toEqual(["new", "failed"])
    expect(await statuses(threeDs.ext)).toEqual(["new", "pending", "paid", "succeeded"])
    const item = ((await merc(approved.ext)).json["data"] as Array<Record<string, unknown>>)[0]
    // 100 EUR − 3.95 % (3.95) = 96.05 at 5.10 → 18.833333333 TON
    expect(item).toMatchObject({
      status: "succeeded",
      amount: "18.833333333",
      currency: "TON",
      fiat_amount: "100",
      fiat_currency: "EUR",
      merchant_transaction_id: approved.ext,
    })
  })
})

describe("status APIs need the right key", () => {
  it("MoonPay buy: the publishable key or the secret key; sell: the secret key; Mercuryo: the Sdk-Partner-Token", async () => {
    const params = moonpayBuyParams()
    await postForm(`${base}/moonpay/buy/checkout`, { widget: widgetOf(signMoonpayUrl(`${base}/moonpay/buy`, params)), ...card(APPROVED) })
    const ext = params["externalTransactionId"] ?? ""
    expect((await api(`${base}/moonpay/v1/transactions/ext/${ext}`)).status).toBe(401)
    const wrong = await api(`${base}/moonpay/v1/transactions/ext/${ext}?apiKey=pk_test_other`)
    expect(wrong.status).toBe(401)
    expect(wrong.json).toMatchObject({ type: "UnauthorizedError" })
    expect((await api(`${base}/moonpay/v1/transactions/ext/${ext}?apiKey=${DEV_RAMP.moonpay.publishableKey}`)).status).toBe(200)
    expect((await api(`${base}/moonpay/v1/transactions/ext/${ext}`, { headers: { authorization: `Api-Key ${DEV_RAMP.moonpay.secretKey}` } })).status).toBe(200)
    expect((await api(`${base}/moonpay/v1/transactions/ext/${ext}`, { headers: { authorization: "Api-Key sk_test_other" } })).status).toBe(401)

    expect((await api(`${base}/moonpay/v3/sell_transactions/ext/${ext}?apiKey=${DEV_RAMP.moonpay.publishableKey}`)).status).toBe(401)
    expect((await api(`${base}/moonpay/v3/sell_transactions/ext/${ext}`, { headers: { authorization: `Api-Key ${DEV_RAMP.moonpay.secretKey}` } })).status).toBe(
      404,
    )

    const path = `${base}/mercuryo/v1.6/sdk-partner/transactions?merchant_transaction_id=x`
    expect((await api(path)).status).toBe(401)
    expect((await api(path, { headers: { "sdk-partner-token": "wrong" } })).status).toBe(401)
    expect((await api(path, { headers: { "sdk-partner-token": DEV_RAMP.mercuryo.secret } })).json).toMatchObject({ status: 200, data: [] })
  })
})
