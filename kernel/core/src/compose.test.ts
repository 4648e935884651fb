import * as Check from "./check.ts"
import { describe, expect, it } from "vitest"
import { checkComposition, CompositionError, composePlugins, manifestOfModule, slotsForUser, type ServerPart } from "./compose.ts"
import { definePlugin, ManifestError, PROVIDABLE_SERVICES, type PluginManifest } from "./manifest.ts"
import { Passcode } from "./passcode.ts"
import { defineRegion, type RegionConfig } from "./region.ts"

const screen = async () => ({ default: () => null })

const settings = definePlugin({
  id: "settings",
  version: "1.0.0",
  kernel: "^0.1.0",
  routes: [
    { id: "index", parent: "wallet", path: "/settings", component: screen },
    { id: "language", parent: "settings/index", path: "/language", component: screen, permissions: ["accessToSavingSettings"] },
  ],
  tabs: [{ id: "wallet", bar: "custodial", to: "/main", labelKey: "tab", icon: "wallet", order: 2 }],
  deepLinks: [{ prefix: "settings", exact: true, to: "/settings" }],
  featureFlags: [{ key: "dev_tools", default: false, description: "dev tools" }],
  config: Check.struct({ fiatCurrencies: Check.optional(Check.array(Check.string)) }, { exact: true }),
  i18n: { namespace: "settings", bundles: { en: async () => ({ default: {} }), ru: async () => ({ default: {} }) } },
})

const plugin = (overrides: Partial<PluginManifest> & { id: string }): PluginManifest => definePlugin({ version: "1.0.0", kernel: "^0.1.0", ...overrides })

const region = (plugins: RegionConfig["plugins"], extra: object = {}): RegionConfig => defineRegion({ id: "test", plugins, ...extra })

const failure = (fn: () => unknown): CompositionError => {
  try {
    fn()
  } catch (error) {
    if (error instanceof CompositionError) return error
    throw error
  }
  throw new Error("expected composition to fail")
}

