import { manifestOfModule, type InstalledPlugin, type RegionConfig } from "@wallet/kernel"
import defaultRegion from "./default.ts"
import eu from "./eu.ts"

/**
 * The region files. Each names its plugins by package name with their config; that is the only
 * list of plugins (decision 0120): the app build (`virtual:wallet-plugins`, host/app/src/build) and
 * the API server (host/server/src/plugins.ts) resolve the packages' `./manifest` and `./server`
 * exports from this package, so a plugin installed here from outside the repo works the same.
 */
export const regions: Readonly<Record<string, RegionConfig>> = { default: defaultRegion, eu }

export const regionById = (id: string): RegionConfig => {
  const region = regions[id]
  if (!region) throw new Error(`Unknown region '${id}' (known: ${Object.keys(regions).join(", ")})`)
  return region
}

/** The package names the given regions enable, each once, in region-file order. */
export const enabledPackages = (of: ReadonlyArray<RegionConfig>): ReadonlyArray<string> => [
  ...new Set(
    of.flatMap((region) =>
      Object.entries(region.plugins)
        .filter(([, entry]) => entry.enabled)
        .map(([name]) => name),
    ),
  ),
]

/**
 * Node only: the URL of a plugin package's export (`manifest`, `server`) by Node's ESM resolution
 * from this package (its `exports` and conditions), or undefined when the package does not export
 * that entry (a client-only plugin has no `./server`).
 */
export const resolvePluginEntry = (packageName: string, entry: "manifest" | "server"): string | undefined => {
  try {
    return import.meta.resolve(`${packageName}/${entry}`)
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_PACKAGE_PATH_NOT_EXPORTED" && entry !== "manifest") return undefined
    throw new Error(`Cannot resolve '${packageName}/${entry}' from host/regions: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

/** Node only (tests, the server): the manifests of the given packages, by their `./manifest` export. */
export const loadInstalledPlugins = async (
  packages: ReadonlyArray<string> = enabledPackages(Object.values(regions)),
): Promise<ReadonlyArray<InstalledPlugin>> =>
  Promise.all(
    packages.map(async (name) => manifestOfModule((await import(/* @vite-ignore */ resolvePluginEntry(name, "manifest")!)) as Record<string, unknown>, name)),
  )
