import { describe, expect, it } from "vitest"
import {
  canMove,
  compareDecimal,
  decimalOf,
  defaultFiat,
  FIAT_CODES,
  FIATS,
  fiatOfCountry,
  isFiat,
  mercuryoStatus,
  methodsOrEmpty,
  moonpayStatus,
  paymentCurrencies,
  paymentMethods,
  providerFiats,
  RAMP_ROUTING,
  withinLimits,
} from "./domain.ts"
import { decodePayload, encodePayload, statusSearchOf } from "./client/view.ts"

describe("the fixed fiat list", () => {
  it("holds about 190 distinct ISO 4217 codes, each with countries", () => {
    expect(FIAT_CODES.length).toBeGreaterThanOrEqual(180)
    expect(FIAT_CODES.length).toBeLessThanOrEqual(200)
    expect(new Set(FIAT_CODES).size).toBe(FIAT_CODES.length)
    for (const fiat of FIATS) {
      expect(fiat.code).toMatch(/^[A-Z]{3}$/)
      expect(fiat.countries.length).toBeGreaterThan(0)
      for (const country of fiat.countries) expect(country).toMatch(/^[A-Z]{2}$/)
    }
    expect(isFiat("EUR")).toBe(true)
    expect(isFiat("XYZ")).toBe(false)
  })

  it("maps a country to its current currency", () => {
    expect(fiatOfCountry("DE")).toBe("EUR")
    expect(fiatOfCountry("hr")).toBe("EUR")
    expect(fiatOfCountry("VE")).toBe("VES")
    expect(fiatOfCountry("IN")).toBe("INR")
    expect(fiatOfCountry("ZZ")).toBeUndefined()
    expect(fiatOfCountry(null)).toBeUndefined()
  })
})

describe("the default fiat (spec 1 §2)", () => {
  it("is the first recent purchase fiat, else the country's, else EUR", () => {
    expect(defaultFiat(["GBP", "USD"], "DE")).toBe("GBP")
    expect(defaultFiat(["ZZZ", "USD"], "DE")).toBe("USD")
    expect(defaultFiat([], "BR")).toBe("BRL")
    expect(defaultFiat([], "ZZ")).toBe("EUR")
    expect(defaultFiat([], null)).toBe("EUR")
  })
})

