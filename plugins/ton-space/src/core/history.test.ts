import { describe, expect, it } from "vitest"
import { isHiddenEvent } from "./history.ts"
import { formatAmount, formatDisplay, parseAmount } from "./amount.ts"
import { shortAddress } from "./address.ts"

const a = (type: string) => ({ type, status: "ok" as const, simple_preview: { name: "", description: "", accounts: [] }, base_transactions: [] })

describe("history and display rules", () => {
  it("hides events in progress and a lone Unknown action", () => {
    expect(isHiddenEvent({ in_progress: true, actions: [a("TonTransfer")] })).toBe(true)
    expect(isHiddenEvent({ in_progress: false, actions: [a("Unknown")] })).toBe(true)
    expect(isHiddenEvent({ in_progress: false, actions: [a("Unknown"), a("Unknown")] })).toBe(false)
    expect(isHiddenEvent({ in_progress: false, actions: [a("TonTransfer")] })).toBe(false)
  })
  it("short address: 6 characters or fewer in full, else 2 + … + 4", () => {
    expect(shortAddress("abcdef")).toBe("abcdef")
    expect(shortAddress("UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG")).toBe("UQ…ggGG")
  })
  it("amounts truncate, never round, and stay exact", () => {
    expect(parseAmount("1.9999999999", 9)).toBe(1_999_999_999n)
    expect(parseAmount("0,5", 9)).toBe(500_000_000n)
    expect(parseAmount("abc", 9)).toBeNull()
    expect(parseAmount("", 9)).toBeNull()
    expect(formatAmount(1_999_999_999n, 9, 2)).toBe("1.99")
    expect(formatAmount(12_345_000_000_000n, 9)).toBe("12 345")
    expect(formatDisplay(1_234_567_891n, 9)).toBe("1.23456")
    expect(formatDisplay(1n, 9)).toBe("0.000000001")
  })
})
