import { describe, expect, it } from "vitest"
import { fromBase64Url, fromHex, toBase64, toBase64Url, toHex } from "./bytes.ts"

describe("byte helpers (decision 0130)", () => {
  const bytes = Uint8Array.from([0, 1, 127, 128, 250, 251, 255])

  it("hex round-trips and refuses odd or non-hex text", () => {
    expect(toHex(bytes)).toBe("00017f80fafbff")
    expect([...fromHex("00017F80fafbff")]).toEqual([...bytes])
    expect(() => fromHex("abc")).toThrow("not hex")
    expect(() => fromHex("zz")).toThrow("not hex")
  })

  it("base64 and base64url round-trip; both decode through one reader", () => {
    expect(toBase64(bytes)).toBe("AAF/gPr7/w==")
    expect(toBase64Url(bytes)).toBe("AAF_gPr7_w")
    expect([...fromBase64Url("AAF_gPr7_w")]).toEqual([...bytes])
    expect([...fromBase64Url("AAF/gPr7/w==")]).toEqual([...bytes])
    expect(() => fromBase64Url("a b")).toThrow("not base64url")
  })
})
