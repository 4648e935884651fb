import { describe, expect, it } from "vitest"
import enBundle from "../../i18n/wallet.en.json" with { type: "json" }
import ruBundle from "../../i18n/wallet.ru.json" with { type: "json" }
import { gatewayLabelKey, GATEWAYS, mapStatus, mapTransferStatus, rowAppearance } from "./status.ts"

describe("status mapping (spec 1 §4)", () => {
  it("maps generic statuses", () => {
    expect(["pending", "success", "canceled", "fail", "processing", "weird"].map(mapStatus)).toEqual([
      "pending",
      "accepted",
      "rejected",
      "failed",
      "failed",
      "failed",
    ])
  })

  it("maps custody transfer statuses", () => {
    expect(["new", "success", "accepted", "canceled", "rejected", "expired"].map(mapTransferStatus)).toEqual([
      "pending",
      "accepted",
      "accepted",
      "rejected",
      "rejected",
      "failed",
    ])
  })
})

describe("row appearance (spec 1 §4)", () => {
  it("applies the rules in order", () => {
    expect(rowAppearance({ status: "fail", type: "withdraw", gateway: "crypto_exchange" })).toBe("default")
    expect(rowAppearance({ status: "fail", type: "withdraw", gateway: "p2p_order" })).toBe("canceled")
    expect(rowAppearance({ status: "fail", type: "deposit", gateway: "p2p_order" })).toBe("error")
    expect(rowAppearance({ status: "fail", type: "withdraw", gateway: "withdraw_onchain" })).toBe("error")
    expect(rowAppearance({ status: "pending", type: "deposit", gateway: "top_up" })).toBe("muted")
    expect(rowAppearance({ status: "canceled", type: "deposit", gateway: "tg_transfer" })).toBe("canceled")
    expect(rowAppearance({ status: "success", type: "deposit", gateway: "top_up" })).toBe("success")
    expect(rowAppearance({ status: "new", type: "withdraw", gateway: "tg_transfer" })).toBe("muted")
    expect(rowAppearance({ status: "success", type: "withdraw", gateway: "withdraw_onchain" })).toBe("default")
  })
})

describe("gateway labels", () => {
  const lookup = (bundle: unknown, key: string) => key.split(".").reduce<any>((node, part) => node?.[part], bundle)
  it("has a label for every gateway, in English and Russian", () => {
    for (const gateway of GATEWAYS) {
      const key = gatewayLabelKey(gateway)
      expect(key).toBe(`gateway.${gateway}`)
      expect(typeof lookup(enBundle, key), `en ${key}`).toBe("string")
      expect(typeof lookup(ruBundle, key), `ru ${key}`).toBe("string")
      expect(lookup(ruBundle, key)).not.toBe(lookup(enBundle, key))
    }
    expect(gatewayLabelKey("something_new")).toBe("gateway.unknown")
  })
})
