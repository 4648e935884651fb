import { describe, expect, it } from "vitest"
import { formatFiat } from "./MainScreen.tsx"

describe("formatFiat", () => {
  it("scales minor units by the currency's digits, exactly", () => {
    expect(formatFiat(123456n, "USD", "en")).toBe("$1,234.56")
    expect(formatFiat(1234n, "JPY", "en")).toBe("¥1,234")
    expect(formatFiat(900719925474099312n, "USD", "en")).toBe("$9,007,199,254,740,993.12")
    expect(formatFiat(0n, "EUR", "ru").replace(/\s/g, " ")).toBe("0,00 €")
  })
})