describe("routing, payment methods and limits", () => {
  it("routes buys through MoonPay first and Mercuryo second, sells through MoonPay, on TON", () => {
    expect(RAMP_ROUTING.buy.TON).toMatchObject({ provider: "moonpay", providers: ["moonpay", "mercuryo"], networks: ["ton"] })
    expect(RAMP_ROUTING.sell.TON!.providers).toEqual(["moonpay"])
  })

  it("lists payment methods per direction and fiat; an unsupported fiat is unsupported_fiat_currency and an empty list", () => {
    expect(paymentMethods("buy", "EUR")).toEqual({ ok: true, methods: ["card", "apple_pay", "google_pay", "sepa", "volt_banktransfer_eur", "revolut_pay"] })
    expect(paymentMethods("buy", "BRL")).toMatchObject({ ok: true, methods: expect.arrayContaining(["pix"]) })
    expect(paymentMethods("sell", "EUR")).toEqual({ ok: true, methods: ["card", "sepa"] })
    expect(paymentMethods("buy", "RUB")).toEqual({ ok: false, code: "unsupported_fiat_currency" })
    expect(methodsOrEmpty(paymentMethods("buy", "RUB"))).toEqual([])
    expect(methodsOrEmpty(paymentMethods("sell", "INR"))).toEqual([])
  })

  it("excludes the currencies a provider flags restricted from its payment currencies", () => {
    expect(providerFiats("moonpay", "buy").find((f) => f.code === "NGN")).toMatchObject({ restricted: true })
    expect(paymentCurrencies("moonpay", "buy").map((f) => f.code)).not.toContain("NGN")
    expect(paymentCurrencies("mercuryo", "buy").map((f) => f.code)).not.toContain("ARS")
    expect(paymentCurrencies("mercuryo", "sell")).toEqual([])
    expect(paymentCurrencies("moonpay", "buy").find((f) => f.code === "EUR")).toEqual({ code: "EUR", min: "20", max: "5000", restricted: false })
  })

  it("checks amounts against limits without floats", () => {
    expect(compareDecimal("20", "20.00")).toBe(0)
    expect(compareDecimal("19.99", "20")).toBe(-1)
    expect(withinLimits("19.99", { min: "20", max: "100" })).toEqual({ ok: false, code: "amount_too_small", limit: "20" })
    expect(withinLimits("100.01", { min: "20", max: "100" })).toEqual({ ok: false, code: "amount_too_large", limit: "100" })
    expect(withinLimits("55.5", { min: "20", max: "100" })).toEqual({ ok: true })
  })

  it("reads provider amounts and statuses", () => {
    expect(decimalOf(8.5, 9)).toBe("8.5")
    expect(decimalOf(1e-7, 9)).toBe("0.0000001")
    expect(decimalOf("12.3456789", 6)).toBe("12.345678")
    expect(decimalOf(-1, 9)).toBeUndefined()
    expect(decimalOf("1e5", 9)).toBeUndefined()
    expect(moonpayStatus("completed")).toBe("COMPLETED")
    expect(moonpayStatus("waitingAuthorization")).toBe("PENDING")
    expect(moonpayStatus("waitingForDeposit")).toBe("PENDING")
    expect(mercuryoStatus("succeeded")).toBe("COMPLETED")
    expect(mercuryoStatus("cancelled")).toBe("FAILED")
    expect(mercuryoStatus("weird")).toBeUndefined()
  })

  it("moves a ramp transaction only forward, never out of a final status", () => {
    expect(canMove("CREATED", "PENDING")).toBe(true)
    expect(canMove("PENDING", "COMPLETED")).toBe(true)
    expect(canMove("PENDING", "PENDING")).toBe(false)
    expect(canMove("COMPLETED", "FAILED")).toBe(false)
    expect(canMove("FAILED", "COMPLETED")).toBe(false)
  })
})

describe("the screens' strict checks", () => {
  const id = "0b8f6a3e-6a52-4c1e-9d3f-2a1b4c5d6e7f"
  it("accepts a valid status search and rejects anything else", () => {
    expect(statusSearchOf({ external_transaction_id: id, direction: "buy", amount: "8.5", currency: "TON" })).toEqual({
      externalTransactionId: id,
      direction: "buy",
      amount: "8.5",
      currency: "TON",
    })
    expect(statusSearchOf({ external_transaction_id: id, direction: "swap", amount: "8.5", currency: "TON" })).toBeUndefined()
    expect(statusSearchOf({ external_transaction_id: id, direction: "buy", amount: "-1", currency: "TON" })).toBeUndefined()
    expect(statusSearchOf({ external_transaction_id: id, direction: "buy", amount: "1", currency: "DOGE" })).toBeUndefined()
    expect(statusSearchOf({ external_transaction_id: "x", direction: "buy", amount: "1", currency: "TON" })).toBeUndefined()
    expect(statusSearchOf({})).toBeUndefined()
  })

  it("round-trips a payload and refuses a tampered one", () => {
    const payload = { direction: "buy", currency: "TON", network: "ton", fiatCurrency: "EUR", amount: "50", inputMode: "fiat", paymentMethod: "card" } as const
    expect(decodePayload(encodePayload(payload))).toEqual(payload)
    expect(decodePayload(JSON.stringify({ ...payload, fiatCurrency: "XXX" }))).toBeUndefined()
    expect(decodePayload(JSON.stringify({ ...payload, paymentMethod: "cash" }))).toBeUndefined()
    expect(decodePayload("{")).toBeUndefined()
    expect(decodePayload(undefined)).toBeUndefined()
  })
})