describe("composePlugins", () => {
  it("builds routes with full paths, parents first, gates inherited from ancestors", () => {
    const c = composePlugins({ region: region({ settings: { enabled: true } }), installed: [settings] })
    expect(c.routes.map((r) => [r.globalId, r.fullPath])).toEqual([
      ["settings/index", "/settings"],
      ["settings/language", "/settings/language"],
    ])
    expect(c.permissionGates.get("settings/language")).toEqual(["accessToSavingSettings"])
    expect(c.tabs.custodial.map((t) => t.id)).toEqual(["wallet"])
    expect(c.deepLinks[0]).toMatchObject({ prefix: "settings", pluginId: "settings" })
    expect([...c.i18nNamespaces.keys()]).toEqual(["settings"])
    expect(c.featureFlags.map((f) => f.key)).toEqual(["dev_tools"])
  })

  it("leaves a disabled plugin out of every table", () => {
    const c = composePlugins({ region: region({ settings: { enabled: false } }), installed: [settings] })
    expect(c.routes).toEqual([])
    expect(c.plugins).toEqual([])
    expect(c.tabs.custodial).toEqual([])
  })

  it("fails when two plugins claim one path", () => {
    const other = plugin({ id: "other", routes: [{ id: "x", parent: "wallet", path: "/settings", component: screen }] })
    const e = failure(() => composePlugins({ region: region({ settings: { enabled: true }, other: { enabled: true } }), installed: [settings, other] }))
    expect(e.reason).toBe("path-conflict")
    expect(e.message).toBe("Path '/settings' is claimed by plugin 'settings' (route 'settings/index') and plugin 'other' (route 'other/x')")
  })

  it("treats /a/$x and /a/$y as one path", () => {
    const a = plugin({ id: "a", routes: [{ id: "r", parent: "wallet", path: "/assets/$assetCurrency", component: screen }] })
    const b = plugin({ id: "b", routes: [{ id: "r", parent: "wallet", path: "/assets/$currency", component: screen }] })
    expect(failure(() => composePlugins({ region: region({ a: { enabled: true }, b: { enabled: true } }), installed: [a, b] })).reason).toBe("path-conflict")
  })

  it("fails when two plugins claim one deep-link prefix", () => {
    const other = plugin({ id: "other", deepLinks: [{ prefix: "settings", exact: true, to: "/x" }] })
    const e = failure(() => composePlugins({ region: region({ settings: { enabled: true }, other: { enabled: true } }), installed: [settings, other] }))
    expect(e.reason).toBe("deep-link-conflict")
    expect(e.message).toBe("Deep-link prefix 'settings' is claimed by plugin 'settings' and plugin 'other'")
  })

  it("fails on a dependency that is not installed", () => {
    const p2p = plugin({ id: "p2p", dependsOn: ["kyc"] })
    const e = failure(() => composePlugins({ region: region({ p2p: { enabled: true } }), installed: [p2p] }))
    expect(e.reason).toBe("missing-dependency")
    expect(e.message).toBe("Plugin 'p2p' depends on 'kyc', which is not installed (no plugin listed in region 'test' has id 'kyc')")
  })

  it("fails on a dependency that the region disables", () => {
    const kyc = plugin({ id: "kyc" })
    const p2p = plugin({ id: "p2p", dependsOn: ["kyc"] })
    const e = failure(() => composePlugins({ region: region({ p2p: { enabled: true }, kyc: { enabled: false } }), installed: [kyc, p2p] }))
    expect(e.reason).toBe("disabled-dependency")
    expect(e.message).toBe("Plugin 'p2p' depends on 'kyc', which is disabled in region 'test'")
  })

  it("orders dependencies before dependants and refuses cycles", () => {
    const kyc = plugin({ id: "kyc" })
    const p2p = plugin({ id: "p2p", dependsOn: ["kyc"] })
    const c = composePlugins({ region: region({ p2p: { enabled: true }, kyc: { enabled: true } }), installed: [p2p, kyc] })
    expect(c.plugins.map((p) => p.id)).toEqual(["kyc", "p2p"])
    const a = plugin({ id: "a", dependsOn: ["b"] })
    const b = plugin({ id: "b", dependsOn: ["a"] })
    const e = failure(() => composePlugins({ region: region({ a: { enabled: true }, b: { enabled: true } }), installed: [a, b] }))
    expect(e.reason).toBe("dependency-cycle")
    expect(e.message).toBe("Plugin dependency cycle: a -> b -> a")
  })

  it("fails on an unsatisfied kernel range", () => {
    const future = plugin({ id: "future", kernel: "^2.0.0" })
    const e = failure(() => composePlugins({ region: region({ future: { enabled: true } }), installed: [future], kernelVersion: "0.1.0" }))
    expect(e.reason).toBe("kernel-range")
    expect(e.message).toBe("Plugin 'future' requires kernel ^2.0.0, but this kernel is 0.1.0")
    expect(composePlugins({ region: region({ future: { enabled: true } }), installed: [future], kernelVersion: "2.3.0" }).plugins).toHaveLength(1)
  })

  it("fails on an unknown key in region config, at every level", () => {
    expect(failure(() => composePlugins({ region: region({}, { theme: "dark" }), installed: [] })).message).toBe(
      "Unknown key 'theme' in region 'test' config (allowed: id, plugins, defaults)",
    )
    expect(failure(() => composePlugins({ region: region({}, { defaults: { currency: "EUR" } }), installed: [] })).message).toBe(
      "Unknown key 'defaults.currency' in region 'test' config",
    )
    expect(failure(() => composePlugins({ region: region({ settings: { enabled: true, disabled: true } as never }), installed: [settings] })).message).toBe(
      "Unknown key 'plugins.settings.disabled' in region 'test' config",
    )
    const e = failure(() => composePlugins({ region: region({ settings: { enabled: true, config: { colour: "red" } } }), installed: [settings] }))
    expect(e.reason).toBe("unknown-region-key")
    expect(e.message).toContain("Invalid config for plugin 'settings' in region 'test'")
    expect(e.message).toContain("colour")
  })

  it("fails on an unknown plugin id and on a wrong-typed plugin config", () => {
    expect(failure(() => composePlugins({ region: region({ nope: { enabled: true } }), installed: [] })).message).toBe(
      "Unknown plugin 'nope' in region 'test' config: no installed plugin has this package name or id",
    )
    const e = failure(() => composePlugins({ region: region({ settings: { enabled: true, config: { fiatCurrencies: "EUR" } } }), installed: [settings] }))
    expect(e.reason).toBe("invalid-plugin-config")
  })

  it("fails when a route names a parent no enabled plugin declares", () => {
    const orphan = plugin({ id: "orphan", routes: [{ id: "x", parent: "settings/index", path: "/x", component: screen }] })
    const e = failure(() => composePlugins({ region: region({ orphan: { enabled: true } }), installed: [orphan] }))
    expect(e.reason).toBe("unknown-parent")
    expect(e.message).toBe("Route 'orphan/x' of plugin 'orphan' names parent 'settings/index', which no enabled plugin declares")
  })

  it("fails on duplicate i18n namespaces and feature flags", () => {
    const ns = plugin({ id: "ns", i18n: { namespace: "settings", bundles: settings.i18n.bundles } })
    expect(failure(() => composePlugins({ region: region({ settings: { enabled: true }, ns: { enabled: true } }), installed: [settings, ns] })).reason).toBe(
      "duplicate-namespace",
    )
    const flag = plugin({ id: "flag", featureFlags: [{ key: "dev_tools", default: true, description: "" }] })
    expect(
      failure(() => composePlugins({ region: region({ settings: { enabled: true }, flag: { enabled: true } }), installed: [settings, flag] })).message,
    ).toBe("Feature flag 'dev_tools' is declared by plugin 'settings' and plugin 'flag'")
  })

  it("records the one enabled provider of a kernel service and refuses a second", async () => {
    const factory = () => Passcode.unavailable
    const impl = async () => ({ default: factory })
    const a = plugin({ id: "a", provides: { passcode: impl } })
    const b = plugin({ id: "b", provides: { passcode: async () => ({ default: () => Passcode.unavailable }) } })
    const one = composePlugins({ region: region({ a: { enabled: true }, b: { enabled: false } }), installed: [a, b] })
    expect(one.providers.passcode?.pluginId).toBe("a")
    expect((await one.providers.passcode!.load()).default).toBe(factory)
    expect(composePlugins({ region: region({ a: { enabled: false } }), installed: [a] }).providers.passcode).toBeUndefined()
    const e = failure(() => composePlugins({ region: region({ a: { enabled: true }, b: { enabled: true } }), installed: [a, b] }))
    expect(e.reason).toBe("duplicate-provider")
    expect(e.message).toBe("Kernel service 'passcode' is provided by plugin 'a' and plugin 'b'")
  })

  it("composition collects hooks: every enabled plugin's beforePasscodeChange, dependencies first, none loaded at composition", async () => {
    const loaded: Array<string> = []
    const hook = (id: string) => async () => {
      loaded.push(id)
      return { default: async () => undefined }
    }
    const wallet = plugin({ id: "wallet", dependsOn: ["vault"], hooks: { beforePasscodeChange: hook("wallet") } })
    const vault = plugin({ id: "vault", hooks: { beforePasscodeChange: hook("vault") } })
    const off = plugin({ id: "off", hooks: { beforePasscodeChange: hook("off") } })
    const none = plugin({ id: "none" })
    const composed = composePlugins({
      region: region({ wallet: { enabled: true }, vault: { enabled: true }, off: { enabled: false }, none: { enabled: true } }),
      installed: [wallet, vault, off, none],
    })
    expect(composed.hooks.beforePasscodeChange.map((h) => h.pluginId)).toEqual(["vault", "wallet"])
    expect(loaded).toEqual([])
    await composed.hooks.beforePasscodeChange[1]!.load()
    expect(loaded).toEqual(["wallet"])
    expect(composePlugins({ region: region({ none: { enabled: true } }), installed: [none] }).hooks.beforePasscodeChange).toEqual([])
  })

  it("composition collects afterStart hooks of enabled plugins only, none loaded at composition", async () => {
    const loaded: Array<string> = []
    const hook = (id: string) => async () => {
      loaded.push(id)
      return { default: () => undefined }
    }
    const listener = plugin({ id: "listener", hooks: { afterStart: hook("listener") } })
    const off = plugin({ id: "off", hooks: { afterStart: hook("off") } })
    const composed = composePlugins({ region: region({ listener: { enabled: true }, off: { enabled: false } }), installed: [listener, off] })
    expect(composed.hooks.afterStart.map((h) => h.pluginId)).toEqual(["listener"])
    expect(loaded).toEqual([])
    await composed.hooks.afterStart[0]!.load()
    expect(loaded).toEqual(["listener"])
  })
})

