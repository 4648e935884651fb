/**
 * Which plugins the server composes (decision 0120): the region file (`host/regions/<id>.ts`,
 * default export `{ id, plugins: { [packageName]: { enabled, config? } } }`) names the plugins by
 * package name. Each package is resolved through its `exports` by Node's ESM resolution from
 * host/regions (the package that depends on them), so a package installed there from outside the
 * repo works the same as a workspace one: `<pkg>/manifest` (required: the same manifest the app
 * builds with) and `<pkg>/server` (optional: default export or `serverPlugin`, built with
 * `defineServerPlugin`; a plugin without one is client-only). Before anything boots the server runs
 * the kernel's `checkComposition` on the manifests plus the server parts (API paths, migrations):
 * the kernel range, `dependsOn` and every conflict fail with the message the app build gives.
 */
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { HttpApiEndpoint } from "effect/http-api"
import { checkComposition, manifestOfModule, type Composition, type InstalledPlugin, type RegionConfig, type ServerPart } from "@wallet/kernel"
import type { ServerPlugin } from "@wallet/kernel-server"
import { resolvePluginEntry } from "@wallet/regions"

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")

/** Resolves `<package>/<entry>` to a module URL, or undefined when the package does not export it. */
export type EntryResolver = (packageName: string, entry: "manifest" | "server") => string | undefined

export interface RegionPlugins {
  readonly composition: Composition
  /** The enabled plugins' server modules, dependencies first. */
  readonly serverPlugins: ReadonlyArray<ServerPlugin>
  /** Region config by plugin id (as the region file gives it; the host adds server-only keys). */
  readonly pluginConfig: Readonly<Record<string, object | undefined>>
}

/** The region file `host/regions/<region>.ts`, or undefined when there is none. */
export const regionFile = async (region: string): Promise<RegionConfig | undefined> => {
  if (!/^[a-z0-9-]+$/.test(region)) throw new Error(`region id "${region}" is not a valid file name`)
  const file = join(repoRoot, "host", "regions", `${region}.ts`)
  if (!existsSync(file)) return undefined
  const config = ((await import(pathToFileURL(file).href)) as { default?: RegionConfig }).default
  if (config === undefined || typeof config.plugins !== "object") throw new Error(`${file} must default-export { id, plugins }`)
  return config
}

/** What the kernel's composition check needs to know of a server module: its API paths and migrations. */
export const serverPartOf = (plugin: ServerPlugin): ServerPart => ({
  pluginId: plugin.id,
  apiPaths: plugin.groups.flatMap((group) =>
    (Object.values(group.endpoints) as unknown as ReadonlyArray<HttpApiEndpoint.Top>).map((endpoint) => ({ method: endpoint.method, path: endpoint.path })),
  ),
  migrations: plugin.migrations.map((migration) => ({ id: migration.id, name: migration.name })),
})

/**
 * The server's boot check: the app build's check (`checkComposition`) plus the server parts. Every
 * server module must belong to an enabled manifest of the same id.
 */
export const checkServerComposition = (
  region: RegionConfig,
  installed: ReadonlyArray<InstalledPlugin>,
  serverPlugins: ReadonlyArray<ServerPlugin>,
): Composition => checkComposition({ region, installed, serverParts: serverPlugins.map(serverPartOf) })

const loadServerModule = async (packageName: string, url: string, expectedId: string): Promise<ServerPlugin> => {
  const module = (await import(url)) as { default?: ServerPlugin; serverPlugin?: ServerPlugin }
  const plugin = module.default ?? module.serverPlugin
  const specifier = `${packageName}/server`
  if (plugin === undefined) throw new Error(`${specifier} must export its defineServerPlugin(...) as default or serverPlugin`)
  if (plugin.id !== expectedId) throw new Error(`${specifier} declares id "${plugin.id}", but its manifest's id is "${expectedId}"`)
  return plugin
}

/**
 * Resolves and checks the plugins a region names: manifests of every listed package, server modules
 * of the enabled ones. `only` keeps the region's plugins with these ids or package names (tests,
 * benchmarks). Throws the composition check's `CompositionError` on any conflict.
 */
export const resolveRegionPlugins = async (
  region: RegionConfig,
  options: { readonly resolve?: EntryResolver; readonly only?: ReadonlyArray<string> } = {},
): Promise<RegionPlugins> => {
  const resolve = options.resolve ?? resolvePluginEntry
  const installed: Array<InstalledPlugin> = []
  for (const packageName of Object.keys(region.plugins)) {
    const url = resolve(packageName, "manifest")
    if (url === undefined) throw new Error(`plugin package "${packageName}" named in region "${region.id}" has no ./manifest export`)
    installed.push(manifestOfModule((await import(url)) as Record<string, unknown>, packageName))
  }
  let effective = region
  if (options.only !== undefined) {
    const only = options.only
    for (const wanted of only) {
      if (!installed.some((p) => p.id === wanted || p.packageName === wanted)) throw new Error(`plugin "${wanted}" is not named in region "${region.id}"`)
    }
    const kept = Object.entries(region.plugins).filter(([name]) =>
      installed.some((p) => p.packageName === name && (only.includes(p.id) || only.includes(name))),
    )
    effective = { ...region, plugins: Object.fromEntries(kept) }
  }
  // The manifests alone first: a dependency or conflict the app build reports is reported the same here.
  const enabled = checkComposition({ region: effective, installed }).plugins as ReadonlyArray<InstalledPlugin>
  const serverPlugins: Array<ServerPlugin> = []
  for (const manifest of enabled) {
    const packageName = manifest.packageName ?? manifest.id
    const url = resolve(packageName, "server")
    if (url !== undefined) serverPlugins.push(await loadServerModule(packageName, url, manifest.id))
  }
  const composition = checkServerComposition(effective, installed, serverPlugins)
  const pluginConfig = Object.fromEntries(
    enabled.map((manifest) => [manifest.id, effective.plugins[manifest.packageName ?? manifest.id]?.config as object | undefined]),
  )
  return { composition, serverPlugins, pluginConfig }
}
