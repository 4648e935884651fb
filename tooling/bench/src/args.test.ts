import { describe, expect, it } from "vitest"
import { parseBenchArgs } from "./args.mjs"

const files = ["app-size.ts", "first-load.ts", "ledger.ts", "ledger-http.ts"]

describe("npm run bench arguments", () => {
  it("runs every suite without arguments, and the named ones by file-name prefix", () => {
    expect(parseBenchArgs([], files)).toEqual({ suites: files, flags: [], unknown: [] })
    expect(parseBenchArgs(["app-size"], files)).toEqual({ suites: ["app-size.ts"], flags: [], unknown: [] })
    expect(parseBenchArgs(["ledger"], files).suites).toEqual(["ledger.ts", "ledger-http.ts"])
  })

  it("passes the flags after the suite names to the suite instead of taking them for suite names (issue 17)", () => {
    expect(parseBenchArgs(["first-load", "--runs", "3", "--no-throttle", "--json"], files)).toEqual({
      suites: ["first-load.ts"],
      flags: ["--runs", "3", "--no-throttle", "--json"],
      unknown: [],
    })
    expect(parseBenchArgs(["app-size", "--modules"], files)).toEqual({ suites: ["app-size.ts"], flags: ["--modules"], unknown: [] })
  })

  it("reports a name no suite starts with", () => {
    expect(parseBenchArgs(["first-lod", "--json"], files)).toEqual({ suites: [], flags: ["--json"], unknown: ["first-lod"] })
  })
})
