import { describe, expect, it } from "vitest"
import { decimalSign, formatCrypto, formatFiat, formatFiatAmount, formatFiatDecimal, formatPercentChange, minorToDecimal } from "./format.ts"

const plain = (s: string) => s.replace(/\s/g, " ")

describe("money formatting", () => {
  it("scales fiat minor units by the currency's digits, exactly", () => {
    expect(formatFiat(123456n, "USD", "en")).toBe("$1,234.56")
    expect(formatFiat(1234n, "JPY", "en")).toBe("¥1,234")
    expect(formatFiat(900719925474099312n, "USD", "en")).toBe("$9,007,199,254,740,993.12")
    expect(plain(formatFiat(0n, "EUR", "ru"))).toBe("0,00 €")
    expect(formatFiat(-5n, "USD", "en")).toBe("-$0.05")
  })

  it("turns minor units into a decimal string", () => {
    expect(minorToDecimal(1_000_000_001n, 9)).toBe("1.000000001")
    expect(minorToDecimal(-42n, 2)).toBe("-0.42")
    expect(minorToDecimal(7n, 0)).toBe("7")
  })

  it("shows crypto amounts cut (never rounded up) to six digits, without trailing zeros", () => {
    expect(formatCrypto(1_999_999_999_999n, 9, "TON", "en")).toBe("1,999.999999 TON")
    expect(formatCrypto(150_000_000n, 9, "TON", "en")).toBe("0.15 TON")
    expect(formatCrypto(123_456_789_012_345_678_901n, 18, "ETH", "en")).toBe("123.456789 ETH")
    expect(plain(formatCrypto(2_500_000n, 6, "USDT", "ru"))).toBe("2,5 USDT")
  })

  it("formats prices and 24h changes from decimal strings", () => {
    expect(formatFiatDecimal("3.2145", "USD", "en")).toBe("$3.21")
    expect(formatFiatDecimal("0.0061234", "USD", "en")).toBe("$0.006123")
    expect(formatPercentChange(5.23, "en")).toBe("+5.23%")
    expect(formatPercentChange(-10, "en")).toBe("-10.00%")
    expect(formatPercentChange(0, "en")).toBe("0.00%")
    expect(plain(formatPercentChange(-0.4, "ru"))).toBe("-0,40 %")
    expect(formatFiatAmount("12.30", "USD", "en")).toBe("$12.30")
    expect(formatFiatAmount("1500", "JPY", "en")).toBe("¥1,500")
    expect(decimalSign("-0.01")).toBe(-1)
    expect(decimalSign("0.00")).toBe(0)
    expect(decimalSign("12")).toBe(1)
  })
})
