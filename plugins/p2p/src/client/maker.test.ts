import { describe, expect, it } from "vitest"
import type { Offer } from "../api.ts"
import {
  defaultPair,
  draftFromOffer,
  draftHold,
  draftMatches,
  draftPriceCents,
  draftToForm,
  fiatChoices,
  fieldProblems,
  fieldsToSave,
  firstBadStep,
  groupByFiat,
  mainFieldText,
  newDraft,
  offerShareLink,
  parseDraft,
  percentToBps,
  refusedFields,
  serialiseDraft,
  stepForRefusal,
  stepProblems,
  toggleChoice,
  volumeFiatCents,
  withPair,
  type OfferDraft,
} from "./maker.ts"

const KEY = "abcdef0123456789abcdef0123456789"
const base = newDraft({ type: "SALE", crypto: "USDT", fiat: "RUB", makerFeeBps: 50, idempotencyKey: KEY })
/** A complete SALE draft: 100 USDT at 95.50 RUB, 500–9,000 RUB per order. */
const full: OfferDraft = { ...base, fixedPrice: "95.5", volume: "100", minOrder: "500", maxOrder: "9000", paymentDetailsIds: [7] }

const offer: Offer = {
  id: 12,
  type: "SALE",
  status: "ACTIVE",
  user: { userId: 5, name: "Ann", completedOrders: 3, completionRate: 100 },
  isMine: true,
  crypto: "USDT",
  fiat: "RUB",
  price: { type: "FLOATING", value: "10150" },
  priceCents: "9700",
  volume: "100000000",
  available: "60000000",
  minOrderFiat: "50000",
  maxOrderFiat: "300000",
  paymentMethods: [{ code: "sbp", name: "SBP" }],
  paymentDetailsIds: [7, 8],
  paymentWindowMinutes: 30,
  terms: "Fast",
  autoAccept: true,
  openOrders: 1,
  unavailableReason: "own_offer",
  makerFeeBps: 100,
  takerFeeBps: 0,
  createdAt: "2025-01-01T00:00:00Z",
}

describe("the offer draft in storage", () => {
  it("reads back what it wrote", () => {
    expect(parseDraft(serialiseDraft(full))).toEqual(full)
    const edit = draftFromOffer(offer, KEY)
    expect(parseDraft(serialiseDraft(edit))).toEqual(edit)
  })

  it("refuses what it did not write", () => {
    expect(parseDraft(null)).toBeNull()
    expect(parseDraft("")).toBeNull()
    expect(parseDraft("{not json")).toBeNull()
    expect(parseDraft("[]")).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, v: 2 }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, type: "BUY" }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, crypto: "ETH" }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, step: 4 }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, volume: "1e5" }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, paymentWindowMinutes: 20 }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, paymentMethodCodes: ["cash"] }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, paymentDetailsIds: [0] }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, idempotencyKey: "short" }))).toBeNull()
    expect(parseDraft(JSON.stringify({ ...full, offerId: -1 }))).toBeNull()
  })

  it("belongs to the same offer, or to a new ad of the asked type", () => {
    expect(draftMatches(full, { offerId: null, type: "SALE" })).toBe(true)
    expect(draftMatches(full, { offerId: null, type: "PURCHASE" })).toBe(false)
    expect(draftMatches(full, { offerId: 12 })).toBe(false)
    expect(draftMatches({ ...full, offerId: 12 }, { offerId: 12, type: "PURCHASE" })).toBe(true)
    expect(draftMatches(null, { offerId: null })).toBe(false)
  })

  it("edits an offer with its terms as typed texts", () => {
    const d = draftFromOffer(offer, KEY)
    expect(d).toMatchObject({
      offerId: 12,
      priceType: "FLOATING",
      floatingPercent: "101.5",
      volume: "100",
      minOrder: "500",
      maxOrder: "3000",
      paymentDetailsIds: [7, 8],
      paymentMethodCodes: [],
      paymentWindowMinutes: 30,
      terms: "Fast",
      autoAccept: true,
      taken: "40000000",
      makerFeeBps: 100,
    })
    expect(draftFromOffer({ ...offer, price: { type: "FIXED", value: "9550" }, paymentWindowMinutes: 7 }, KEY)).toMatchObject({
      fixedPrice: "95.5",
      paymentWindowMinutes: 15,
    })
  })
})

