import { describe, expect, it } from "vitest"
import {
  amountProblem,
  daysLeft,
  formatAmount,
  mapGenericStatus,
  mapTransferStatus,
  maxAmount,
  pushRecent,
  toMinor,
  transferExpiresAt,
  transferView,
} from "./logic.ts"

describe("status mapping (spec 1 §4)", () => {
  it.each([
    ["new", "pending"],
    ["success", "accepted"],
    ["accepted", "accepted"],
    ["canceled", "rejected"],
    ["rejected", "rejected"],
    ["expired", "failed"],
    ["fail", "failed"],
    ["", "failed"],
  ])("custody transfer %s -> %s", (raw, shown) => {
    expect(mapTransferStatus(raw)).toBe(shown)
  })
  it.each([
    ["pending", "pending"],
    ["processing", "pending"],
    ["success", "accepted"],
    ["canceled", "rejected"],
    ["rejected", "failed"],
    ["fail", "failed"],
  ])("generic %s -> %s", (raw, shown) => {
    expect(mapGenericStatus(raw)).toBe(shown)
  })
})

describe("transfer expiry and page by role", () => {
  it("expires 14 days after creation", () => {
    expect(transferExpiresAt("2026-01-01T00:00:00.000Z").toISOString()).toBe("2026-01-15T00:00:00.000Z")
  })
  it("counts whole days left, rounded up, zero once expired", () => {
    const created = "2026-01-01T00:00:00.000Z"
    expect(daysLeft(created, new Date("2026-01-01T00:00:01.000Z"))).toBe(14)
    expect(daysLeft(created, new Date("2026-01-14T12:00:00.000Z"))).toBe(1)
    expect(daysLeft(created, new Date("2026-01-15T00:00:00.000Z"))).toBe(0)
    expect(daysLeft(created, new Date("2026-02-01T00:00:00.000Z"))).toBe(0)
  })
  it("receiver accepts, sender cancels, without custody the transaction page", () => {
    expect(transferView({ role: "receiver", custody: true, status: "pending" })).toBe("accept")
    expect(transferView({ role: "sender", custody: true, status: "pending" })).toBe("cancel")
    expect(transferView({ role: "receiver", custody: false, status: "pending" })).toBe("transaction")
    expect(transferView({ role: "sender", custody: true, status: "accepted" })).toBe("transaction")
    expect(transferView({ role: "receiver", custody: true, status: "rejected" })).toBe("transaction")
  })
})

describe("recent receivers", () => {
  it("keeps at most two, newest first, without duplicates", () => {
    let list: ReadonlyArray<{ id: number }> = []
    list = pushRecent(list, { id: 1 })
    list = pushRecent(list, { id: 2 })
    list = pushRecent(list, { id: 3 })
    expect(list.map((r) => r.id)).toEqual([3, 2])
    list = pushRecent(list, { id: 2 })
    expect(list.map((r) => r.id)).toEqual([2, 3])
  })
})

describe("amount rules", () => {
  const limits = { decimals: 9, balance: 10_000_000_000n, fee: 50_000_000n, min: 10_000_000n, max: 5_000_000_000n }
  it("parses decimals exactly to minor units", () => {
    expect(toMinor("1.5", 9)).toBe(1_500_000_000n)
    expect(toMinor("0.000001", 6)).toBe(1n)
    expect(toMinor("0.0000001", 6)).toBeUndefined()
    expect(toMinor("1e3", 6)).toBeUndefined()
    expect(toMinor("", 6)).toBeUndefined()
  })
  it("names the first broken rule", () => {
    expect(amountProblem("", limits)).toBe("empty")
    expect(amountProblem("0", limits)).toBe("zero")
    expect(amountProblem("0.001", limits)).toBe("too_small")
    expect(amountProblem("6", limits)).toBe("too_large")
    expect(amountProblem("4", limits)).toBeUndefined()
    expect(amountProblem("4", { ...limits, balance: 4_000_000_000n })).toBe("insufficient")
    expect(amountProblem("3.95", { ...limits, balance: 4_000_000_000n })).toBeUndefined()
  })
  it("max is the balance minus the fee, capped by the maximum, never negative", () => {
    expect(maxAmount({ decimals: 9, balance: 1_000_000_000n, fee: 50_000_000n })).toBe(950_000_000n)
    expect(maxAmount(limits)).toBe(5_000_000_000n)
    expect(maxAmount({ decimals: 9, balance: 10n, fee: 50n })).toBe(0n)
  })
  it("formats with grouping and the language's separator, no float rounding", () => {
    expect(formatAmount(1_234_567_890_123_456_789n, 9, "TON", "en")).toBe("1,234,567,890.123456789\u00a0TON")
    expect(formatAmount(1_500_000n, 6, "USDT", "ru")).toBe("1,5\u00a0USDT")
    expect(formatAmount(0n, 6, "USDT", "en")).toBe("0\u00a0USDT")
  })
})
