import { describe, expect, it } from "vitest"
import { actionAvailability } from "./availability.ts"

const now = new Date("2026-11-22T10:00:00Z")

describe("actionAvailability", () => {
  it("is available when enabled and the access flag is on", () => {
    expect(actionAvailability({ isEnabled: true }, true, now)).toEqual({ kind: "available" })
    expect(actionAvailability({ isEnabled: true, scheduledAt: null }, undefined, now)).toEqual({ kind: "available" })
  })

  it("is scheduled with its date while scheduledAt is in the future, whatever isEnabled says", () => {
    const result = actionAvailability({ isEnabled: false, scheduledAt: "2026-12-01T09:30:00Z" }, true, now)
    expect(result).toEqual({ kind: "scheduled", at: new Date("2026-12-01T09:30:00Z") })
    expect(actionAvailability({ isEnabled: true, scheduledAt: "2026-12-01T09:30:00Z" }, true, now).kind).toBe("scheduled")
  })

  it("falls back to isEnabled once the scheduled date has passed", () => {
    expect(actionAvailability({ isEnabled: true, scheduledAt: "2026-11-01T00:00:00Z" }, true, now).kind).toBe("available")
    expect(actionAvailability({ isEnabled: false, scheduledAt: "2026-11-01T00:00:00Z" }, true, now).kind).toBe("never")
  })

  it("is never available when not enabled without a date, or not listed at all", () => {
    expect(actionAvailability({ isEnabled: false }, true, now)).toEqual({ kind: "never" })
    expect(actionAvailability(undefined, true, now)).toEqual({ kind: "never" })
  })

  it("is restricted when the access flag is off, before anything else", () => {
    expect(actionAvailability({ isEnabled: true }, false, now)).toEqual({ kind: "restricted" })
    expect(actionAvailability({ isEnabled: false, scheduledAt: "2026-12-01T09:30:00Z" }, false, now)).toEqual({ kind: "restricted" })
  })

  it("ignores an unreadable scheduledAt", () => {
    expect(actionAvailability({ isEnabled: true, scheduledAt: "soon" }, true, now)).toEqual({ kind: "available" })
  })
})
