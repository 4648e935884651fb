import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, composePlugins, defineRegion, resolveStartParam } from "@wallet/kernel"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import bn from "./i18n/bn.json"
import en from "./i18n/en.json"
import hi from "./i18n/hi.json"
import ru from "./i18n/ru.json"
import zhTW from "./i18n/zh-TW.json"
import { rampPlugin } from "./manifest.ts"

const region = (config?: Record<string, unknown>) =>
  defineRegion({ id: "test", plugins: { custody: { enabled: true }, ramp: { enabled: true, ...(config ? { config } : {}) } } })
const compose = (config?: Record<string, unknown>) => composePlugins({ region: region(config), installed: [custodyPlugin, rampPlugin] })

describe("ramp manifest", () => {
  it("composes the spec's routes with the providers' config", () => {
    const composed = compose({ sandbox: true, returnOrigins: ["https://app.example"] })
    expect(composed.routes.filter((route) => route.pluginId === "ramp").map((route) => route.fullPath)).toEqual([
      "/purchase-options",
      "/sell-options",
      "/assets/ramp/onramp/onramp-amount",
      "/assets/ramp/onramp/onramp-provider",
      "/assets/ramp/offramp/choose-asset",
      "/assets/ramp/offramp/offramp-amount",
      "/assets/ramp/offramp/offramp-provider",
      "/assets/ramp/offramp/offramp-success",
      "/assets/ramp/asterium-trx-status",
      "/purchase-success",
      "/purchase-failed",
    ])
    expect(composed.pluginConfig.get("ramp")).toEqual({ sandbox: true, returnOrigins: ["https://app.example"] })
  })

  it("refuses unknown config keys", () => {
    expect(() => compose({ colour: "red" })).toThrow("Invalid config for plugin 'ramp'")
  })

  it("the asset_purchase start param opens the purchase options; custody's addcrypto still opens receive", () => {
    expect(resolveStartParam(compose().deepLinks, "asset_purchase")).toMatchObject({ kind: "route", pluginId: "ramp", to: "/purchase-options" })
    expect(resolveStartParam(compose().deepLinks, "addcrypto")).toMatchObject({ kind: "route", to: "/choose-asset/receive" })
  })

  it("every string exists in English, Russian, Hindi, Bengali and Traditional Chinese", () => {
    for (const bundle of [ru, hi, bn, zhTW]) expect(bundleKeyDifferences(en, bundle)).toEqual({ missing: [], extra: [] })
  })
})
