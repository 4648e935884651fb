import { describe, expect, it } from "vitest"
import type { MerchantStatus } from "../api.ts"
import { applicationKey, cooldownOver, criterionText, deliveryFor, merchantErrorKey } from "./merchantView.ts"

const status = (application: MerchantStatus["application"]): MerchantStatus => ({ trustedMerchant: false, criteria: [], canApply: false, application })

describe("trusted-merchant and export screens (issue 21)", () => {
  it("explain their own refusals under merchant.errors and the market's as the market does", () => {
    expect(merchantErrorKey("merchant_cooldown")).toBe("merchant.errors.merchant_cooldown")
    expect(merchantErrorKey("export_rate_limited")).toBe("merchant.errors.export_rate_limited")
    expect(merchantErrorKey("p2p_unavailable")).toBe("market.errors.p2p_unavailable")
    expect(merchantErrorKey(undefined)).toBe("market.errors.generic")
  })

  it("download through Telegram when the client can, else send the link to the chat", () => {
    expect(deliveryFor(true)).toBe("download")
    expect(deliveryFor(false)).toBe("message")
  })

  it("say 'none yet' for a criterion without a value", () => {
    expect(criterionText({ id: "completionRate", met: false, value: null, required: 90 })).toEqual({
      title: "merchant.criteria.completionRate.title",
      value: "merchant.criteria.completionRate.none",
    })
    expect(criterionText({ id: "orders30d", met: true, value: 25, required: 20 }).value).toBe("merchant.criteria.orders30d.value")
  })

  it("name the application's status and know when the waiting time is over", () => {
    expect(applicationKey(status(null))).toBeNull()
    const rejected = status({
      id: 1,
      status: "REJECTED",
      reason: "x",
      createdAt: "2026-01-01T00:00:00Z",
      decidedAt: "2026-01-02T00:00:00Z",
      reapplyAt: "2026-01-16T00:00:00Z",
    })
    expect(applicationKey(rejected)).toBe("merchant.status.REJECTED")
    expect(cooldownOver(rejected.application, Date.parse("2026-01-15T23:59:59Z"))).toBe(false)
    expect(cooldownOver(rejected.application, Date.parse("2026-01-16T00:00:00Z"))).toBe(true)
    expect(cooldownOver(null, 0)).toBe(true)
  })
})
