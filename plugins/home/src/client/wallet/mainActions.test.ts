import { describe, expect, it } from "vitest"
import { mainActionAvailability } from "./mainActions.ts"

const now = new Date("2026-11-22T10:00:00Z")

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
