import { describe, expect, it } from "vitest"
import { canChangeVersion, isV5BetaShown, listedWalletClasses } from "./versions.ts"

describe("v5 beta rule (spec 2 §3)", () => {
  it("shows the v5 beta only with a TON balance above 0", () => {
    expect(isV5BetaShown(undefined)).toBe(false)
    expect(isV5BetaShown(0n)).toBe(false)
    expect(isV5BetaShown(1n)).toBe(true)
  })

  it("lists W5 and v4R2 for a W5 wallet, and the v5 beta only once it holds TON", () => {
    expect(listedWalletClasses("v5r1", undefined)).toEqual(["v5r1", "v4r2"])
    expect(listedWalletClasses("v5r1", 0n)).toEqual(["v5r1", "v4r2"])
    expect(listedWalletClasses("v5r1", 1_000_000_000n)).toEqual(["v5r1", "v5beta", "v4r2"])
    expect(listedWalletClasses("v4r2", 5n)).toEqual(["v5r1", "v5beta", "v4r2"])
  })

  it("keeps the current v5 beta listed even when it is empty", () => {
    expect(listedWalletClasses("v5beta", 0n)).toEqual(["v5r1", "v5beta", "v4r2"])
  })
})

describe("version change (spec 2 §3)", () => {
  it("is allowed for the default class, the v5 beta and v4R2 only", () => {
    expect(canChangeVersion("v5r1")).toBe(true)
    expect(canChangeVersion("v5beta")).toBe(true)
    expect(canChangeVersion("v4r2")).toBe(true)
    expect(canChangeVersion("v3r2")).toBe(false)
    expect(canChangeVersion("v3r1")).toBe(false)
  })

  it("lists only the current version of a wallet that may not change", () => {
    expect(listedWalletClasses("v3r2", 10n)).toEqual(["v3r2"])
    expect(listedWalletClasses("v3r1", undefined)).toEqual(["v3r1"])
  })
})
