import { describe, expect, it } from "vitest"
import { fiatOf } from "../domain.ts"
import {
  countdown,
  counterpartyOf,
  defaultFiat,
  detailsLine,
  errorKey,
  formatCrypto,
  formatFiat,
  formatFiatPlain,
  idOf,
  newIdempotencyKey,
  orderTitleKey,
  parseMinor,
  takeAmounts,
  takeProblem,
  unavailableReasonKey,
} from "./market.ts"

describe("formatFiat", () => {
  it("formats cents exactly, whole amounts without decimals", () => {
    expect(formatFiat("123450", "USD", "en")).toBe("$1,234.50")
    expect(formatFiat(100000n, "USD", "en")).toBe("$1,000")
    expect(formatFiat("5", "USD", "en")).toBe("$0.05")
    expect(formatFiat("9007199254740993", "USD", "en")).toBe("$90,071,992,547,409.93")
  })
  it("uses the locale's separators and symbol", () => {
    expect(formatFiat("123450", "RUB", "ru").replace(/\s/g, " ")).toBe("1 234,50 ₽")
  })
  it("falls back to the code for a currency Intl does not take", () => {
    expect(formatFiat("150", "X1", "en")).toBe("1.5 X1")
  })
})

describe("formatCrypto and formatFiatPlain", () => {
  it("keeps every digit of the crypto", () => {
    expect(formatCrypto("1500000", "USDT")).toBe("1.5 USDT")
    expect(formatCrypto(1n, "TON")).toBe("0.000000001 TON")
  })
  it("gives the plain number a bank app takes", () => {
    expect(formatFiatPlain("123450")).toBe("1234.50")
    expect(formatFiatPlain("100000")).toBe("1000")
    expect(formatFiatPlain(7n)).toBe("0.07")
  })
})

describe("parseMinor", () => {
  it("reads typed amounts into minor units, null when empty or unreadable", () => {
    expect(parseMinor("12.5", 2)).toBe(1250n)
    expect(parseMinor("0.000001", 6)).toBe(1n)
    expect(parseMinor("", 2)).toBeNull()
    expect(parseMinor(".", 2)).toBeNull()
    expect(parseMinor("1.234", 2)).toBeNull()
    expect(parseMinor("abc", 2)).toBeNull()
  })
})

describe("takeAmounts (the take form's conversion)", () => {
  // 95.00 RUB per USDT (6 decimals).
  const price = 9500n

  it("computes the fiat of a crypto amount, rounded half up", () => {
    expect(takeAmounts("crypto", "10", 6, price)).toEqual({ amount: 10_000_000n, fiat: 95_000n })
    expect(takeAmounts("crypto", "0.000001", 6, price)).toEqual({ amount: 1n, fiat: 0n })
  })

  it("computes the crypto a fiat amount buys, worth the typed fiat", () => {
    const order = takeAmounts("fiat", "950", 6, price)
    expect(order).toEqual({ amount: 10_000_000n, fiat: 95_000n })
    const odd = takeAmounts("fiat", "1000", 6, price)!
    expect(odd.fiat).toBe(100_000n)
    expect(fiatOf(odd.amount, 6, price)).toBe(100_000n)
  })

  it("takes one more minor unit when rounding down fell short of the typed fiat (coarse units)", () => {
    // BTC at 6,000,000.00 RUB: one satoshi is 6 kopecks.
    const btc = 600_000_000n
    const order = takeAmounts("fiat", "1000.01", 8, btc)!
    expect(order.fiat).toBeGreaterThanOrEqual(100_001n)
    expect(takeAmounts("fiat", "1000.01", 8, btc, 100_001n)!.fiat).toBeLessThanOrEqual(100_001n)
  })

  it("is null for an empty field", () => {
    expect(takeAmounts("fiat", "", 6, price)).toBeNull()
    expect(takeAmounts("crypto", "", 6, price)).toBeNull()
  })
})

describe("takeProblem (the take form's checks)", () => {
  const limits = { minFiat: 100_000n, maxFiat: 500_000n, available: 50_000_000n }
  it("names what is wrong, in order", () => {
    expect(takeProblem(null, limits)).toBe("empty")
    expect(takeProblem({ amount: 0n, fiat: 0n }, limits)).toBe("zero")
    expect(takeProblem({ amount: 60_000_000n, fiat: 400_000n }, limits)).toBe("aboveAvailable")
    expect(takeProblem({ amount: 1_000_000n, fiat: 99_999n }, limits)).toBe("belowMin")
    expect(takeProblem({ amount: 1_000_000n, fiat: 500_001n }, limits)).toBe("aboveMax")
    expect(takeProblem({ amount: 10_000_000n, fiat: 100_000n }, limits)).toBeNull()
    expect(takeProblem({ amount: 50_000_000n, fiat: 500_000n }, limits)).toBeNull()
  })
})

