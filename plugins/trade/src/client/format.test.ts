import { describe, expect, it } from "vitest"
import { formatChange, formatCompactFiat, formatPrice, trendOf } from "./format.ts"

describe("trade formatting", () => {
  it("prices keep four significant digits under 1 and two decimals above", () => {
    expect(formatPrice("134990.301234", "USD", "en")).toBe("$134,990.30")
    expect(formatPrice("0.000021987654", "USD", "en")).toBe("$0.00002199")
  })
  it("big sums are compact, changes signed with two decimals", () => {
    expect(formatCompactFiat("1880000000000.00", "USD", "en")).toBe("$1.88T")
    expect(formatChange(4.987, "en")).toBe("+4.99%")
    expect(formatChange(-0.02, "en")).toBe("-0.02%")
    expect(formatChange(0, "en")).toBe("0.00%")
    expect([trendOf(1), trendOf(-1), trendOf(0)]).toEqual(["up", "down", "flat"])
  })
})
