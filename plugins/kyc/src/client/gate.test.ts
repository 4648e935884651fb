import { QueryClient } from "@tanstack/react-query"
import { describe, expect, it } from "vitest"
import type { VerificationStatus } from "../api.ts"
import { statusKey } from "./client.ts"
import { gateTarget, KYC_STATUS_REQUIRED, requireKycStatus, sendsToBlocked } from "./gate.ts"

const status = (level: VerificationStatus["level"], bypassBlockedScreen = false, edd: VerificationStatus["edd"] = null) =>
  ({ level, bypassBlockedScreen, edd }) as VerificationStatus

describe("the blocked-screen gate (spec 3 §4.2, §6)", () => {
  it("a consumer that reads the status before it was loaded gets the spec's error", () => {
    const client = new QueryClient()
    expect(() => requireKycStatus(client)).toThrow(KYC_STATUS_REQUIRED)
    client.setQueryData(statusKey, status("LEVEL_1"))
    expect(requireKycStatus(client).level).toBe("LEVEL_1")
  })

  it("sends a blocked user to the blocked screen from any screen but verification and settings, unless staff let them past", () => {
    expect(sendsToBlocked(status("BLOCKED"), "/main")).toBe(true)
    expect(sendsToBlocked(status("BLOCKED"), "/scw")).toBe(true)
    expect(sendsToBlocked(status("BLOCKED"), "/kyc/blocked")).toBe(false)
    expect(sendsToBlocked(status("BLOCKED"), "/kyc/main")).toBe(false)
    expect(sendsToBlocked(status("BLOCKED"), "/settings/language")).toBe(false)
    expect(sendsToBlocked(status("BLOCKED", true), "/main")).toBe(false)
    expect(sendsToBlocked(status("LEVEL_0"), "/main")).toBe(false)
  })

  it("an account held for evidence (EDD) goes to the hold's screen until staff accept the evidence", () => {
    const held = (state: "requested" | "submitted" | "approved" | "rejected", blocking = true) =>
      status("LEVEL_1", false, { status: state, blocking, groups: ["sow"] })
    expect(gateTarget(held("requested"), "/main")).toBe("/kyc/edd-blocked")
    expect(gateTarget(held("submitted"), "/main")).toBe("/kyc/edd-blocked")
    expect(gateTarget(held("requested"), "/kyc/edd")).toBeUndefined()
    expect(gateTarget(held("approved"), "/main")).toBeUndefined()
    expect(gateTarget(held("requested", false), "/main")).toBeUndefined()
  })
})
