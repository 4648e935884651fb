/**
 * Few files before the first balance (decision 0012). Left to automatic chunking, the entry's static
 * imports and the first balance's modules came as about 50 files of 0.1 to 40 kB. On a reopen every one
 * of them is a preload the HTML parser requests on the main thread before it parses the skeleton: 320 ms
 * of a throttled profile's main thread went to those requests (`npm run bench -- first-load --trace`).
 * The bytes do not change, only how they are cut:
 *
 * - `boot`: every module the entry loads statically (Rolldown's `$initial` tag), one chunk per set of
 *   entries that share it (the dev launch page is the other entry);
 * - `first`: the static closure of the first balance's modules (first-balance-roots.ts) that the entry
 *   does not already hold; a route elsewhere that shares one of them loads this chunk, which a start on
 *   wallet main has already loaded;
 * - `first-<language>`: the first balance's strings, one chunk per language, so a launch fetches only
 *   its own language.
 */
import type { Plugin } from "vite"
import { isModule } from "./boot-paint.ts"
import type { FirstBalanceRoot } from "./first-balance-roots.ts"

/** The module graph as the build sees it. */
export interface ModuleGraph {
  readonly ids: Iterable<string>
  readonly importsOf: (id: string) => ReadonlyArray<string>
  readonly isEntry: (id: string) => boolean
  /** Whether some module imports it with `import()`: a split point stays out of the groups. */
  readonly isLoadedLater: (id: string) => boolean
}

/**
 * How the first balance's modules are cut: `names` gives `first` to the first balance's code (each root
 * and what it imports statically, minus the entry's own static closure) and `first-<language>` to each
 * language's strings (the roots that name `{lang}`); `elsewhere` holds what another entry (the dev
 * launch page) loads, which the groups leave to automatic chunking: a chunk runs every module it holds,
 * so nothing of the app's may run in the launch page.
 */
export const firstBalanceGroups = (
  graph: ModuleGraph,
  options: { readonly entry: string; readonly roots: ReadonlyArray<FirstBalanceRoot>; readonly languages: ReadonlyArray<string> },
): { readonly names: Map<string, string>; readonly elsewhere: ReadonlySet<string> } => {
  const ids = [...graph.ids]
  const closureOf = (starts: ReadonlyArray<string>) => {
    const seen = new Set<string>()
    const walk = (id: string) => {
      if (seen.has(id) || graph.isLoadedLater(id)) return
      seen.add(id)
      for (const dep of graph.importsOf(id)) walk(dep)
    }
    for (const id of starts) walk(id)
    return seen
  }
  const named = new Map<string, string>()
  const entries = ids.filter((id) => graph.isEntry(id))
  const others = closureOf(entries.filter((id) => !isModule(id, options.entry)))
  const boot = closureOf(entries.filter((id) => isModule(id, options.entry)))
  // What both entries load (Vite's modulepreload polyfill) gets a chunk of its own: left to automatic
  // chunking, Rolldown put it in the app's entry chunk, and the launch page then ran the app.
  for (const id of boot) if (others.has(id)) named.set(id, "shared")
  // A root is itself loaded with import(); below it the walk stops at other split points.
  const visit = (id: string, root: boolean) => {
    if (named.has(id) || boot.has(id) || others.has(id) || (!root && graph.isLoadedLater(id))) return
    named.set(id, "first")
    for (const dep of graph.importsOf(id)) visit(dep, false)
  }
  const { roots, languages } = options
  for (const root of roots) {
    const strings = root.module.includes("{lang}")
    for (const language of strings ? languages : languages.slice(0, 1)) {
      const path = root.module.replaceAll("{lang}", language)
      for (const id of ids.filter((candidate) => isModule(candidate, path))) {
        if (strings) named.set(id, `first-${language}`)
        else visit(id, true)
      }
    }
  }
  return { names: named, elsewhere: others }
}

/** `plugins: [firstBalanceChunks({ entry, roots, languages })]` in host/app/vite.config.ts. */
export function firstBalanceChunks(options: {
  /** The app's HTML entry from the repo root. */
  readonly entry: string
  readonly roots: ReadonlyArray<FirstBalanceRoot>
  readonly languages: ReadonlyArray<string>
}): Plugin {
  let groups: ReturnType<typeof firstBalanceGroups> = { names: new Map(), elsewhere: new Set() }
  return {
    name: "wallet-first-balance-chunks",
    apply: "build",
    config() {
      return {
        build: {
          rollupOptions: {
            output: {
              codeSplitting: {
                groups: [
                  // Rolldown's own view of what the entries load statically (it knows what tree-shaking dropped).
                  { debugName: "first balance", name: (id: string) => (groups.names.get(id) === "shared" ? "shared" : null), priority: 3 },
                  { name: "boot", tags: ["$initial" as const], test: (id: string) => !groups.elsewhere.has(id), priority: 2 },
                  { debugName: "first balance", name: (id: string) => groups.names.get(id) ?? null, priority: 1 },
                ],
              },
            },
          },
        },
      }
    },
    buildEnd() {
      groups = firstBalanceGroups(
        {
          ids: this.getModuleIds(),
          importsOf: (id) => this.getModuleInfo(id)?.importedIds ?? [],
          isEntry: (id) => this.getModuleInfo(id)?.isEntry === true,
          isLoadedLater: (id) => (this.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0,
        },
        options,
      )
    },
  }
}
