import { describe, expect, it } from "vitest"
import { composePlugins } from "@wallet/kernel"
import { installedPlugins, regionById, regions } from "./index.ts"

describe("regions", () => {
  it("every region composes with the installed plugins", () => {
    for (const region of Object.values(regions)) expect(() => composePlugins({ region, installed: installedPlugins })).not.toThrow()
  })

  it("the same build composes differently per region", () => {
    const base = composePlugins({ region: regionById("default"), installed: installedPlugins })
    const eu = composePlugins({ region: regionById("eu"), installed: installedPlugins })
    expect(base.pluginConfig.get("settings")).toEqual({})
    expect(eu.pluginConfig.get("settings")).toMatchObject({ fiatCurrencies: expect.arrayContaining(["EUR", "PLN"]) })
    expect(eu.region.defaults?.fiatCurrency).toBe("EUR")
    expect(base.routes.map((r) => r.fullPath)).toEqual(expect.arrayContaining(["/main", "/settings", "/settings/language", "/settings/default-currency"]))
  })

  it("refuses an unknown region id", () => {
    expect(() => regionById("mars")).toThrow("Unknown region 'mars' (known: default, eu)")
  })
})
