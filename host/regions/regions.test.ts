import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { checkComposition } from "@wallet/kernel"
import { enabledPackages, loadInstalledPlugins, regionById, regions, resolvePluginEntry } from "./index.ts"

const installedPlugins = await loadInstalledPlugins()
const regionsPackage = JSON.parse(readFileSync(join(import.meta.dirname, "package.json"), "utf8")) as { dependencies: Record<string, string> }
/** The workspace's plugin packages (`plugins/<folder>/package.json`): read from disk, so a scaffolded plugin counts at once. */
const pluginsDir = join(import.meta.dirname, "..", "..", "plugins")
const workspacePlugins = readdirSync(pluginsDir)
  .filter((folder) => statSync(join(pluginsDir, folder, "package.json"), { throwIfNoEntry: false })?.isFile())
  .map((folder) => ({ folder, name: (JSON.parse(readFileSync(join(pluginsDir, folder, "package.json"), "utf8")) as { name: string }).name }))
const KNOWN: ReadonlyArray<string> = [
  "@wallet/plugin-home",
  "@wallet/plugin-settings",
  "@wallet/plugin-passcode",
  "@wallet/plugin-custody",
  "@wallet/plugin-ton-space",
  "@wallet/plugin-tonconnect",
]

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
    const enabled = enabledPackages(Object.values(regions))
    // The six plugins of today, in region-file order; a plugin the scaffold adds comes after them.
    expect(enabled.filter((name) => KNOWN.includes(name))).toEqual(KNOWN)
    // What the app and the server load is exactly what the region files name, each by its `./manifest`.
    expect(installedPlugins.map((p) => p.packageName)).toEqual(enabled)
    expect(installedPlugins.filter((p) => p.packageName !== undefined && KNOWN.includes(p.packageName)).map((p) => [p.packageName, p.id])).toEqual([
      ["@wallet/plugin-home", "home"],
      ["@wallet/plugin-settings", "settings"],
      ["@wallet/plugin-passcode", "passcode"],
      ["@wallet/plugin-custody", "custody"],
      ["@wallet/plugin-ton-space", "ton-space"],
      ["@wallet/plugin-tonconnect", "tonconnect"],
    ])
    // Every region names only packages @wallet/regions depends on (so they resolve from here).
    for (const name of enabled) expect(Object.keys(regionsPackage.dependencies), name).toContain(name)
  })

  it("issue 14: every plugin folder of the workspace is a dependency of @wallet/regions, enabled by the default region with its folder's id", () => {
    expect(workspacePlugins.map((p) => p.name)).toEqual(expect.arrayContaining([...KNOWN]))
    const inDefault = enabledPackages([regionById("default")])
    for (const { folder, name } of workspacePlugins) {
      expect(name).toBe(`@wallet/plugin-${folder}`)
      expect(regionsPackage.dependencies[name], name).toBe("workspace:^")
      expect(inDefault, name).toContain(name)
      expect(installedPlugins.find((p) => p.packageName === name)?.id, name).toBe(folder)
    }
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