describe("prices", () => {
  it("reads a percent as basis points", () => {
    expect(percentToBps("101.5")).toBe(10150n)
    expect(percentToBps("70")).toBe(7000n)
    expect(percentToBps("")).toBeNull()
  })

  it("is the typed price, or the market's times the percent rounded down", () => {
    expect(draftPriceCents(full, null)).toBe(9550n)
    const floating = { ...full, priceType: "FLOATING" as const, floatingPercent: "101.5" }
    expect(draftPriceCents(floating, 9999n)).toBe(10148n) // 9999 * 1.015 = 10148.985
    expect(draftPriceCents(floating, null)).toBeNull()
  })
})

describe("step checks", () => {
  it("step 1 wants a price above zero, or 70–130 % of a known market price", () => {
    expect(stepProblems(1, base, null)).toEqual({ price: "required" })
    expect(stepProblems(1, { ...base, fixedPrice: "0" }, null)).toEqual({ price: "zero" })
    expect(stepProblems(1, full, null)).toEqual({})
    const floating = { ...base, priceType: "FLOATING" as const }
    expect(stepProblems(1, { ...floating, floatingPercent: "69.99" }, 9000n)).toEqual({ price: "percentRange" })
    expect(stepProblems(1, { ...floating, floatingPercent: "130.01" }, 9000n)).toEqual({ price: "percentRange" })
    expect(stepProblems(1, { ...floating, floatingPercent: "130" }, 9000n)).toEqual({})
    expect(stepProblems(1, floating, null)).toEqual({ price: "noMarketPrice" })
  })

  it("step 2 wants a volume, min ≤ max ≤ the volume's value, and one to five payment choices", () => {
    expect(stepProblems(2, base, null)).toEqual({ volume: "required", minOrder: "required", maxOrder: "required", payment: "paymentRequired" })
    expect(stepProblems(2, full, null)).toEqual({})
    expect(stepProblems(2, { ...full, volume: "0" }, null)).toMatchObject({ volume: "zero" })
    expect(stepProblems(2, { ...full, minOrder: "9001" }, null)).toEqual({ maxOrder: "minAboveMax" })
    // 100 USDT at 95.50 is 9,550 RUB.
    expect(stepProblems(2, { ...full, maxOrder: "9550" }, null)).toEqual({})
    expect(stepProblems(2, { ...full, maxOrder: "9550.01" }, null)).toEqual({ maxOrder: "maxAboveVolume" })
    expect(stepProblems(2, { ...full, paymentDetailsIds: [1, 2, 3, 4, 5, 6] }, null)).toEqual({ payment: "tooManyPayments" })
    expect(stepProblems(2, { ...full, taken: "100000001" }, null)).toMatchObject({ volume: "belowTaken" })
  })

  it("a PURCHASE draft counts method codes, not details", () => {
    const purchase = { ...full, type: "PURCHASE" as const, paymentDetailsIds: [] }
    expect(stepProblems(2, purchase, null)).toEqual({ payment: "paymentRequired" })
    expect(stepProblems(2, { ...purchase, paymentMethodCodes: ["sbp"] }, null)).toEqual({})
  })

  it("step 3 caps the terms at 1,000 characters", () => {
    expect(stepProblems(3, { ...full, terms: "x".repeat(1000) }, null)).toEqual({})
    expect(stepProblems(3, { ...full, terms: "x".repeat(1001) }, null)).toEqual({ terms: "termsTooLong" })
  })

  it("finds the first step to fix", () => {
    expect(firstBadStep(base, null)).toBe(1)
    expect(firstBadStep({ ...full, paymentDetailsIds: [] }, null)).toBe(2)
    expect(firstBadStep(full, null)).toBeNull()
  })
})

