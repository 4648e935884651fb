import { describe, expect, it } from "vitest"
import {
  asksRefundFirst,
  checkFields,
  cryptoOf,
  feeOf,
  fiatOf,
  hasNextPage,
  historyFilterOf,
  movesFor,
  normaliseField,
  offerHoldOf,
  orderMoney,
  paymentMethod,
  pushRecent,
  serverFilterOf,
  statusesOf,
  unavailableWhyOf,
} from "./domain.ts"

describe("P2P rules (spec 3; decision 1000)", () => {
  it("payment fields: sbp wants a Russian phone, cards pass Luhn, IBANs their checksum", () => {
    expect(normaliseField("phone", "+7 (916) 123-45-67", "sbp")).toBe("+79161234567")
    expect(normaliseField("phone", "+44 7700 900123", "sbp")).toBeUndefined()
    expect(normaliseField("phone", "+44 7700 900123", "dana")).toBe("+447700900123")
    expect(normaliseField("cardNumber", "4111 1111 1111 1111")).toBe("4111111111111111")
    expect(normaliseField("cardNumber", "4111 1111 1111 1112")).toBeUndefined()
    expect(normaliseField("iban", "de89 3704 0044 0532 0130 00")).toBe("DE89370400440532013000")
    expect(normaliseField("iban", "DE89370400440532013001")).toBeUndefined()
    expect(normaliseField("revtag", "lena_l")).toBe("@lena_l")
    expect(normaliseField("holderName", "R2D2")).toBeUndefined()
  })

  it("checkFields lists every missing, invalid or unknown field of a method", () => {
    const sbp = paymentMethod("sbp")!
    expect(checkFields(sbp, { phone: "+79161234567", bankName: "T-Bank", holderName: "Lena Level" })).toEqual({
      ok: true,
      fields: { phone: "+79161234567", bankName: "T-Bank", holderName: "Lena Level" },
    })
    expect(checkFields(sbp, { phone: "123", cardNumber: "4111111111111111" })).toEqual({
      ok: false,
      invalid: ["cardNumber", "phone", "bankName", "holderName"],
    })
  })

  it("fiat and crypto conversions are exact integers (half up to cents; crypto down)", () => {
    // 1.5 USDT at 95.50 RUB: 143.25 RUB.
    expect(fiatOf(1_500_000n, 6, 9550n)).toBe(14325n)
    expect(fiatOf(1n, 6, 9550n)).toBe(0n)
    expect(cryptoOf(14325n, 6, 9550n)).toBe(1_500_000n)
    expect(cryptoOf(100n, 9, 0n)).toBe(0n)
  })

  it("fees round down, so the fees of an offer's parts never exceed the fee on the whole", () => {
    const fees = { makerBps: 90, takerBps: 0 }
    const volume = 1_000_000_007n
    const parts = [333_333_333n, 333_333_337n, 333_333_337n]
    expect(parts.reduce((a, b) => a + b, 0n)).toBe(volume)
    expect(parts.reduce((sum, part) => sum + feeOf(part, 90), 0n)).toBeLessThanOrEqual(feeOf(volume, 90))
    expect(offerHoldOf(volume, fees)).toBe(volume + feeOf(volume, 90))
    // The seller's fee rides on the hold; the buyer's comes out of what the buyer receives.
    expect(orderMoney(1_000_000n, "SALE", { makerBps: 100, takerBps: 50 })).toEqual({
      hold: 1_010_000n,
      sellerFee: 10_000n,
      buyerFee: 5_000n,
      buyerReceives: 995_000n,
    })
    expect(orderMoney(1_000_000n, "PURCHASE", { makerBps: 100, takerBps: 50 })).toEqual({
      hold: 1_005_000n,
      sellerFee: 5_000n,
      buyerFee: 10_000n,
      buyerReceives: 990_000n,
    })
  })

  it("the machine: who may move what, and a paid order has nothing to cancel", () => {
    expect(movesFor("REQUESTED", "seller", true)).toEqual(["accept", "reject", "cancel"])
    expect(movesFor("REQUESTED", "buyer", false)).toEqual(["cancel"])
    expect(movesFor("ACCEPTED", "buyer", false)).toEqual(["paid", "cancel"])
    expect(movesFor("ACCEPTED", "seller", true)).toEqual(["cancel"])
    expect(movesFor("PAID", "buyer", false)).toEqual(["appeal"])
    expect(movesFor("PAID", "seller", false)).toEqual(["received", "appeal"])
    // In appeal the seller may still release; nobody else moves it (support decides).
    expect(movesFor("IN_APPEAL", "buyer", false)).toEqual([])
    expect(movesFor("IN_APPEAL", "seller", true)).toEqual(["received"])
    expect(movesFor("COMPLETED", "seller", true)).toEqual([])
  })

  it("history filters map to the server's statuses; unknown values read as active; paging needs a full page", () => {
    expect(serverFilterOf("completed")).toBe("COMPLETED_FOR_REQUESTER")
    expect(serverFilterOf("canceled")).toBe("CANCELLED_OR_CANCELLING")
    expect(serverFilterOf("whatever")).toBe("ALL_ACTIVE")
    expect(historyFilterOf("nope")).toBe("active")
    expect(statusesOf("ALL_ACTIVE")).toEqual(["REQUESTED", "ACCEPTED", "PAID", "IN_APPEAL"])
    expect(statusesOf("CANCELLED_OR_CANCELLING")).toEqual(["CANCELLED", "EXPIRED", "REJECTED"])
    expect(hasNextPage(20, 20)).toBe(true)
    expect(hasNextPage(19, 20)).toBe(false)
    expect(unavailableWhyOf("region")).toBe("region")
    expect(unavailableWhyOf("moon")).toBe("generic")
  })

  it("recent fiats keep at most two, newest first", () => {
    expect(pushRecent([], "RUB")).toEqual(["RUB"])
    expect(pushRecent(["RUB"], "EUR")).toEqual(["EUR", "RUB"])
    expect(pushRecent(["EUR", "RUB"], "USD")).toEqual(["USD", "EUR"])
    expect(pushRecent(["EUR", "RUB"], "RUB")).toEqual(["RUB", "EUR"])
  })

  it("the help flow asks for a refund first for a wrong amount, unless skipRefund or the user went on", () => {
    expect(asksRefundFirst("paid_wrong_amount", false)).toBe(true)
    expect(asksRefundFirst("paid_wrong_amount", true)).toBe(false)
    expect(asksRefundFirst("seller_not_releasing", false)).toBe(false)
    expect(asksRefundFirst(undefined, false)).toBe(false)
  })
})