describe("checkComposition (issue 14: one check for the app build and the server boot)", () => {
  const pkg = (manifest: PluginManifest, name = `@acme/plugin-${manifest.id}`) => ({ ...manifest, packageName: name })
  const a = pkg(plugin({ id: "a", routes: [{ id: "home", parent: "root", path: "/a", component: screen }] }))
  const b = pkg(plugin({ id: "b" }))
  const byPackage = defineRegion({ id: "test", plugins: { "@acme/plugin-a": { enabled: true }, "@acme/plugin-b": { enabled: true } } })
  const part = (pluginId: string, extra: Partial<ServerPart> = {}): ServerPart => ({ pluginId, apiPaths: [], migrations: [], ...extra })
  const conflict = (options: Parameters<typeof checkComposition>[0]) => failure(() => checkComposition(options))

  it("names plugins by package name in the region and keeps their config by plugin id", () => {
    const c = checkComposition({
      region: defineRegion({ id: "test", plugins: { "@acme/settings": { enabled: true, config: { fiatCurrencies: ["EUR"] } } } }),
      installed: [pkg(settings, "@acme/settings")],
    })
    expect(c.pluginConfig.get("settings")).toEqual({ fiatCurrencies: ["EUR"] })
    expect(c.routes.map((r) => r.fullPath)).toContain("/settings/language")
  })

  it("refuses a plugin listed twice (package name and id)", () => {
    expect(conflict({ region: region({ "@acme/plugin-a": { enabled: true }, a: { enabled: false } }), installed: [a] }).message).toBe(
      "Plugin 'a' is listed twice in region 'test' config (as '@acme/plugin-a' and 'a')",
    )
  })

  it("route conflict", () => {
    const other = pkg(plugin({ id: "b", routes: [{ id: "x", parent: "root", path: "/a", component: screen }] }))
    const e = conflict({ region: byPackage, installed: [a, other] })
    expect(e.reason).toBe("path-conflict")
    expect(e.message).toBe("Path '/a' is claimed by plugin 'a' (route 'a/home') and plugin 'b' (route 'b/x')")
  })

  it("deep-link prefix conflict", () => {
    const one = pkg(plugin({ id: "a", deepLinks: [{ prefix: "pay-", to: "/a" }] }))
    const two = pkg(plugin({ id: "b", deepLinks: [{ prefix: "pay-", to: "/b" }] }))
    expect(conflict({ region: byPackage, installed: [one, two] }).message).toBe("Deep-link prefix 'pay-' is claimed by plugin 'a' and plugin 'b'")
  })

  it("i18n namespace conflict", () => {
    const i18n = { namespace: "shared", bundles: { en: async () => ({ default: {} }), ru: async () => ({ default: {} }) } }
    const e = conflict({ region: byPackage, installed: [pkg(plugin({ id: "a", i18n })), pkg(plugin({ id: "b", i18n }))] })
    expect(e.message).toBe("i18n namespace 'shared' is declared by plugin 'a' and plugin 'b'")
  })

  it("feature-flag key conflict", () => {
    const featureFlags = [{ key: "beta", default: false, description: "beta" }]
    const e = conflict({ region: byPackage, installed: [pkg(plugin({ id: "a", featureFlags })), pkg(plugin({ id: "b", featureFlags }))] })
    expect(e.message).toBe("Feature flag 'beta' is declared by plugin 'a' and plugin 'b'")
  })

  it("API path conflict (server only), param names ignored", () => {
    const e = conflict({
      region: byPackage,
      installed: [a, b],
      serverParts: [
        part("a", { apiPaths: [{ method: "GET", path: "/api/items/:id" }] }),
        part("b", { apiPaths: [{ method: "get", path: "/api/items/:itemId" }] }),
      ],
    })
    expect(e.reason).toBe("api-path-conflict")
    expect(e.message).toBe("API path 'GET /api/items/:itemId' is served by plugin 'a' and plugin 'b'")
    expect(() =>
      checkComposition({
        region: byPackage,
        installed: [a, b],
        serverParts: [
          part("a", { apiPaths: [{ method: "GET", path: "/api/items/:id" }] }),
          part("b", { apiPaths: [{ method: "POST", path: "/api/items/:id" }] }),
        ],
      }),
    ).not.toThrow()
  })

  it("migration name conflict (server only)", () => {
    const migrations = [{ id: 1, name: "create items" }]
    const e = conflict({ region: byPackage, installed: [a, b], serverParts: [part("a", { migrations }), part("b", { migrations })] })
    expect(e.reason).toBe("migration-conflict")
    expect(e.message).toBe("Migration 'create items' is declared by plugin 'a' and plugin 'b'")
  })

  it("a server module without an enabled manifest", () => {
    expect(conflict({ region: byPackage, installed: [a, b], serverParts: [part("c")] }).message).toBe(
      "Server module 'c' has no enabled plugin manifest with this id in region 'test'",
    )
  })

  it("kernel range and dependsOn are part of the same check", () => {
    expect(conflict({ region: byPackage, installed: [a, pkg(plugin({ id: "b", kernel: "^9.0.0" }))] }).message).toBe(
      "Plugin 'b' requires kernel ^9.0.0, but this kernel is 0.1.0",
    )
    expect(conflict({ region: byPackage, installed: [a, pkg(plugin({ id: "b", dependsOn: ["c"] }))] }).message).toBe(
      "Plugin 'b' depends on 'c', which is not installed (no plugin listed in region 'test' has id 'c')",
    )
  })
})