describe("the request", () => {
  it("is made only of a complete draft, in minor units", () => {
    expect(draftToForm(base, null)).toBeNull()
    expect(draftToForm({ ...full, terms: "  Be quick  ", autoAccept: true, paymentMethodCodes: ["sbp"] }, null)).toEqual({
      type: "SALE",
      crypto: "USDT",
      fiat: "RUB",
      price: { type: "FIXED", value: "9550" },
      volume: "100000000",
      minOrderFiat: "50000",
      maxOrderFiat: "900000",
      paymentDetailsIds: [7],
      paymentMethodCodes: [],
      paymentWindowMinutes: 15,
      terms: "Be quick",
      autoAccept: true,
    })
    const floating = draftToForm({ ...full, priceType: "FLOATING", floatingPercent: "99" }, 9600n)
    expect(floating?.price).toEqual({ type: "FLOATING", value: "9900" })
    expect(draftToForm({ ...full, terms: "   " }, null)?.terms).toBeNull()
  })

  it("holds the volume orders have not taken plus the maker fee, for SALE only", () => {
    expect(draftHold(full)).toBe(100_500_000n)
    expect(draftHold({ ...full, taken: "40000000" })).toBe(60_300_000n)
    expect(draftHold({ ...full, type: "PURCHASE" })).toBeNull()
    expect(draftHold(base)).toBeNull()
    expect(volumeFiatCents(full, null)).toBe(955_000n)
  })
})

describe("form helpers", () => {
  it("a new pair or side empties the payment choices", () => {
    expect(withPair(full, { crypto: "TON" }).paymentDetailsIds).toEqual([7])
    expect(withPair(full, { fiat: "USD" }).paymentDetailsIds).toEqual([])
    expect(withPair({ ...full, paymentMethodCodes: ["sbp"] }, { type: "PURCHASE" }).paymentMethodCodes).toEqual([])
  })

  it("toggles a choice, at most five", () => {
    expect(toggleChoice([1, 2], 2)).toEqual([1])
    expect(toggleChoice([1, 2], 3)).toEqual([1, 2, 3])
    expect(toggleChoice([1, 2, 3, 4, 5], 6)).toEqual([1, 2, 3, 4, 5])
  })

  it("starts from the saved pair when the region allows it", () => {
    const settings = { defaultCurrencyForSaleOfferCreation: "EUR", defaultCurrencyForPurchaseOfferCreation: "TON" as const, recentFiats: ["USD"] }
    expect(defaultPair(settings, ["RUB", "EUR"], "RUB")).toEqual({ crypto: "TON", fiat: "EUR" })
    expect(defaultPair(settings, ["RUB", "USD"], "rub")).toEqual({ crypto: "TON", fiat: "USD" })
    expect(defaultPair(undefined, ["KZT", "RUB"], "rub")).toEqual({ crypto: "USDT", fiat: "RUB" })
    expect(defaultPair(undefined, ["KZT"], undefined)).toEqual({ crypto: "USDT", fiat: "KZT" })
    expect(defaultPair(undefined, [], undefined)).toEqual({ crypto: "USDT", fiat: "USD" })
  })

  it("opens the step a refusal points at", () => {
    expect(stepForRefusal("insufficient_funds")).toBe(2)
    expect(stepForRefusal("verification_limit")).toBe(2)
    expect(stepForRefusal("invalid_offer")).toBe(1)
    expect(stepForRefusal(undefined)).toBe(1)
  })
})

