import { describe, expect, it } from "vitest"
import { BOTTOM_BUTTON_TEXT_MAX, cutBottomButtonText } from "./bottomButtonText.ts"

describe("cutBottomButtonText", () => {
  it("caps at 64 characters (spec)", () => {
    expect(BOTTOM_BUTTON_TEXT_MAX).toBe(64)
    const long = "a".repeat(100)
    expect(cutBottomButtonText(long)).toBe("a".repeat(64))
    expect(cutBottomButtonText("a".repeat(64))).toBe("a".repeat(64))
    expect(cutBottomButtonText("Send 10 TON")).toBe("Send 10 TON")
  })

  it("never splits an emoji", () => {
    const text = `${"a".repeat(63)}💎 more` // the gem is two UTF-16 units at 63..64
    const cut = cutBottomButtonText(text)
    expect(cut).toBe("a".repeat(63))
    expect(cut.length).toBeLessThanOrEqual(64)
    const family = "👨‍👩‍👧"
    const cut2 = cutBottomButtonText(`${"b".repeat(60)}${family}xyz`)
    expect(cut2).toBe("b".repeat(60)) // the whole cluster does not fit, none of it is kept
  })

  it("can end with an ellipsis within the cap", () => {
    const cut = cutBottomButtonText("word ".repeat(20), { ellipsis: true })
    expect(cut.length).toBeLessThanOrEqual(64)
    expect(cut.endsWith("…")).toBe(true)
  })
})
