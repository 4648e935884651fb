import { describe, expect, it } from "vitest"
import { formatCryptoAmount, formatFiatValue, formatPercent, formatPrice, shortAddress } from "./format.ts"

const plain = (s: string) => s.replace(/\s/g, " ")

describe("wallet formatting", () => {
  it("cuts crypto amounts without rounding up and keeps them exact", () => {
    expect(formatCryptoAmount("1999.999999999", 9, "TON", "en")).toBe("1,999.999999 TON")
    expect(formatCryptoAmount("0.15", 9, "TON", "en")).toBe("0.15 TON")
    expect(formatCryptoAmount("123456789.123456789012345678", 18, "ETH", "en")).toBe("123,456,789.123456 ETH")
    expect(formatCryptoAmount("-2.5", 6, "USDT", "en")).toBe("-2.5 USDT")
    expect(plain(formatCryptoAmount("2.5", 6, "USDT", "ru"))).toBe("2,5 USDT")
  })

  it("formats fiat values, prices and changes", () => {
    expect(formatFiatValue("12.30", "USD", "en")).toBe("$12.30")
    expect(formatPrice("3.2145", "USD", "en")).toBe("$3.21")
    expect(formatPrice("0.0061234", "EUR", "en")).toBe("€0.006123")
    expect(formatPercent(-1.25, "en")).toBe("-1.25%")
    expect(formatPercent(3, "en")).toBe("+3.00%")
  })

  it("shortens long addresses in the middle", () => {
    expect(shortAddress("UQAbcdefghijklmnopqrstuvwxyz0123456789")).toBe("UQAbcd…456789")
    expect(shortAddress("short")).toBe("short")
  })
})
