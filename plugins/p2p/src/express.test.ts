import { describe, expect, it } from "vitest"
import {
  bestMatch,
  compareCandidates,
  expressAmountProblem,
  expressAmounts,
  isExpressOnly,
  limitsOf,
  matchedOfferType,
  operationOfSide,
  priceAcceptable,
  sideOfOperation,
  type ExpressCandidate,
} from "./express.ts"

const USDT = 1_000_000n
const offer = (id: number, priceCents: bigint, overrides: Partial<ExpressCandidate> = {}): ExpressCandidate => ({
  id,
  priceCents,
  minFiat: 50_000n,
  maxFiat: 1_000_000n,
  available: 100n * USDT,
  completionRate: null,
  completedOrders: 0,
  ...overrides,
})

describe("express rules (spec 3 §3, §7.1; issue 21)", () => {
  it("the user's side matches the other side's offers; the path's operation names the side", () => {
    expect(matchedOfferType("PURCHASE")).toBe("SALE")
    expect(matchedOfferType("SALE")).toBe("PURCHASE")
    expect(sideOfOperation("sell")).toBe("SALE")
    expect(sideOfOperation("buy")).toBe("PURCHASE")
    expect(sideOfOperation("nonsense")).toBe("PURCHASE")
    expect(operationOfSide("SALE")).toBe("sell")
  })

  it("an amount in crypto fixes the fiat; an amount in fiat buys at least that much fiat's worth", () => {
    // 95.50 a USDT: 10 USDT is 955.00.
    expect(expressAmounts("BY_AMOUNT", 10n * USDT, 6, 9_550n)).toEqual({ amount: 10n * USDT, fiat: 95_500n })
    // 1000.00 at 95.50 is 10.471204 USDT (999.99998, rounded to 1,000.00).
    expect(expressAmounts("BY_FIAT", 100_000n, 6, 9_550n)).toEqual({ amount: 10_471_204n, fiat: 100_000n })
    // A coin of two decimals at 3.00: 10.00 buys 3.33 (9.99), short of it, so one unit more (3.34 for 10.02)...
    expect(expressAmounts("BY_FIAT", 1_000n, 2, 300n)).toEqual({ amount: 334n, fiat: 1_002n })
    // ...unless that unit would pass the offer's maximum.
    expect(expressAmounts("BY_FIAT", 1_000n, 2, 300n, 1_001n)).toEqual({ amount: 333n, fiat: 999n })
    expect(expressAmounts("BY_FIAT", 0n, 6, 9_550n)).toBeNull()
    expect(expressAmounts("BY_AMOUNT", 5n, 6, 0n)).toBeNull()
  })

  it("the best offer is the cheapest for a buyer and the dearest for a seller; at one price the better completion rate wins", () => {
    const cheap = offer(3, 9_000n)
    const dear = offer(1, 11_000n)
    const mid = offer(2, 10_000n)
    expect([dear, mid, cheap].sort(compareCandidates("PURCHASE")).map((o) => o.id)).toEqual([3, 2, 1])
    expect([cheap, mid, dear].sort(compareCandidates("SALE")).map((o) => o.id)).toEqual([1, 2, 3])
    const unknown = offer(4, 10_000n)
    const good = offer(5, 10_000n, { completionRate: 98, completedOrders: 50 })
    const bad = offer(6, 10_000n, { completionRate: 60, completedOrders: 500 })
    const busier = offer(7, 10_000n, { completionRate: 98, completedOrders: 80 })
    // A record beats none; at one rate more completed orders; else the older offer.
    expect([unknown, bad, good, busier].sort(compareCandidates("PURCHASE")).map((o) => o.id)).toEqual([7, 5, 6, 4])
    expect([offer(9, 10_000n), offer(8, 10_000n)].sort(compareCandidates("SALE")).map((o) => o.id)).toEqual([8, 9])
  })

  it("the match skips offers that cannot fill the amount (limits, what is left)", () => {
    const cheapSmall = offer(1, 9_000n, { maxFiat: 50_000n })
    const cheapEmpty = offer(2, 9_100n, { available: 1n * USDT })
    const fine = offer(3, 9_900n)
    const ranked = bestMatch("PURCHASE", [fine, cheapEmpty, cheapSmall], "BY_FIAT", 100_000n, 6)
    expect(ranked.map((m) => m.offer.id)).toEqual([3])
    expect(ranked[0]!.amounts.fiat).toBe(100_000n)
    expect(bestMatch("PURCHASE", [cheapSmall], "BY_FIAT", 100_000n, 6)).toEqual([])
  })

  it("limits span the offers: the smallest minimum, the largest fill (capped by what is left), in fiat and crypto", () => {
    const a = offer(1, 10_000n, { minFiat: 50_000n, maxFiat: 200_000n, available: 100n * USDT })
    // 30 USDT left at 110.00 is 3,300.00: less than its 5,000.00 maximum.
    const b = offer(2, 11_000n, { minFiat: 100_000n, maxFiat: 500_000n, available: 30n * USDT })
    expect(limitsOf([a, b], 6)).toEqual({ minFiat: 50_000n, maxFiat: 330_000n, minAmount: 5n * USDT, maxAmount: 30n * USDT })
    expect(limitsOf([], 6)).toBeNull()
    // An offer whose crypto left is worth less than its minimum adds nothing.
    expect(limitsOf([offer(3, 10_000n, { minFiat: 50_000n, available: 1n * USDT })], 6)).toBeNull()
  })

  it("an amount is checked against the limits in the unit it is typed in", () => {
    const limits = { minFiat: 50_000n, maxFiat: 330_000n, minAmount: 5n * USDT, maxAmount: 30n * USDT }
    expect(expressAmountProblem(null, "BY_FIAT", limits)).toBe("empty")
    expect(expressAmountProblem(49_999n, "BY_FIAT", limits)).toBe("belowMin")
    expect(expressAmountProblem(330_001n, "BY_FIAT", limits)).toBe("aboveMax")
    expect(expressAmountProblem(330_000n, "BY_FIAT", limits)).toBeNull()
    expect(expressAmountProblem(31n * USDT, "BY_AMOUNT", limits)).toBe("aboveMax")
    expect(expressAmountProblem(5n * USDT, "BY_AMOUNT", limits)).toBeNull()
  })

  it("a price matched again may be worse than the confirmed one only within the tolerance; better is always fine", () => {
    expect(priceAcceptable("PURCHASE", 10_000n, 10_050n, 50)).toBe(true)
    expect(priceAcceptable("PURCHASE", 10_000n, 10_051n, 50)).toBe(false)
    expect(priceAcceptable("PURCHASE", 10_000n, 9_000n, 50)).toBe(true)
    expect(priceAcceptable("SALE", 10_000n, 9_950n, 50)).toBe(true)
    expect(priceAcceptable("SALE", 10_000n, 9_949n, 50)).toBe(false)
    expect(priceAcceptable("SALE", 10_000n, 12_000n, 50)).toBe(true)
  })
})

