import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, composePlugins, defineRegion, resolveStartParam } from "@wallet/kernel"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import bn from "./i18n/bn.json"
import en from "./i18n/en.json"
import hi from "./i18n/hi.json"
import ru from "./i18n/ru.json"
import zh from "./i18n/zh-TW.json"
import { exchangePlugin } from "./manifest.ts"

const region = (config?: Record<string, unknown>) =>
  defineRegion({ id: "test", plugins: { custody: { enabled: true }, exchange: { enabled: true, ...(config ? { config } : {}) } } })
const compose = (config?: Record<string, unknown>) => composePlugins({ region: region(config), installed: [custodyPlugin, exchangePlugin] })

describe("exchange manifest", () => {
  it("composes /exchange, its search and confirmation, with the region config", () => {
    const composed = compose({ spreadBps: 40, quoteTtlMs: 20_000 })
    expect(composed.routes.filter((route) => route.pluginId === "exchange").map((route) => route.fullPath)).toEqual([
      "/exchange",
      "/exchange/search",
      "/exchange/confirmation",
    ])
    expect(composed.pluginConfig.get("exchange")).toEqual({ spreadBps: 40, quoteTtlMs: 20_000 })
  })

  it("refuses unknown config keys", () => {
    expect(() => compose({ colour: "red" })).toThrow("Invalid config for plugin 'exchange'")
  })

  it("the exchange start param opens /exchange", () => {
    expect(resolveStartParam(compose().deepLinks, "exchange")).toMatchObject({ kind: "route", pluginId: "exchange", to: "/exchange" })
  })

  it("every string exists in all five languages", () => {
    // Plural forms count as one key (Chinese has only `_other`, Russian four).
    for (const bundle of [ru, hi, bn, zh]) expect(bundleKeyDifferences(en, bundle)).toEqual({ missing: [], extra: [] })
  })
})
