import { describe, expect, it } from "vitest"
import { limitOf, nextLevelOf } from "./limits.ts"

describe("verification allowances (decision 0920)", () => {
  it("each level's 30-day limit in US cents: outside withdrawals and P2P", () => {
    expect(limitOf("LEVEL_0", "withdraw_outer")).toBe(100_000)
    expect(limitOf("LEVEL_0", "p2p")).toBe(0)
    expect(limitOf("LEVEL_2", "withdraw_outer")).toBe(10_000_000)
    expect(limitOf("LEVEL_3", "withdraw_outer")).toBeNull()
    expect(limitOf("LEVEL_4", "p2p")).toBeNull()
  })

  it("names the next level that allows more, for the refusal", () => {
    expect(nextLevelOf("LEVEL_0", "withdraw_outer")).toBe("LEVEL_1")
    expect(nextLevelOf("LEVEL_2", "withdraw_outer")).toBe("LEVEL_3")
    expect(nextLevelOf("LEVEL_3", "withdraw_outer")).toBeNull()
    expect(nextLevelOf("LEVEL_3", "p2p")).toBe("LEVEL_4")
  })
})