describe("express-only mode (spec 3 §4.1)", () => {
  const now = new Date("2025-03-10T15:00:00Z")
  const base = { countries: ["RU"], restricted: false, restrictedCountries: [] as Array<string>, accountCreatedAt: new Date("2025-03-10T00:05:00Z"), now }

  it("an unrestricted user from RU whose account was created today", () => {
    expect(isExpressOnly(base)).toBe(true)
    // By residence in verification while the profile says otherwise; any case.
    expect(isExpressOnly({ ...base, countries: ["DE", null, "ru"] })).toBe(true)
  })

  it("not a user from elsewhere, not one created yesterday, not a restricted one", () => {
    expect(isExpressOnly({ ...base, countries: ["DE", null] })).toBe(false)
    expect(isExpressOnly({ ...base, accountCreatedAt: new Date("2025-03-09T23:59:59Z") })).toBe(false)
    expect(isExpressOnly({ ...base, accountCreatedAt: null })).toBe(false)
    expect(isExpressOnly({ ...base, restricted: true })).toBe(false)
  })

  it("never in a region whose market restricts RU (the default config): there the market is closed to them", () => {
    expect(isExpressOnly({ ...base, restrictedCountries: ["RU"] })).toBe(false)
    // Even when the IP country let the user in and only the residence says RU.
    expect(isExpressOnly({ ...base, countries: ["NL", "RU"], restrictedCountries: ["BY", "RU"] })).toBe(false)
    expect(isExpressOnly({ ...base, restrictedCountries: ["BY"] })).toBe(true)
  })
})