describe("payment details", () => {
  it("checks each field as typed; sbp wants +7 and ten digits", () => {
    expect(fieldProblems("sbp", {})).toEqual({ phone: "required", bankName: "required", holderName: "required" })
    expect(fieldProblems("sbp", { phone: "+380501234567", bankName: "Sber", holderName: "Ivan Petrov" })).toEqual({ phone: "sbpPhone" })
    expect(fieldProblems("sbp", { phone: "+7 912 345-67-89", bankName: "Sber", holderName: "Ivan Petrov" })).toEqual({})
    expect(fieldProblems("card", { cardNumber: "4111 1111 1111 1112", holderName: "Ivan", bankName: "Sber" })).toEqual({ cardNumber: "invalid" })
    expect(fieldProblems("card", { cardNumber: "4111111111111111", holderName: "Ivan", bankName: "Sber", comment: "x".repeat(201) })).toEqual({
      comment: "invalid",
    })
    expect(fieldProblems("nope", {})).toEqual({})
  })

  it("saves the normalised fields without an empty comment", () => {
    expect(fieldsToSave("sbp", { phone: "+7 (912) 345-67-89", bankName: " Sber ", holderName: "Ivan  Petrov", comment: " " })).toEqual({
      phone: "+79123456789",
      bankName: "Sber",
      holderName: "Ivan Petrov",
    })
    expect(fieldsToSave("revolut_pay", { revtag: "ann_b", holderName: "Ann B", comment: "EU only" })).toEqual({
      revtag: "@ann_b",
      holderName: "Ann B",
      comment: "EU only",
    })
    expect(fieldsToSave("sbp", { phone: "123" })).toBeNull()
  })

  it("shows the main field, numbers masked", () => {
    expect(mainFieldText({ paymentMethod: { code: "card", name: "Bank card" }, fields: { cardNumber: "4111111111111111", holderName: "Ann" } })).toBe(
      "•••• 1111",
    )
    expect(mainFieldText({ paymentMethod: { code: "sbp", name: "SBP" }, fields: { phone: "+79123456789", bankName: "Sber" } })).toBe("+79123456789")
    expect(mainFieldText({ paymentMethod: { code: "sbp", name: "SBP" }, fields: {} })).toBe("")
  })

  it("groups by fiat, fiats in order", () => {
    const groups = groupByFiat([
      { id: 1, fiat: "RUB" },
      { id: 2, fiat: "EUR" },
      { id: 3, fiat: "RUB" },
    ])
    expect(groups).toEqual([
      { fiat: "EUR", items: [{ id: 2, fiat: "EUR" }] },
      {
        fiat: "RUB",
        items: [
          { id: 1, fiat: "RUB" },
          { id: 3, fiat: "RUB" },
        ],
      },
    ])
  })

  it("reads the refused fields from the error or its body", () => {
    expect(refusedFields({ _tag: "P2pRefused", code: "invalid_payment_details", fields: ["phone", 3] })).toEqual(["phone"])
    expect(refusedFields({ body: { code: "invalid_payment_details", fields: ["iban"] } })).toEqual(["iban"])
    expect(refusedFields(new Error("x"))).toEqual([])
    expect(refusedFields(null)).toEqual([])
  })
})

describe("the fiat chooser", () => {
  const names: Record<string, string> = { RUB: "Russian ruble", USD: "US dollar", EUR: "Euro", KZT: "Kazakhstani tenge" }
  const nameOf = (code: string) => names[code] ?? code
  it("puts at most two recent fiats on top", () => {
    expect(fiatChoices(["EUR", "KZT", "RUB", "USD"], ["USD", "RUB", "EUR"], "", nameOf)).toEqual({ recent: ["USD", "RUB"], rest: ["EUR", "KZT"] })
    expect(fiatChoices(["EUR", "RUB"], ["GBP"], "", nameOf)).toEqual({ recent: [], rest: ["EUR", "RUB"] })
  })
  it("searches codes and names", () => {
    expect(fiatChoices(["EUR", "KZT", "RUB", "USD"], ["USD"], "ru", nameOf)).toEqual({ recent: [], rest: ["RUB"] })
    expect(fiatChoices(["EUR", "KZT", "RUB", "USD"], ["USD"], "dollar", nameOf)).toEqual({ recent: ["USD"], rest: [] })
  })
})

describe("sharing", () => {
  it("links the offer with the offerid start param", () => {
    expect(offerShareLink("wallet_dev_bot", 12, 5)).toBe("https://t.me/wallet_dev_bot?startapp=offerid_12_5")
    expect(offerShareLink(undefined, 12, 5)).toBe("https://t.me/wallet?startapp=offerid_12_5")
  })
})
