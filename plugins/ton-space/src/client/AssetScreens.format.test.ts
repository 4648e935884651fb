import { describe, expect, it } from "vitest"
import { fiatText } from "./AssetScreens.format.ts"

const NANOS = 1_000_000_000n

describe("TON space asset pages' money (spec 2 §9: bn, hi and ar formatted as en)", () => {
  it("an Arabic user sees the fiat's symbol as an English user does, not the Arabic one", () => {
    expect(fiatText(12n * NANOS + 340_000_000n, "AED", "ar")).toBe(fiatText(12n * NANOS + 340_000_000n, "AED", "en"))
    expect(fiatText(12n * NANOS + 340_000_000n, "AED", "ar")).toBe("AED12.34")
  })

  it("bn and hi read as en too; other languages keep their own symbols", () => {
    for (const language of ["bn", "hi", "hi-IN", "bn_BD"]) expect(fiatText(-5n * NANOS, "USD", language)).toBe(fiatText(-5n * NANOS, "USD", "en"))
    expect(fiatText(NANOS, "USD", "en")).toBe("$1.00")
  })
})
