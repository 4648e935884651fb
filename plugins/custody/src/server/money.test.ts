import { describe, expect, it } from "vitest"
import { formatAmount, parseAmount } from "../currencies.ts"
import { fiatCents, formatCents, formatPrice, percentChange } from "./money.ts"
import { PRICE_SCALE } from "./rates/Rates.ts"

describe("amounts", () => {
  it("parse decimal strings to minor units exactly and refuse extra precision", () => {
    expect(parseAmount("1.5", 9)).toBe(1_500_000_000n)
    expect(parseAmount("0.000000001", 9)).toBe(1n)
    expect(parseAmount("123456789012345678.123456789", 9)).toBe(123456789012345678123456789n)
    expect(parseAmount("1.50", 1)).toBe(15n)
    expect(parseAmount("0.0000000001", 9)).toBeUndefined()
    expect(parseAmount("1e3", 9)).toBeUndefined()
    expect(parseAmount("-1", 9)).toBeUndefined()
    expect(parseAmount("01", 9)).toBeUndefined()
  })

  it("format minor units to the shortest exact string", () => {
    expect(formatAmount(1_500_000_000n, 9)).toBe("1.5")
    expect(formatAmount(0n, 6)).toBe("0")
    expect(formatAmount(1n, 18)).toBe("0.000000000000000001")
    expect(formatAmount(-250_000n, 6)).toBe("-0.25")
    for (const value of [0n, 7n, 1_000_000n, 123_456_789n]) expect(parseAmount(formatAmount(value, 6), 6)).toBe(value)
  })
})

describe("fiat values", () => {
  it("round half up to cents from units and a scaled price", () => {
    // 1.5 TON at 5.123 USD = 7.6845 -> 7.68 ; at 5.127 -> 7.6905 -> 7.69
    expect(fiatCents(1_500_000_000n, 9, 5_123_000_000_000n)).toBe(768n)
    expect(fiatCents(1_500_000_000n, 9, 5_127_000_000_000n)).toBe(769n)
    // exactly half a cent rounds up: 0.005 USD
    expect(fiatCents(5_000n, 6, PRICE_SCALE)).toBe(1n)
    expect(fiatCents(4_999n, 6, PRICE_SCALE)).toBe(0n)
    // 0.0152 BTC at 95,000.5 USD
    expect(fiatCents(1_520_000n, 8, 95_000_500_000_000_000n)).toBe(144_400n + 1n)
  })

  it("format cents, prices and percent changes", () => {
    expect(formatCents(0n)).toBe("0.00")
    expect(formatCents(5n)).toBe("0.05")
    expect(formatCents(123_456n)).toBe("1234.56")
    expect(formatCents(-5n)).toBe("-0.05")
    expect(formatPrice(5_400_000_000_000n)).toBe("5.4")
    expect(formatPrice(500_000_000n)).toBe("0.0005")
    expect(percentChange(110n, 100n)).toBe(10)
    expect(percentChange(98_765n, 100_000n)).toBe(-1.24)
    expect(percentChange(5n, 0n)).toBe(0)
  })
})
