import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, bundleKeys as keys } from "@wallet/kernel"
import en from "../../i18n/wallet.en.json" with { type: "json" }
import ru from "../../i18n/wallet.ru.json" with { type: "json" }

describe("wallet strings", () => {
  it("has the same keys in English and Russian, none prefixed 'send.'", () => {
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
    expect(keys(en).filter((k) => k.startsWith("send."))).toEqual([])
  })

  it("explains FR_1, FR_3 and FR_4 in texts that fit a Telegram popup", () => {
    for (const bundle of [en, ru]) {
      for (const reason of ["FR_1", "FR_3", "FR_4"] as const) {
        const text = bundle.frozen.reasons[reason]
        expect(text.title.length).toBeLessThanOrEqual(64)
        expect(text.text.length).toBeGreaterThan(40)
        expect(text.text.length).toBeLessThanOrEqual(256)
      }
    }
  })

  it("translates every string (no English left in the Russian file)", () => {
    const enValues = new Map(keys(en).map((k) => [k, k.split(".").reduce<any>((n, p) => n[p], en)]))
    const same = keys(ru).filter((k) => k.split(".").reduce<any>((n, p) => n[p], ru) === enValues.get(k) && /[a-z]{3}/i.test(enValues.get(k)))
    expect(same).toEqual([])
  })
})
