/**
 * Which server modules to compose: the region file (`host/regions/<id>.ts`, default export
 * `{ id, plugins: { [pluginId]: { enabled, config? } } }`) names the enabled plugins; each may ship
 * a server module as its package's `./server` export (`@wallet/plugin-<id>/server`: default export
 * or `serverPlugin`, built with `defineServerPlugin`). A plugin without one is client-only and
 * contributes nothing here. Plugins are found in the workspace (`plugins/<id>`), so host/server
 * needs no dependency per plugin.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerPlugin } from "@wallet/kernel-server";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

interface RegionFile {
  readonly id: string;
  readonly plugins: Readonly<Record<string, { readonly enabled: boolean; readonly config?: object }>>;
}

export interface EnabledPlugin {
  readonly id: string;
  readonly config: object | undefined;
}

/** The enabled plugin ids of a region, or undefined when there is no region file yet. */
export const enabledPluginsOfRegion = async (region: string): Promise<ReadonlyArray<string> | undefined> =>
  (await enabledPluginEntriesOfRegion(region))?.map((entry) => entry.id);

/** The enabled plugins of a region with their config, or undefined when there is no region file. */
export const enabledPluginEntriesOfRegion = async (region: string): Promise<ReadonlyArray<EnabledPlugin> | undefined> => {
  if (!/^[a-z0-9-]+$/.test(region)) throw new Error(`region id "${region}" is not a valid file name`);
  const file = join(repoRoot, "host", "regions", `${region}.ts`);
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { default?: RegionFile };
  const config = module.default;
  if (config === undefined || typeof config.plugins !== "object") throw new Error(`${file} must default-export { id, plugins }`);
  return Object.entries(config.plugins)
    .filter(([, entry]) => entry.enabled)
    .map(([id, entry]) => ({ id, config: entry.config }));
};

type ExportTarget = string | { readonly import?: string; readonly default?: string } | undefined;

/** The file a plugin package exports as `./server`, or undefined for a client-only plugin. */
const serverEntryOf = (pluginId: string): string | undefined => {
  const packageFile = join(repoRoot, "plugins", pluginId, "package.json");
  if (!existsSync(packageFile)) {
    throw new Error(`plugin "${pluginId}" is enabled but plugins/${pluginId}/package.json does not exist`);
  }
  const manifest = JSON.parse(readFileSync(packageFile, "utf8")) as { exports?: Record<string, ExportTarget> };
  const target = manifest.exports?.["./server"];
  const file = typeof target === "string" ? target : (target?.import ?? target?.default);
  return file === undefined ? undefined : join(repoRoot, "plugins", pluginId, file);
};

/**
 * Loads the server modules of the given plugins from the workspace (`plugins/<id>`, its package's
 * `./server` export); plugins without one are client-only and skipped.
 */
export const loadServerPlugins = async (pluginIds: ReadonlyArray<string>): Promise<ReadonlyArray<ServerPlugin>> => {
  const loaded: Array<ServerPlugin> = [];
  for (const id of pluginIds) {
    const entry = serverEntryOf(id);
    if (entry === undefined) continue;
    const module = (await import(pathToFileURL(entry).href)) as { default?: ServerPlugin; serverPlugin?: ServerPlugin };
    const plugin = module.default ?? module.serverPlugin;
    const specifier = `@wallet/plugin-${id}/server`;
    if (plugin === undefined) throw new Error(`${specifier} must export its defineServerPlugin(...) as default or serverPlugin`);
    if (plugin.id !== id) throw new Error(`${specifier} declares id "${plugin.id}", expected "${id}"`);
    loaded.push(plugin);
  }
  return loaded;
};
