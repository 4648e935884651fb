import { describe, expect, it } from "vitest"
import { accountAgeDays, DEFAULT_TRUSTED_MERCHANT, evaluateCriteria, levelNumber, mayApply, readTrustedMerchantRules, recentStats } from "./merchantRules.ts"

const DAY = 86_400_000
const rules = DEFAULT_TRUSTED_MERCHANT
const good = { level: 2, completedOrders30d: 20, completionRatePercent: 90, accountAgeDays: 30 }

describe("trusted-merchant criteria (issue 21)", () => {
  it("are met exactly at each threshold and not one below", () => {
    expect(evaluateCriteria(good, rules).every((c) => c.met)).toBe(true)
    const below = evaluateCriteria({ level: 1, completedOrders30d: 19, completionRatePercent: 89, accountAgeDays: 29 }, rules)
    expect(below.map((c) => [c.id, c.met, c.value, c.required])).toEqual([
      ["verification", false, 1, 2],
      ["orders30d", false, 19, 20],
      ["completionRate", false, 89, 90],
      ["accountAge", false, 29, 30],
    ])
  })

  it("treat a blocked level and a missing rate as not met, unless no rate is required", () => {
    expect(evaluateCriteria({ ...good, level: null }, rules)[0]!.met).toBe(false)
    expect(evaluateCriteria({ ...good, completionRatePercent: null }, rules)[2]).toMatchObject({ met: false, value: null })
    expect(evaluateCriteria({ ...good, completionRatePercent: null }, { ...rules, minCompletionRatePercent: 0 })[2]!.met).toBe(true)
  })

  it("read the level names of the verification port", () => {
    expect([levelNumber("LEVEL_0"), levelNumber("LEVEL_3"), levelNumber("none"), levelNumber("BLOCKED"), levelNumber("LEVEL_X")]).toEqual([0, 3, 0, null, null])
  })

  it("use the 30-day stats when present, else the all-time ones", () => {
    expect(recentStats({ completedOrders: 50, completionRate: 80, completedOrders30d: 5, completionRate30d: null })).toEqual({
      completedOrders30d: 5,
      completionRatePercent: null,
    })
    expect(recentStats({ completedOrders: 50, completionRate: 80 })).toEqual({ completedOrders30d: 50, completionRatePercent: 80 })
  })

  it("let a user apply only with nothing pending or approved and the cooldown over", () => {
    const met = evaluateCriteria(good, rules)
    const now = Date.UTC(2026, 0, 20)
    expect(mayApply(met, null, rules, now)).toBe("ok")
    expect(mayApply(evaluateCriteria({ ...good, level: 1 }, rules), null, rules, now)).toBe("criteria_not_met")
    expect(mayApply(met, { status: "PENDING", decidedAt: null }, rules, now)).toBe("exists")
    expect(mayApply(met, { status: "APPROVED", decidedAt: new Date(now - 100 * DAY) }, rules, now)).toBe("exists")
    expect(mayApply(met, { status: "REJECTED", decidedAt: new Date(now - 13 * DAY) }, rules, now)).toBe("cooldown")
    expect(mayApply(met, { status: "REVOKED", decidedAt: new Date(now - 14 * DAY) }, rules, now)).toBe("ok")
  })

  it("read the region's thresholds, keeping the defaults for missing or invalid values", () => {
    expect(readTrustedMerchantRules(undefined)).toEqual(rules)
    expect(readTrustedMerchantRules({ minCompletedOrders30d: 0, minAccountAgeDays: -1, minCompletionRatePercent: 101, minLevel: "3" })).toEqual({
      ...rules,
      minCompletedOrders30d: 0,
    })
  })

  it("count whole days of account age", () => {
    const created = new Date(Date.UTC(2026, 0, 1))
    expect(accountAgeDays(created, created.getTime() + 30 * DAY - 1)).toBe(29)
    expect(accountAgeDays(created, created.getTime() + 30 * DAY)).toBe(30)
  })
})
