import { describe, expect, it } from "vitest"
import { assetActionAvailability } from "./availability.ts"

const now = new Date("2026-11-22T10:00:00Z")
const action = (isEnabled: boolean, scheduledAt: string | null = null) => ({ isEnabled, isPopular: false, scheduledAt })

describe("assetActionAvailability", () => {
  it("follows the flag, then the date, then isEnabled", () => {
    expect(assetActionAvailability(action(true), false, now)).toEqual({ kind: "restricted" })
    expect(assetActionAvailability(action(false, "2026-12-01T12:00:00Z"), true, now)).toEqual({ kind: "scheduled", at: new Date("2026-12-01T12:00:00Z") })
    expect(assetActionAvailability(action(true, "2026-11-01T12:00:00Z"), true, now)).toEqual({ kind: "available" })
    expect(assetActionAvailability(action(false), undefined, now)).toEqual({ kind: "never" })
    expect(assetActionAvailability(undefined, true, now)).toEqual({ kind: "never" })
  })
})
