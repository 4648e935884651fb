import { describe, expect, it } from "vitest"
import { checkComposition } from "@wallet/kernel"
import { enabledPackages, loadInstalledPlugins, regionById, regions, resolvePluginEntry } from "./index.ts"

const installedPlugins = await loadInstalledPlugins()

describe("regions", () => {
  it("every region composes with the plugins its file names by package", () => {
    for (const region of Object.values(regions)) expect(() => checkComposition({ region, installed: installedPlugins })).not.toThrow()
  })

  it("the same build composes differently per region", () => {
    const base = checkComposition({ region: regionById("default"), installed: installedPlugins })
    const eu = checkComposition({ region: regionById("eu"), installed: installedPlugins })
    expect(base.pluginConfig.get("settings")).toEqual({})
    expect(eu.pluginConfig.get("settings")).toMatchObject({ fiatCurrencies: expect.arrayContaining(["EUR", "PLN"]) })
    expect(eu.region.defaults?.fiatCurrency).toBe("EUR")
    expect(base.routes.map((r) => r.fullPath)).toEqual(expect.arrayContaining(["/main", "/settings", "/settings/language", "/settings/default-currency"]))
  })

  it("refuses an unknown region id", () => {
    expect(() => regionById("mars")).toThrow("Unknown region 'mars' (known: default, eu)")
  })

  it("issue 14: region files name plugins by package name, and that is the only list", () => {
    expect(enabledPackages(Object.values(regions))).toEqual([
      "@wallet/plugin-home",
      "@wallet/plugin-settings",
      "@wallet/plugin-passcode",
      "@wallet/plugin-custody",
      "@wallet/plugin-ton-space",
      "@wallet/plugin-tonconnect",
    ])
    expect(installedPlugins.map((p) => [p.packageName, p.id])).toEqual([
      ["@wallet/plugin-home", "home"],
      ["@wallet/plugin-settings", "settings"],
      ["@wallet/plugin-passcode", "passcode"],
      ["@wallet/plugin-custody", "custody"],
      ["@wallet/plugin-ton-space", "ton-space"],
      ["@wallet/plugin-tonconnect", "tonconnect"],
    ])
  })

  it("resolves entries through the package exports; a client-only plugin has no server entry", () => {
    expect(resolvePluginEntry("@wallet/plugin-custody", "server")).toMatch(/^file:.*plugins\/custody\//)
    expect(resolvePluginEntry("@wallet/plugin-home", "server")).toBeUndefined()
    expect(() => resolvePluginEntry("@wallet/plugin-nope", "manifest")).toThrow("Cannot resolve '@wallet/plugin-nope/manifest' from host/regions")
  })

  it("issue 14: plugins that import another plugin depend on it (tonconnect uses ton-space)", () => {
    const deps = new Map(installedPlugins.map((p) => [p.id, p.dependsOn ?? []]))
    expect(deps.get("tonconnect")).toContain("ton-space")
    expect(deps.get("ton-space")).toEqual(expect.arrayContaining(["custody", "passcode"]))
    const without = { ...regionById("default"), plugins: { ...regionById("default").plugins, "@wallet/plugin-ton-space": { enabled: false } } }
    expect(() => checkComposition({ region: without, installed: installedPlugins })).toThrow(
      "Plugin 'tonconnect' depends on 'ton-space', which is disabled in region 'default'",
    )
  })
})