describe("manifestOfModule", () => {
  it("takes the default export, else the one manifest-shaped export, and tags the package name", () => {
    const m = plugin({ id: "a" })
    expect(manifestOfModule({ default: m }, "@acme/a")).toMatchObject({ id: "a", packageName: "@acme/a" })
    expect(manifestOfModule({ aPlugin: m, Search: { x: 1 } }, "@acme/a").id).toBe("a")
    expect(() => manifestOfModule({ one: m, two: plugin({ id: "b" }) }, "@acme/a")).toThrow(
      "Package '@acme/a' must export one plugin manifest from '@acme/a/manifest' (default export or one definePlugin(...) export; found 2)",
    )
  })
})

describe("definePlugin", () => {
  it("refuses an id outside ^[a-z][a-z0-9-]*$", () => {
    expect(() => plugin({ id: "Settings" })).toThrow(ManifestError)
    expect(() => plugin({ id: "1x" })).toThrow("Plugin id '1x' must match ^[a-z][a-z0-9-]*$")
    expect(plugin({ id: "ton-space2" }).id).toBe("ton-space2")
  })

  it("refuses duplicate route ids, relative paths and routes without screen", () => {
    expect(() =>
      plugin({
        id: "a",
        routes: [
          { id: "r", parent: "root", path: "/a", component: screen },
          { id: "r", parent: "root", path: "/b", component: screen },
        ],
      }),
    ).toThrow("plugin 'a': route id 'r' is declared twice")
    expect(() => plugin({ id: "a", routes: [{ id: "r", parent: "root", path: "a", component: screen }] })).toThrow("must start with '/'")
    expect(() => plugin({ id: "a", routes: [{ id: "r", parent: "root", path: "/a" }] })).toThrow("needs a component or a redirectTo")
  })

  it("refuses a hook the kernel does not know", () => {
    expect(() => plugin({ id: "a", hooks: { afterLogout: async () => ({ default: async () => undefined }) } as never })).toThrow(
      "plugin 'a': declares unknown hook 'afterLogout' (known: beforePasscodeChange, afterStart)",
    )
  })

  it("refuses to provide a service the kernel does not know", () => {
    expect(() => plugin({ id: "a", provides: { vault: async () => ({ default: null }) } as never })).toThrow(
      "plugin 'a': provides unknown service 'vault' (known: passcode)",
    )
  })
})

