import { describe, expect, it } from "vitest"
import { formatAmount, formatUnits, shortAddress } from "./amount.ts"

describe("kernel amount and address text (decision 0130)", () => {
  it("formatAmount is exact: every digit kept, trailing zeros dropped, no grouping", () => {
    expect(formatAmount(1_500_000_000n, 9)).toBe("1.5")
    expect(formatAmount(0n, 6)).toBe("0")
    expect(formatAmount(1n, 18)).toBe("0.000000000000000001")
    expect(formatAmount(-250_000n, 6)).toBe("-0.25")
    expect(formatAmount(12_345_000_000_000n, 9)).toBe("12345")
    expect(formatAmount(7n, 0)).toBe("7")
  })

  it("formatUnits truncates to maxDecimals (never rounds up) and spaces thousands", () => {
    expect(formatUnits(1_999_999_999n, 9, 2)).toBe("1.99")
    expect(formatUnits(12_345_000_000_000n, 9)).toBe("12 345")
    expect(formatUnits(-1_234_567_500_000n, 9, 1)).toBe("-1 234.5")
    expect(formatUnits(5n, 0)).toBe("5")
  })

  it("shortAddress keeps head and tail around an ellipsis, short values in full", () => {
    expect(shortAddress("UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG")).toBe("UQ…ggGG")
    expect(shortAddress("abcdef")).toBe("abcdef")
    expect(shortAddress("UQAbcdefghijklmnopqrstuvwxyz0123456789", 6, 6)).toBe("UQAbcd…456789")
    expect(shortAddress("short", 6, 6)).toBe("short")
  })
})