describe("orderTitleKey (the order page's title)", () => {
  const of = (
    status: Parameters<typeof orderTitleKey>[0]["status"],
    side: "buyer" | "seller",
    cancelledBy: "buyer" | "seller" | "system" | null = null,
    role: "maker" | "taker" = "taker",
  ) => orderTitleKey({ status, side, role, cancelledBy })
  it("depends on the status and the requester's side and role", () => {
    expect(of("REQUESTED", "buyer")).toBe("order.title.requested.waitFor.seller")
    expect(of("REQUESTED", "seller")).toBe("order.title.requested.waitFor.buyer")
    expect(of("REQUESTED", "seller", null, "maker")).toBe("order.title.requested.maker")
    expect(of("REQUESTED", "buyer", null, "maker")).toBe("order.title.requested.maker")
    expect(of("ACCEPTED", "buyer")).toBe("order.title.accepted.buyer")
    expect(of("ACCEPTED", "seller")).toBe("order.title.accepted.seller")
    expect(of("PAID", "seller")).toBe("order.title.paid.seller")
    expect(of("PAID", "buyer")).toBe("order.title.paid.buyer")
    expect(of("COMPLETED", "buyer")).toBe("order.title.completed")
    expect(of("EXPIRED", "seller")).toBe("order.title.expired")
    expect(of("REJECTED", "buyer")).toBe("order.title.rejected.by.seller")
    expect(of("REJECTED", "seller")).toBe("order.title.rejected.by.buyer")
    expect(of("REJECTED", "buyer", null, "maker")).toBe("order.title.rejected.you")
    expect(of("IN_APPEAL", "buyer")).toBe("order.title.inAppeal")
  })
  it("says who cancelled", () => {
    expect(of("CANCELLED", "buyer", "buyer")).toBe("order.title.cancelled.you")
    expect(of("CANCELLED", "buyer", "seller")).toBe("order.title.cancelled.seller")
    expect(of("CANCELLED", "seller", "buyer")).toBe("order.title.cancelled.buyer")
    expect(of("CANCELLED", "seller", "system")).toBe("order.title.cancelled.system")
    expect(of("CANCELLED", "seller", null)).toBe("order.title.cancelled.unknown")
  })
})

describe("small helpers", () => {
  it("errorKey: known codes get their message, others the generic one", () => {
    expect(errorKey("price_moved")).toBe("market.errors.price_moved")
    expect(errorKey("verification_limit")).toBe("market.errors.verification_limit")
    expect(errorKey("boom")).toBe("market.errors.generic")
    expect(errorKey(undefined)).toBe("market.errors.generic")
  })

  it("countdown: m:ss, h:mm:ss, 0:00 after the deadline, null without one", () => {
    const now = Date.parse("2025-01-01T00:00:00Z")
    expect(countdown("2025-01-01T00:14:05Z", now)).toBe("14:05")
    expect(countdown("2025-01-01T01:02:03Z", now)).toBe("1:02:03")
    expect(countdown("2024-12-31T23:59:00Z", now)).toBe("0:00")
    expect(countdown(null, now)).toBeNull()
    expect(countdown("soon", now)).toBeNull()
  })

  it("idOf: only positive whole numbers", () => {
    expect(idOf("42")).toBe(42)
    expect(idOf("0")).toBeNull()
    expect(idOf("4a")).toBeNull()
    expect(idOf("-1")).toBeNull()
    expect(idOf("99999999999999999999")).toBeNull()
    expect(idOf(undefined)).toBeNull()
  })

  it("defaultFiat: asked, then the recent one, then the local currency, then USD", () => {
    expect(defaultFiat("EUR", ["RUB"], "USD")).toBe("EUR")
    expect(defaultFiat(undefined, ["RUB", "EUR"], "USD")).toBe("RUB")
    expect(defaultFiat("bad", [], "kzt")).toBe("KZT")
    expect(defaultFiat(undefined, undefined, undefined)).toBe("USD")
  })

  it("counterpartyOf: the other side", () => {
    const buyer = { userId: 1, name: "B", completedOrders: 0, completionRate: null }
    const seller = { userId: 2, name: "S", completedOrders: 0, completionRate: null }
    expect(counterpartyOf({ side: "buyer", buyer, seller })).toBe(seller)
    expect(counterpartyOf({ side: "seller", buyer, seller })).toBe(buyer)
  })

  it("unavailableReasonKey: the known reasons, else generic", () => {
    expect(unavailableReasonKey("sold_out")).toBe("market.unavailableReason.sold_out")
    expect(unavailableReasonKey("open_orders_per_offer_cap_reached")).toBe("market.unavailableReason.open_orders_per_offer_cap_reached")
    expect(unavailableReasonKey("nope")).toBe("market.unavailableReason.generic")
    expect(unavailableReasonKey(undefined)).toBe("market.unavailableReason.generic")
  })

  it("detailsLine: masks numbers and leaves the comment out", () => {
    expect(detailsLine({ cardNumber: "4242424242424242", bankName: "Sber", comment: "hi" })).toBe("•••• 4242 · Sber")
  })

  it("newIdempotencyKey: 32 characters the server accepts, new each time", () => {
    const key = newIdempotencyKey()
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(key).toHaveLength(32)
    expect(newIdempotencyKey()).not.toBe(key)
  })
})
