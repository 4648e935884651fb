/**
 * Which server modules to compose: the region file (`host/regions/<id>.ts`, default export
 * `{ id, plugins: { [pluginId]: { enabled, config? } } }`) names the enabled plugins; each may ship
 * a server module at `@wallet/plugin-<id>/server` (default export or `serverPlugin`, built with
 * `defineServerPlugin`). A plugin without one is client-only and contributes nothing here.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerPlugin } from "@wallet/kernel-server";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

interface RegionFile {
  readonly id: string;
  readonly plugins: Readonly<Record<string, { readonly enabled: boolean; readonly config?: object }>>;
}

/** The enabled plugin ids of a region, or undefined when there is no region file yet. */
export const enabledPluginsOfRegion = async (region: string): Promise<ReadonlyArray<string> | undefined> => {
  if (!/^[a-z0-9-]+$/.test(region)) throw new Error(`region id "${region}" is not a valid file name`);
  const file = join(repoRoot, "host", "regions", `${region}.ts`);
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { default?: RegionFile };
  const config = module.default;
  if (config === undefined || typeof config.plugins !== "object") throw new Error(`${file} must default-export { id, plugins }`);
  return Object.entries(config.plugins)
    .filter(([, entry]) => entry.enabled)
    .map(([id]) => id);
};

const isMissingModule = (error: unknown, specifier: string): boolean => {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : "";
  return (code === "ERR_MODULE_NOT_FOUND" || code === "ERR_PACKAGE_PATH_NOT_EXPORTED") && message.includes(specifier.split("/server")[0]!);
};

/** Loads the server modules of the given plugins; plugins without one are skipped. */
export const loadServerPlugins = async (pluginIds: ReadonlyArray<string>): Promise<ReadonlyArray<ServerPlugin>> => {
  const loaded: Array<ServerPlugin> = [];
  for (const id of pluginIds) {
    const specifier = `@wallet/plugin-${id}/server`;
    let module: { default?: ServerPlugin; serverPlugin?: ServerPlugin };
    try {
      module = (await import(specifier)) as typeof module;
    } catch (error) {
      if (isMissingModule(error, specifier)) continue;
      throw error;
    }
    const plugin = module.default ?? module.serverPlugin;
    if (plugin === undefined) throw new Error(`${specifier} must export its defineServerPlugin(...) as default or serverPlugin`);
    if (plugin.id !== id) throw new Error(`${specifier} declares id "${plugin.id}", expected "${id}"`);
    loaded.push(plugin);
  }
  return loaded;
};
