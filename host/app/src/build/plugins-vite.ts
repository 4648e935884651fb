/**
 * `virtual:wallet-plugins` (decision 0120): the app's installed plugins come from the region files.
 * At build (and dev-server start) this Vite plugin reads host/regions, resolves the `./manifest`
 * export of every package any region enables (Vite's resolver from host/regions, so the package's
 * `exports` and conditions decide), runs the kernel's `checkComposition` for each region (the same
 * check, with the same message, as the API server's boot) and generates a module importing those
 * manifests. The region is still picked at boot (`VITE_REGION`), so the app carries the union.
 */
import { runnerImport, defaultClientConditions, defaultServerConditions, type Plugin, type ResolvedConfig } from "vite"
import { resolve } from "node:path"
// Types only: the config loader cannot load the kernel's TypeScript; ./check.ts runs in Vite's module runner.
import type { InstalledPlugin, RegionConfig } from "@wallet/kernel"
import type * as Check from "./check.ts"

export const VIRTUAL_ID = "virtual:wallet-plugins"
const RESOLVED_VIRTUAL_ID = `\0${VIRTUAL_ID}`
const CHECK_ID = "virtual:wallet-plugins-check"

/** The package names the given regions enable, each once, in region-file order. */
export const enabledPackagesOf = (regions: ReadonlyArray<RegionConfig>): ReadonlyArray<string> => [
  ...new Set(
    regions.flatMap((region) =>
      Object.entries(region.plugins)
        .filter(([, entry]) => entry.enabled)
        .map(([name]) => name),
    ),
  ),
]

const CHECK_FILE = resolve(import.meta.dirname, "check.ts")

export interface ManifestEntry {
  readonly packageName: string
  /** The resolved `<package>/manifest` module. */
  readonly file: string
  /** Its export holding the manifest (`default` or the one `definePlugin(...)` export). */
  readonly exportName: string
}

/**
 * The generated module: each manifest imported by name from its resolved file (so the bundler
 * keeps only the manifest), tagged with its package name.
 */
export const virtualModuleCode = (entries: ReadonlyArray<ManifestEntry>): string =>
  [
    ...entries.map(
      (entry, i) => `import { ${entry.exportName === "default" ? "default" : entry.exportName} as plugin${i} } from ${JSON.stringify(entry.file)}`,
    ),
    `export const installedPlugins = [${entries.map((entry, i) => `{ ...plugin${i}, packageName: ${JSON.stringify(entry.packageName)} }`).join(", ")}]`,
    "",
  ].join("\n")

/** The export of a `./manifest` module that holds the manifest `manifestOfModule` picked. */
const exportNameOf = (module: Readonly<Record<string, unknown>>, manifest: InstalledPlugin): string =>
  Object.keys(module)
    .sort((a, b) => Number(b === "default") - Number(a === "default"))
    .find((key) => {
      const value = module[key] as { id?: unknown; kernel?: unknown } | null | undefined
      return typeof value === "object" && value !== null && value.id === manifest.id && value.kernel === manifest.kernel
    })!

/** `plugins: [walletPlugins({ regionsEntry })]` in host/app/vite.config.ts. */
export function walletPlugins(options: { readonly regionsEntry: string }): Plugin {
  let config: ResolvedConfig
  let entries: ReadonlyArray<ManifestEntry> = []
  // Custom conditions of the app (a source condition, say) apply to loading the manifests too.
  const runnerConfig = () => {
    const custom = config.resolve.conditions.filter((c) => !(defaultClientConditions as ReadonlyArray<string>).includes(c))
    const conditions = [...custom, ...defaultServerConditions]
    // runnerImport evaluates in its own "inline" environment, which takes neither `resolve` nor `ssr` conditions.
    return {
      configFile: false as const,
      root: config.root,
      logLevel: "error" as const,
      resolve: { conditions },
      ssr: { resolve: { conditions } },
      environments: { inline: { resolve: { conditions } } },
    }
  }
  return {
    name: "wallet-plugins",
    configResolved(resolved) {
      config = resolved
    },
    async buildStart() {
      const { module } = await runnerImport<{ regions: Readonly<Record<string, RegionConfig>> }>(options.regionsEntry, runnerConfig())
      const regions = Object.values(module.regions)
      const found: Array<{ packageName: string; file: string }> = []
      for (const packageName of enabledPackagesOf(regions)) {
        const resolved = await this.resolve(`${packageName}/manifest`, options.regionsEntry)
        if (resolved === null || resolved.external)
          this.error(`Plugin package '${packageName}' named in a region file has no resolvable './manifest' export from host/regions`)
        found.push({ packageName, file: resolved.id })
      }
      // Evaluate the manifests (pure data plus lazy imports) to run the composition check.
      const checkModule = [
        `export * from ${JSON.stringify(CHECK_FILE)}`,
        ...found.map((entry, i) => `import * as plugin${i} from ${JSON.stringify(entry.file)}`),
        `export const modules = [${found.map((_, i) => `plugin${i}`).join(", ")}]`,
      ].join("\n")
      const loaded = await runnerImport<typeof Check & { modules: ReadonlyArray<Record<string, unknown>> }>(CHECK_ID, {
        ...runnerConfig(),
        plugins: [
          {
            name: "wallet-plugins-check",
            resolveId: (id) => (id === CHECK_ID ? `\0${CHECK_ID}` : undefined),
            load: (id) => (id === `\0${CHECK_ID}` ? checkModule : undefined),
          },
        ],
      })
      const { checkAppComposition, manifestOfModule } = loaded.module
      const installed = loaded.module.modules.map((m, i) => manifestOfModule(m, found[i]!.packageName))
      entries = found.map((entry, i) => ({ ...entry, exportName: exportNameOf(loaded.module.modules[i]!, installed[i]!) }))
      try {
        checkAppComposition(regions, installed)
      } catch (error) {
        if (error instanceof Error && error.name === "CompositionError") this.error(error.message)
        throw error
      }
      for (const file of [options.regionsEntry, ...loaded.dependencies]) if (file.startsWith("/")) this.addWatchFile(file)
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_VIRTUAL_ID : undefined
    },
    load(id) {
      return id === RESOLVED_VIRTUAL_ID ? virtualModuleCode(entries) : undefined
    },
  }
}
