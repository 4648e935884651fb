import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, bundleKeys } from "@wallet/kernel"
import en from "../../i18n/send.en.json"
import ru from "../../i18n/send.ru.json"

/** Leaf keys, plural suffixes folded (ru has _few/_many where en has none). */
const keys = (node: unknown): Set<string> => new Set(bundleKeys(node).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, "")))

describe("send strings", () => {
  it("en and ru have the same keys, all under send.", () => {
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
    expect(Object.keys(en)).toEqual(["send"])
  })
  it("every address error code and QR error type has a text", () => {
    const all = keys(en)
    for (const code of ["invalid_domain", "invalid_length", "yourself", "address_forbidden", "invalid_web3_domain", "invalid_address"]) {
      expect(all.has(`send.address.error.${code}`)).toBe(true)
    }
    for (const type of ["default", "unsupported_currency", "no_asset"]) expect(all.has(`send.qr.error.${type}`)).toBe(true)
  })
})
