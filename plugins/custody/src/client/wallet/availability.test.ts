import { describe, expect, it } from "vitest"
import { actionAvailability, mainActionAvailability } from "./availability.ts"

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

// Moved with the code from the home plugin (issue 14): wallet main's buttons over all assets.
describe("mainActionAvailability", () => {
  it("is available when any asset offers the action", () => {
    expect(mainActionAvailability([{ isEnabled: false }, { isEnabled: true }], true, now)).toEqual({ kind: "available" })
  })

  it("names the earliest scheduled date when none is available yet", () => {
    const result = mainActionAvailability(
      [{ isEnabled: false, scheduledAt: "2026-12-05T00:00:00Z" }, { isEnabled: false }, { isEnabled: true, scheduledAt: "2026-12-01T08:00:00Z" }],
      true,
      now,
    )
    expect(result).toEqual({ kind: "scheduled", at: new Date("2026-12-01T08:00:00Z") })
  })

  it("is never available when no asset enables it and none has a date", () => {
    expect(mainActionAvailability([{ isEnabled: false }, undefined], true, now)).toEqual({ kind: "never" })
    expect(mainActionAvailability([], undefined, now)).toEqual({ kind: "never" })
  })

  it("is restricted when the access flag is off", () => {
    expect(mainActionAvailability([{ isEnabled: true }], false, now)).toEqual({ kind: "restricted" })
  })
})
