import { describe, expect, it } from "vitest"
import { scannedAddress } from "./scan.ts"

const FRIENDLY = "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG"
const RAW = `0:${"a".repeat(64)}`

describe("the TON side's QR scan", () => {
  it("reads an address, raw or friendly, bare or in a ton://transfer link", () => {
    expect(scannedAddress(FRIENDLY)).toBe(FRIENDLY)
    expect(scannedAddress(` ${RAW} `)).toBe(RAW)
    expect(scannedAddress(`ton://transfer/${FRIENDLY}?amount=1000`)).toBe(FRIENDLY)
    expect(scannedAddress("https://example.org")).toBeUndefined()
    expect(scannedAddress("tc://?v=2&id=abc")).toBeUndefined()
  })
})
