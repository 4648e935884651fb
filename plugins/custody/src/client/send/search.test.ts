import { decodeSearch } from "@wallet/kernel"
import { describe, expect, it } from "vitest"
import { SendSearch } from "../../routes.ts"
import { qrFallbackSearch } from "./search.ts"

const decode = (raw: unknown): Record<string, unknown> => decodeSearch(SendSearch, raw)

describe("send search params", () => {
  it("drops wrong-typed values and unknown networks instead of failing", () => {
    expect(decode({ assetCurrency: "TON", assetNetwork: "dogechain", qr: "yes", value: 1.5 })).toEqual({ assetCurrency: "TON", value: "1.5" })
    expect(decode({ assetNetwork: "tron", qr: "true", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" })).toEqual({
      assetNetwork: "tron",
      qr: true,
      address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    })
  })
})

describe("failed QR withdraw (spec 1 §4)", () => {
  it("with an amount: the manual form, prefilled, no longer a QR", () => {
    expect(qrFallbackSearch({ qr: true, value: "1.5", assetCurrency: "TON", assetNetwork: "ton", address: "EQx", comment: "hi" })).toEqual({
      value: "1.5",
      assetCurrency: "TON",
      assetNetwork: "ton",
      address: "EQx",
      comment: "hi",
    })
  })
  it("without an amount, or not from a QR: no fallback", () => {
    expect(qrFallbackSearch({ qr: true, assetCurrency: "TON", address: "EQx" })).toBeUndefined()
    expect(qrFallbackSearch({ value: "1", assetCurrency: "TON", address: "EQx" })).toBeUndefined()
  })
})
