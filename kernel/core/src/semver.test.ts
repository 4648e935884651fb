import { describe, expect, it } from "vitest"
import { parseRange, satisfies } from "./semver.ts"

describe("satisfies", () => {
  it.each([
    ["0.1.0", "^0.1.0", true],
    ["0.1.9", "^0.1.0", true],
    ["0.2.0", "^0.1.0", false],
    ["0.0.3", "^0.0.3", true],
    ["0.0.4", "^0.0.3", false],
    ["1.9.9", "^1.2.3", true],
    ["2.0.0", "^1.2.3", false],
    ["1.2.9", "~1.2.3", true],
    ["1.3.0", "~1.2.3", false],
    ["1.9.0", "~1", true],
    ["1.5.0", ">=1.0.0 <2", true],
    ["2.0.0", ">=1.0.0 <2", false],
    ["1.4.2", "1.x", true],
    ["2.0.0", "1.x", false],
    ["3.1.4", "*", true],
    ["0.5.0", "^1.0.0 || ^0.5.0", true],
    ["1.2.3", "1.2.3", true],
    ["1.2.4", "1.2.3", false],
    ["1.2.4", "> 1.2.3", true],
    ["1.0.0-beta.1", "^1.0.0", false],
    ["1.0.0-beta.2", "^1.0.0-beta.1", true],
  ])("%s in %s: %s", (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected)
  })

  it("refuses what is not a range or a version", () => {
    expect(parseRange("^one")).toBeUndefined()
    expect(satisfies("1.0", "^1.0.0")).toBe(false)
  })
})
