/**
 * What the browser fetches before wallet main's first balance, from the build's module graph
 * (`tooling/bench/suites/app-size.ts`), and the comparison with what a real Chromium load fetched
 * (`tooling/bench/src/app-load.ts`). Pure: the suites hand in the chunks and the sizes.
 *
 * Sizes are gzip bytes; kB are 1000 bytes, as Chromium's DevTools show them.
 */

// The list lives beside the build, which preloads the same modules (host/app/src/build/first-balance-roots.ts).
export { FIRST_BALANCE_ROOTS, rootsFor, type FirstBalanceRoot } from "../../../host/app/src/build/first-balance-roots.ts"
import type { FirstBalanceRoot } from "../../../host/app/src/build/first-balance-roots.ts"

/** A built chunk as the size suite records it. */
export interface GraphChunk {
  readonly file: string
  /** Absolute module ids. */
  readonly modules: ReadonlyArray<string>
  /** Static imports (chunk file names). */
  readonly imports: ReadonlyArray<string>
  /** CSS files the chunk brings. */
  readonly css: ReadonlyArray<string>
}

export interface FirstBalanceFiles {
  /** JS and CSS files, entry first. */
  readonly files: ReadonlyArray<string>
  /** Listed modules found in no chunk (a rename: the list must follow). */
  readonly missing: ReadonlyArray<string>
  /** Why each file is counted: "entry" or the listed module that brought it in first. */
  readonly via: ReadonlyMap<string, string>
}

/**
 * The entry chunk with its static imports, then each listed module's chunk with its static imports,
 * and the CSS all of them bring.
 */
export const firstBalanceFiles = (
  chunks: ReadonlyArray<GraphChunk>,
  entryFile: string,
  roots: ReadonlyArray<FirstBalanceRoot>,
  repoRoot: string,
): FirstBalanceFiles => {
  const byFile = new Map(chunks.map((c) => [c.file, c]))
  const js = new Set<string>()
  const via = new Map<string, string>()
  const add = (file: string, reason: string) => {
    if (js.has(file)) return
    js.add(file)
    via.set(file, reason)
    for (const dep of byFile.get(file)?.imports ?? []) add(dep, reason)
  }
  add(entryFile, "entry")
  const missing: Array<string> = []
  for (const root of roots) {
    const id = `${repoRoot}/${root.module}`
    const holders = chunks.filter((c) => c.modules.some((m) => m.replace(/^\0/, "").replace(/\?.*$/, "") === id))
    if (holders.length === 0) missing.push(root.module)
    for (const holder of holders) add(holder.file, root.module)
  }
  const css = new Set([...js].flatMap((f) => byFile.get(f)?.css ?? []))
  for (const file of css) if (!via.has(file)) via.set(file, [...js].find((f) => byFile.get(f)?.css.includes(file)) ?? "")
  return { files: [...js, ...css], missing, via }
}

/**
 * The files the document itself makes the browser fetch: `<script src>`, stylesheets, module
 * preloads and preloads on this origin, as paths without the leading slash (`assets/app-x.js`).
 */
export const documentReferences = (html: string): ReadonlyArray<string> => {
  const files = new Set<string>()
  for (const match of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attributes = match[2] ?? ""
    const rel = /\brel\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase()
    if (match[1]!.toLowerCase() === "link" && !["stylesheet", "modulepreload", "preload"].includes(rel ?? "")) continue
    const url = /\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]
    if (!url || /^[a-z]+:|^\/\//i.test(url)) continue
    files.add(url.replace(/^\.?\//, "").split(/[?#]/)[0]!)
  }
  return [...files]
}

/** A file fetched by the browser: its path on the server and its body bytes as received (gzip). */
export interface Fetched {
  readonly path: string
  readonly bytes: number
}

export interface LoadComparison {
  readonly graphBytes: number
  readonly browserBytes: number
  /** |browser - graph| / graph. */
  readonly difference: number
  /** More than `tolerance` apart. */
  readonly warn: boolean
  /** Fetched by the browser before the balance, not in the graph's list. */
  readonly onlyBrowser: ReadonlyArray<Fetched>
  /** In the graph's list, not fetched by the browser before the balance. */
  readonly onlyGraph: ReadonlyArray<Fetched>
}

/**
 * The graph's files against the browser's static files (`/assets/...`, the document excluded on
 * both sides by the caller or included on both), with the 5% warning of the size suite.
 */
export const compareLoads = (graph: ReadonlyArray<Fetched>, browser: ReadonlyArray<Fetched>, tolerance = 0.05): LoadComparison => {
  const graphBytes = graph.reduce((n, f) => n + f.bytes, 0)
  const browserBytes = browser.reduce((n, f) => n + f.bytes, 0)
  const graphPaths = new Set(graph.map((f) => f.path))
  const browserPaths = new Set(browser.map((f) => f.path))
  const difference = graphBytes === 0 ? (browserBytes === 0 ? 0 : 1) : Math.abs(browserBytes - graphBytes) / graphBytes
  return {
    graphBytes,
    browserBytes,
    difference,
    warn: difference > tolerance,
    onlyBrowser: browser.filter((f) => !graphPaths.has(f.path)),
    onlyGraph: graph.filter((f) => !browserPaths.has(f.path)),
  }
}

/** Bytes as kB of 1000 bytes (as Chromium's DevTools), one decimal. */
export const kB = (bytes: number): string => (bytes / 1000).toFixed(1)
