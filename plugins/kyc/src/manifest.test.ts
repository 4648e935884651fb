import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, composePlugins, defineRegion, resolveStartParam } from "@wallet/kernel"
import en from "./i18n/en.json"
import ru from "./i18n/ru.json"
import { kycPlugin } from "./manifest.ts"

const region = (config?: Record<string, unknown>) => defineRegion({ id: "test", plugins: { kyc: { enabled: true, ...(config ? { config } : {}) } } })

describe("kyc manifest", () => {
  it("composes with the verification routes of spec 3 §2.2 built so far, and its config", () => {
    const composed = composePlugins({ region: region({ title: "Mine" }), installed: [kycPlugin] })
    expect(composed.routes.map((route) => route.fullPath)).toEqual([
      "/kyc",
      "/kyc/main",
      "/kyc/confirmation",
      "/kyc/verify-country",
      "/kyc/verify-name",
      "/kyc/success",
      "/kyc/sumsub",
      "/kyc/settings",
      "/kyc/verification-pending",
      "/kyc/edd",
      "/kyc/edd-blocked",
      "/kyc/pending",
      "/kyc/blocked",
      "/kyc/partially-blocked",
    ])
    expect(composed.pluginConfig.get("kyc")).toEqual({ title: "Mine" })
  })

  it("start params open a level's flow, the levels screen and the resubmission (spec 1 §2)", () => {
    const composed = composePlugins({ region: region(), installed: [kycPlugin] })
    const open = (startParam: string) => resolveStartParam(composed.deepLinks, startParam)
    expect(open("kyc_start_2")).toMatchObject({ to: "/kyc/main", search: { level: "LEVEL_2" } })
    expect(open("kyc_start_LEVEL_3")).toMatchObject({ to: "/kyc/main", search: { level: "LEVEL_3" } })
    expect(open("kyc_settings_3")).toMatchObject({ to: "/kyc/settings", search: { level: "LEVEL_3" } })
    expect(open("kyc_settings")).toMatchObject({ to: "/kyc/settings" })
    expect(open("kyc_resubmission")).toMatchObject({ to: "/kyc/verification-pending" })
  })

  it("refuses unknown config keys", () => {
    expect(() => composePlugins({ region: region({ colour: "red" }), installed: [kycPlugin] })).toThrow("Invalid config for plugin 'kyc'")
  })

  it("every string exists in English and Russian", () => {
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
  })
})
