import { describe, expect, it } from "vitest"
import { amountToMinorUnits, formatAmountForInput, minorUnitsToAmount, sanitizeAmountInput, sanitizePastedAmount } from "./amount.ts"

const ton = { decimals: 9 }
const usd = { decimals: 2 }

describe("sanitizeAmountInput (typing)", () => {
  it("accepts both separators and returns '.'", () => {
    expect(sanitizeAmountInput("12,5", usd)).toBe("12.5")
    expect(sanitizeAmountInput("12.5", usd)).toBe("12.5")
    expect(sanitizeAmountInput("12,", usd)).toBe("12.")
  })
  it("adds a zero before a leading separator and drops leading zeros", () => {
    expect(sanitizeAmountInput(",", usd)).toBe("0.")
    expect(sanitizeAmountInput(".5", usd)).toBe("0.5")
    expect(sanitizeAmountInput("00", usd)).toBe("0")
    expect(sanitizeAmountInput("007", usd)).toBe("7")
    expect(sanitizeAmountInput("000.50", usd)).toBe("0.50")
    expect(sanitizeAmountInput("0", usd)).toBe("0")
    expect(sanitizeAmountInput("", usd)).toBe("")
  })
  it("rejects more decimals than allowed, a second separator, letters and signs", () => {
    expect(sanitizeAmountInput("1.234", usd)).toBeNull()
    expect(sanitizeAmountInput("1.23", usd)).toBe("1.23")
    expect(sanitizeAmountInput("0.123456789", ton)).toBe("0.123456789")
    expect(sanitizeAmountInput("0.1234567891", ton)).toBeNull()
    expect(sanitizeAmountInput("1.2.3", ton)).toBeNull()
    expect(sanitizeAmountInput("1,2.", ton)).toBeNull()
    expect(sanitizeAmountInput("1e5", ton)).toBeNull()
    expect(sanitizeAmountInput("-1", ton)).toBeNull()
    expect(sanitizeAmountInput("Infinity", ton)).toBeNull()
  })
  it("with 0 decimals accepts whole units only", () => {
    expect(sanitizeAmountInput("15", { decimals: 0 })).toBe("15")
    expect(sanitizeAmountInput("15.", { decimals: 0 })).toBeNull()
  })
  it("limits the integer part", () => {
    expect(sanitizeAmountInput("1234", { decimals: 2, maxIntegerDigits: 4 })).toBe("1234")
    expect(sanitizeAmountInput("12345", { decimals: 2, maxIntegerDigits: 4 })).toBeNull()
    expect(sanitizeAmountInput("00001234", { decimals: 2, maxIntegerDigits: 4 })).toBe("1234")
  })
  it("strips spaces and reads other digit scripts", () => {
    expect(sanitizeAmountInput("1 000", usd)).toBe("1000")
    expect(sanitizeAmountInput("1\u00a0000,5", usd)).toBe("1000.5")
    expect(sanitizeAmountInput("١٢٫٥", usd)).toBe("12.5") // Arabic-Indic digits and separator
    expect(sanitizeAmountInput("۳", usd)).toBe("3") // Persian
  })
})

describe("sanitizePastedAmount", () => {
  it("understands grouping separators", () => {
    expect(sanitizePastedAmount("1,234.56", usd)).toBe("1234.56")
    expect(sanitizePastedAmount("1.234,56", usd)).toBe("1234.56")
    expect(sanitizePastedAmount("1 234,56", usd)).toBe("1234.56")
    expect(sanitizePastedAmount("1,234,567", usd)).toBe("1234567")
  })
  it("cuts extra decimals without rounding", () => {
    expect(sanitizePastedAmount("0.129", usd)).toBe("0.12")
    expect(sanitizePastedAmount("2.999", { decimals: 0 })).toBe("2")
  })
  it("rejects text that is not an amount", () => {
    expect(sanitizePastedAmount("abc", usd)).toBeNull()
    expect(sanitizePastedAmount("12 TON", usd)).toBeNull()
  })
})

describe("minor units (bigint, no floats)", () => {
  it("converts both ways exactly", () => {
    expect(amountToMinorUnits("12.5", 9)).toBe(12_500_000_000n)
    expect(amountToMinorUnits("0.1", 9) + amountToMinorUnits("0.2", 9)).toBe(amountToMinorUnits("0.3", 9))
    expect(amountToMinorUnits("123456789012345678.123456789", 9)).toBe(123456789012345678123456789n)
    expect(amountToMinorUnits("5.", 2)).toBe(500n)
    expect(amountToMinorUnits("", 2)).toBe(0n)
    expect(minorUnitsToAmount(12_500_000_000n, 9)).toBe("12.5")
    expect(minorUnitsToAmount(1n, 9)).toBe("0.000000001")
    expect(minorUnitsToAmount(100n, 0)).toBe("100")
    expect(minorUnitsToAmount(-150n, 2)).toBe("-1.5")
  })
  it("refuses more decimals than the currency has, and garbage", () => {
    expect(() => amountToMinorUnits("1.234", 2)).toThrow()
    expect(() => amountToMinorUnits("1,5", 2)).toThrow()
  })
  it("shows the locale separator", () => {
    expect(formatAmountForInput("12.5", ",")).toBe("12,5")
    expect(formatAmountForInput("12.5", ".")).toBe("12.5")
  })
})
