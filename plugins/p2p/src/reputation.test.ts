import { describe, expect, it } from "vitest"
import { approxDuration, completionRate, countsInPair, failedPartyOf, PAIR_CAP_ALL_TIME, PAIR_CAP_WINDOW, percentOf } from "./reputation.ts"

describe("reputation rules (issue 21)", () => {
  it("a cancel or a reject counts against whoever made it, never the other side", () => {
    expect(failedPartyOf({ to: "CANCELLED", from: "ACCEPTED", by: "buyer" })).toBe("buyer")
    expect(failedPartyOf({ to: "CANCELLED", from: "ACCEPTED", by: "seller" })).toBe("seller")
    expect(failedPartyOf({ to: "CANCELLED", from: "REQUESTED", by: "buyer" })).toBe("buyer")
    expect(failedPartyOf({ to: "REJECTED", from: "REQUESTED", by: "seller" })).toBe("seller")
  })

  it("an expiry counts against the side whose inaction let it run out", () => {
    // The maker did not accept the request in time.
    expect(failedPartyOf({ to: "EXPIRED", from: "REQUESTED", by: null })).toBe("maker")
    // The buyer did not pay in time.
    expect(failedPartyOf({ to: "EXPIRED", from: "ACCEPTED", by: null })).toBe("buyer")
  })

  it("support's decision counts against the side it went against; a split and a trade against nobody", () => {
    expect(failedPartyOf({ to: "COMPLETED", from: "IN_APPEAL", by: null, outcome: "BUYER" })).toBe("seller")
    expect(failedPartyOf({ to: "CANCELLED", from: "IN_APPEAL", by: null, outcome: "SELLER" })).toBe("buyer")
    expect(failedPartyOf({ to: "COMPLETED", from: "IN_APPEAL", by: null, outcome: "SPLIT" })).toBeNull()
    expect(failedPartyOf({ to: "COMPLETED", from: "PAID", by: "seller" })).toBeNull()
    expect(failedPartyOf({ to: "PAID", from: "ACCEPTED", by: "buyer" })).toBeNull()
    expect(failedPartyOf({ to: "IN_APPEAL", from: "PAID", by: "buyer" })).toBeNull()
  })

  it("the completion rate is completed / (completed + failed), rounded down; null before any closed order", () => {
    expect(completionRate(0, 0)).toBeNull()
    expect(completionRate(3, 0)).toBe(100)
    expect(completionRate(0, 2)).toBe(0)
    expect(completionRate(2, 1)).toBe(66)
    expect(completionRate(199, 1)).toBe(99)
    expect(percentOf(1, 3)).toBe(33)
  })

  it("only the first orders of a pair count: 10 all time, 3 in the window", () => {
    expect([1, PAIR_CAP_ALL_TIME, PAIR_CAP_ALL_TIME + 1].map((n) => countsInPair(n, false))).toEqual([true, true, false])
    expect([1, PAIR_CAP_WINDOW, PAIR_CAP_WINDOW + 1].map((n) => countsInPair(n, true))).toEqual([true, true, false])
    expect(countsInPair(0, false)).toBe(false)
  })

  it("times read as under a minute, ~ minutes up to two hours, then ~ hours", () => {
    expect(approxDuration(0)).toEqual({ unit: "underMinute" })
    expect(approxDuration(59)).toEqual({ unit: "underMinute" })
    expect(approxDuration(60)).toEqual({ unit: "minutes", count: 1 })
    expect(approxDuration(150)).toEqual({ unit: "minutes", count: 3 })
    expect(approxDuration(119 * 60)).toEqual({ unit: "minutes", count: 119 })
    expect(approxDuration(5 * 3600 + 100)).toEqual({ unit: "hours", count: 5 })
  })
})