describe("main-screen slots (issue 14: extension points instead of hard-coding)", () => {
  const run = async () => ({ default: () => undefined })
  const wallet = plugin({
    id: "wallet",
    routes: [
      { id: "main", parent: "wallet", path: "/main", component: screen },
      { id: "choose", parent: "wallet", path: "/choose-asset/$type", component: screen },
      { id: "exchange", parent: "wallet", path: "/exchange", component: screen },
    ],
    main: {
      topBar: [{ id: "scan", labelKey: "scan", icon: "qr", order: 10, requiresCustody: true, run }],
      actions: [
        { id: "exchange", labelKey: "exchange", icon: "exchange", order: 30, to: "/exchange", permissions: ["accessToExchanges"] },
        { id: "receive", labelKey: "receive", icon: "receive", order: 10, to: "/choose-asset/receive" },
        { id: "buy", labelKey: "buy", icon: "buy", order: 40, to: "/purchase-options", whenTargetMissing: "hide" },
      ],
      sections: [{ id: "news", order: 5, component: screen }],
    },
  })
  const extra = plugin({
    id: "extra",
    dependsOn: ["wallet"],
    main: {
      topBar: [{ id: "gear", labelKey: "gear", icon: "settings", order: 5, to: "/main" }],
      actions: [{ id: "earn", labelKey: "earn", icon: "currency", order: 20, to: "/main" }],
    },
  })
  const both = region({ wallet: { enabled: true }, extra: { enabled: true } })

  it("orders every plugin's contributions by order, with plugin and global id, and leaves out a hidden missing target", () => {
    const { main } = composePlugins({ region: both, installed: [extra, wallet] })
    expect(main.topBar.map((e) => e.globalId)).toEqual(["extra/gear", "wallet/scan"])
    expect(main.actions.map((e) => e.globalId)).toEqual(["wallet/receive", "extra/earn", "wallet/exchange"])
    expect(main.actions[1]!.pluginId).toBe("extra")
    expect(main.sections.map((e) => e.globalId)).toEqual(["wallet/news"])
  })

  it("contributes nothing from a disabled plugin", () => {
    const { main } = composePlugins({ region: region({ wallet: { enabled: true }, extra: { enabled: false } }), installed: [extra, wallet] })
    expect(main.topBar.map((e) => e.globalId)).toEqual(["wallet/scan"])
    expect(main.actions.map((e) => e.globalId)).toEqual(["wallet/receive", "wallet/exchange"])
  })

  it("filters by the user's permissions and custody availability", () => {
    const { main } = composePlugins({ region: both, installed: [extra, wallet] })
    const custodyUser = { isCustodyAvailable: true, permissions: { accessToExchanges: true } }
    expect(slotsForUser(main.actions, custodyUser).map((e) => e.id)).toEqual(["receive", "earn", "exchange"])
    expect(slotsForUser(main.actions, { ...custodyUser, permissions: { accessToExchanges: false } }).map((e) => e.id)).toEqual(["receive", "earn"])
    expect(slotsForUser(main.topBar, custodyUser).map((e) => e.id)).toEqual(["gear", "scan"])
    expect(slotsForUser(main.topBar, { isCustodyAvailable: false, permissions: {} }).map((e) => e.id)).toEqual(["gear"])
    expect(slotsForUser(main.topBar, undefined)).toEqual([])
  })

  it("refuses a target no enabled route serves, naming the entry and the path", () => {
    const lost = plugin({ id: "lost", main: { actions: [{ id: "go", labelKey: "go", icon: "send", order: 1, to: "/nowhere/$x" }] } })
    const e = failure(() => composePlugins({ region: region({ lost: { enabled: true } }), installed: [lost] }))
    expect(e.reason).toBe("unknown-slot-target")
    expect(e.message).toBe(
      `main.actions entry 'lost/go' leads to '/nowhere/$x', which no enabled plugin's route serves (set whenTargetMissing: "hide" to leave it out instead)`,
    )
    // The target's plugin disabled: the same refusal, at app build and server boot alike (checkComposition).
    const needs = plugin({ id: "needs", main: { topBar: [{ id: "x", labelKey: "x", icon: "qr", order: 1, to: "/exchange" }] } })
    expect(
      failure(() => checkComposition({ region: region({ needs: { enabled: true }, wallet: { enabled: false } }), installed: [needs, wallet] })).reason,
    ).toBe("unknown-slot-target")
  })

  it("definePlugin refuses a duplicate slot id, an entry with both or neither of to/run, and an unknown slot", () => {
    const twice = () =>
      plugin({
        id: "twice",
        main: {
          actions: [
            { id: "a", labelKey: "a", icon: "send", order: 1, run },
            { id: "a", labelKey: "b", icon: "send", order: 2, run },
          ],
        },
      })
    expect(twice).toThrow(new ManifestError("plugin 'twice': main.actions id 'a' is declared twice"))
    const neither = () => plugin({ id: "neither", main: { topBar: [{ id: "x", labelKey: "x", icon: "qr", order: 1 } as never] } })
    expect(neither).toThrow("plugin 'neither': main.topBar entry 'x' needs either 'to' or 'run' (exactly one)")
    const unknown = () => plugin({ id: "odd", main: { footer: [] } as never })
    expect(unknown).toThrow("plugin 'odd': unknown main-screen slot 'main.footer' (known: topBar, actions, sections)")
  })

  it("composition runs the same slot checks on a manifest not made with definePlugin", () => {
    const raw: PluginManifest = {
      id: "raw",
      version: "1.0.0",
      kernel: "^0.1.0",
      main: {
        sections: [
          { id: "s", order: 1, component: screen },
          { id: "s", order: 2, component: screen },
        ],
      },
    }
    const e = failure(() => composePlugins({ region: region({ raw: { enabled: true } }), installed: [raw] }))
    expect(e.reason).toBe("duplicate-slot-id")
    expect(e.message).toBe("plugin 'raw': main.sections id 's' is declared twice")
  })

  it("refuses two plugins' tabs with one id on one bar", () => {
    const other = plugin({ id: "other", tabs: [{ id: "wallet", bar: "custodial", to: "/settings", labelKey: "t", icon: "wallet", order: 3 }] })
    const e = failure(() => composePlugins({ region: region({ settings: { enabled: true }, other: { enabled: true } }), installed: [settings, other] }))
    expect(e.reason).toBe("duplicate-slot-id")
    expect(e.message).toBe("Tab id 'wallet' on the custodial tab bar is declared by plugin 'settings' and plugin 'other'")
  })

  it("the set of providable services is the kernel's catalogue", () => {
    expect(PROVIDABLE_SERVICES).toEqual(["passcode"])
    expect(() => plugin({ id: "scanner", provides: { scanner: run } as never })).toThrow(
      "plugin 'scanner': provides unknown service 'scanner' (known: passcode)",
    )
  })
})
