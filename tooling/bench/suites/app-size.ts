/**
 * Bytes before wallet main's first balance: builds host/app and counts, from the build's module
 * graph, everything a signed-in user with balances fetches before the total shows — the document,
 * the entry with its static imports, and the chunks of the dynamic imports on that path, listed in
 * `FIRST_BALANCE_ROOTS` (tooling/bench/src/first-balance.ts: the main route, the launch language's
 * strings, the custody contract, the rows...), with their CSS — in gzip -9 bytes (kB = 1000 bytes,
 * as the browser counts). Then, as a cross-check, one real Chromium load of the same build
 * (`tooling/bench/src/serve-app.ts`, throttled as in issue 17) sums the body bytes the app's frame received
 * before a digit showed in the total, names the files only one side has, and warns when the two
 * figures differ by more than 5%. Also the whole build and each library's share.
 *
 * Fails (exit 1) above the budget of 210 kB, with TON code before the balance, with Effect Schema on
 * the boot path (entry and main route), or when a listed module is in no chunk (decisions 0003, 0009).
 *
 *   npm run bench -- app-size [--modules] [--no-browser]
 *
 * `--modules` also lists the heaviest modules (gzip of each module's rendered code alone: an upper
 * bound of what dropping it saves, since gzip shares context inside a chunk). `--no-browser` skips
 * the Chromium cross-check.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { build, minifySync, type Plugin } from "vite"
import { compareLoads, documentReferences, firstBalanceFiles, kB, rootsFor, type Fetched } from "../src/first-balance.ts"
import { FIRST_SCREEN_BUDGET_KB, libraryOf, sharesOf, verdictOf } from "../src/first-screen.ts"

const withBrowser = !process.argv.includes("--no-browser")
// The browser cross-check starts the API server from its TypeScript sources (decision 0110).
const sourceCondition = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => a.includes("conditions=source"))
if (withBrowser && !sourceCondition) {
  const rerun = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", import.meta.filename, ...process.argv.slice(2)], {
    stdio: "inherit",
    cwd: join(import.meta.dirname, "..", "..", ".."),
  })
  process.exit(rerun.status ?? 1)
}

const appRoot = join(import.meta.dirname, "..", "..", "..", "host", "app")
const outDir = mkdtempSync(join(tmpdir(), "wallet-size-"))

interface ChunkInfo {
  readonly file: string
  readonly modules: ReadonlyArray<string>
  readonly imports: ReadonlyArray<string>
  readonly dynamicImports: ReadonlyArray<string>
  readonly css: ReadonlyArray<string>
  readonly isEntry: boolean
  readonly name: string
  /** Rendered code per module id. */
  readonly code: ReadonlyMap<string, string>
}
const chunks = new Map<string, ChunkInfo>()
const record: Plugin = {
  name: "record-chunks",
  generateBundle(_options, bundle) {
    for (const item of Object.values(bundle)) {
      if (item.type !== "chunk") continue
      const css = [...((item as { viteMetadata?: { importedCss?: Set<string> } }).viteMetadata?.importedCss ?? [])]
      chunks.set(item.fileName, {
        file: item.fileName,
        modules: item.moduleIds,
        imports: item.imports,
        dynamicImports: item.dynamicImports,
        css,
        isEntry: item.isEntry,
        name: item.name,
        code: new Map(Object.entries(item.modules).map(([id, module]) => [id, module.code ?? ""])),
      })
    }
  },
}

await build({ root: appRoot, configFile: join(appRoot, "vite.config.ts"), logLevel: "silent", plugins: [record], build: { outDir, emptyOutDir: true } })

// What the served build sends (tooling/bench/src/serve-app.ts): gzip -9, or the file itself when smaller.
const gz = (file: string) => {
  const body = readFileSync(join(outDir, file))
  return Math.min(body.length, gzipSync(body, { level: 9 }).length)
}
const entry = [...chunks.values()].find((c) => c.isEntry && c.name === "app")
if (!entry) throw new Error("no app entry chunk")

// The boot path (decision 0003's Schema rule): the entry with its static imports and the main route's chunks.
const firstScreen = new Set<string>()
const addStatic = (file: string) => {
  if (firstScreen.has(file)) return
  firstScreen.add(file)
  for (const dep of chunks.get(file)?.imports ?? []) addStatic(dep)
}
addStatic(entry.file)
const byModule = (pattern: RegExp) => [...chunks.values()].filter((c) => c.modules.some((m) => pattern.test(m)))
for (const chunk of [
  ...byModule(/plugins\/home\/src\/client\/MainScreen\.tsx$/),
  ...byModule(/plugins\/home\/src\/i18n\/en\.json$/),
  ...byModule(/host\/app\/src\/i18n\/en\.json$/),
])
  addStatic(chunk.file)

// Everything fetched before the first balance (launch language en), from the module graph.
const root = join(appRoot, "..", "..")
const graph = firstBalanceFiles([...chunks.values()], entry.file, rootsFor("en"), root)
// Whatever the document itself loads or preloads is fetched too, needed or not.
const referenced = documentReferences(readFileSync(join(outDir, "index.html"), "utf8"))
const preloadedOnly = referenced.filter((f) => !graph.files.includes(f))
const balanceFiles = [...graph.files, ...preloadedOnly]
const balanceJs = balanceFiles.filter((f) => f.endsWith(".js"))
const css = new Set(balanceFiles.filter((f) => f.endsWith(".css")))
const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(f), 0)
const kb = kB
const documentBytes = gz("index.html")
const firstJs = sum(balanceJs)
const firstCss = sum(css)
const firstTotal = documentBytes + firstJs + firstCss
const allFiles = readdirSync(join(outDir, "assets")).map((f) => `assets/${f}`)
const launchOnly = [...chunks.values()].filter((c) => c.isEntry && c.name === "launch").map((c) => c.file)
const wholeJs = sum(allFiles.filter((f) => f.endsWith(".js") && !launchOnly.includes(f)))
const wholeCss = sum(allFiles.filter((f) => f.endsWith(".css")))
const tonInFirst = balanceJs
  .flatMap((f) => chunks.get(f)?.modules ?? [])
  .filter((m) => /node_modules\/.*@ton(-community)?\/|node_modules\/.*@tonconnect\//.test(m))
const bootModules = [...firstScreen].flatMap((f) => chunks.get(f)?.modules ?? [])
const firstModules = balanceJs.flatMap((f) => [...(chunks.get(f)?.code ?? new Map<string, string>())].map(([id, code]) => ({ id, code })))
const schemaInFirst = bootModules.filter((id) => libraryOf(id, root) === "effect Schema")
// Module code is rendered before the chunk is minified: minify each library's code the same way first.
const minified = (text: string) => {
  const result = minifySync("library.js", text, { compress: false, mangle: true })
  return result.errors.length === 0 ? result.code : text
}
const shares = sharesOf(firstModules, root, firstJs, (text) => gzipSync(minified(text), { level: 9 }).length)
const verdict = verdictOf({ totalBytes: firstTotal, tonModules: tonInFirst.length, schemaModules: schemaInFirst.length })

console.log("mini-app bytes before wallet main's first balance (module graph, gzip -9, kB = 1000 bytes)")
console.log(`  document (index.html)  ${kb(documentBytes).padStart(7)} kB`)
console.log(`  JS                     ${kb(firstJs).padStart(7)} kB  (${balanceJs.length} chunks)`)
console.log(`  CSS                    ${kb(firstCss).padStart(7)} kB  (${css.size} files)`)
console.log(
  `  before first balance   ${kb(firstTotal).padStart(7)} kB  budget ${FIRST_SCREEN_BUDGET_KB} kB  ${verdict.problems.some((p) => p.includes("budget")) ? "OVER" : "OK"}`,
)
const bootCss = new Set([...firstScreen].flatMap((f) => chunks.get(f)?.css ?? []))
for (const file of preloadedOnly) console.log(`    referenced by the document, not on the listed path: ${file} ${kb(gz(file))} kB`)
console.log(
  `  of which the boot path ${kb(documentBytes + sum(firstScreen) + sum(bootCss)).padStart(7)} kB  (document, entry, main route, strings: the pre-issue-17 count without the document)`,
)
console.log(`  whole build JS         ${kb(wholeJs).padStart(7)} kB`)
console.log(`  whole build CSS        ${kb(wholeCss).padStart(7)} kB`)
console.log(`  TON libraries before the first balance: ${tonInFirst.length === 0 ? "none" : tonInFirst.length + " modules"}`)
console.log(`  Effect Schema on the boot path (entry, main route): ${schemaInFirst.length === 0 ? "none" : schemaInFirst.length + " modules"}`)
console.log("  JS before the first balance by library (minified + gzip per library, scaled to the JS total)")
for (const share of shares)
  console.log(`    ${kb(share.bytes).padStart(7)} kB  ${((share.bytes / firstJs) * 100).toFixed(1).padStart(5)}%  ${share.library}  (${share.modules} modules)`)
console.log(`    ${kb(firstCss).padStart(7)} kB         CSS`)
console.log("  heaviest chunks before the first balance")
const heaviest = balanceJs
  .map((f) => [f, gz(f)] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 5)
for (const [file, size] of heaviest) console.log(`    ${kb(size).padStart(7)} kB  ${file}`)
if (process.argv.includes("--modules")) {
  const modules = firstModules
    .map(
      ({ id, code }) =>
        [id.replace(root + "/", "").replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, ""), gzipSync(code, { level: 9 }).length] as const,
    )
    .sort((a, b) => b[1] - a[1])
  console.log("  heaviest modules before the first balance (gzip alone)")
  for (const [id, size] of modules.slice(0, 40)) console.log(`    ${kb(size).padStart(7)} kB  ${id}`)
}

// The cross-check: one real load of this build in Chromium (throttled: 150 ms, 1.6 Mbit/s, 4x CPU), bytes before the balance.
const graphFetched: Array<Fetched> = [
  { path: "/index.html", bytes: documentBytes },
  ...[...balanceJs, ...css].map((file) => ({ path: `/${file}`, bytes: gz(file) })),
]
if (withBrowser) {
  try {
    const browserFetched = await browserLoad(outDir)
    const comparison = compareLoads(graphFetched, browserFetched)
    console.log(
      `  cross-check, Chromium throttled (body bytes received before a digit showed in the total): ${kb(comparison.browserBytes)} kB in ${browserFetched.length} files` +
        ` (graph ${kb(comparison.graphBytes)} kB in ${graphFetched.length}; ${(comparison.difference * 100).toFixed(1)}% apart)`,
    )
    for (const f of comparison.onlyBrowser) console.log(`    fetched, not in the graph's list: ${f.path} ${kb(f.bytes)} kB`)
    for (const f of comparison.onlyGraph)
      console.log(
        `    in the graph's list, not fetched before the balance: ${f.path} ${kb(f.bytes)} kB (via ${graph.via.get(f.path.slice(1)) ?? "the document"})`,
      )
    if (comparison.warn)
      console.warn(`  WARNING: the graph and the browser differ by more than 5%: follow the list in tooling/bench/src/first-balance.ts (FIRST_BALANCE_ROOTS)`)
  } catch (error) {
    console.warn(`  WARNING: the browser cross-check failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
rmSync(outDir, { recursive: true, force: true })
const problems = [
  ...verdict.problems,
  ...graph.missing.map((m) => `${m} (FIRST_BALANCE_ROOTS) is in no chunk of the build: follow the rename in tooling/bench/src/first-balance.ts`),
]
for (const problem of problems) console.error(`  FAIL: ${problem}`)
process.exit(problems.length === 0 ? 0 : 1)

/** The static files the app's frame received before the balance, in one load of `dist` on issue 17's slow profile. */
async function browserLoad(dist: string): Promise<Array<Fetched>> {
  const { chromium } = await import("playwright-core")
  const { startServer } = await import("../../../host/server/src/index.ts")
  const { serveApp } = await import("../src/serve-app.ts")
  const { CHEAP_PHONE, demoUserId, newDevice, openWalletMain, staticFetches } = await import("../src/app-load.ts")
  const { CHROMIUM, CHROMIUM_ARGS } = await import("../../testkit/src/browser.ts")
  const api = await startServer({ port: 0, dev: true, dataDir: "memory", rateLimits: false })
  const app = await serveApp({ distDir: dist, apiUrl: api.url })
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  try {
    const context = await newDevice(browser)
    const { figures } = await openWalletMain(
      context,
      { appUrl: app.url, apiUrl: api.url },
      { userId: await demoUserId(api.url, "balances"), throttle: CHEAP_PHONE },
    )
    await context.close()
    return staticFetches(figures, app.url).map((f) => ({ path: f.path, bytes: f.bytes }))
  } finally {
    await browser.close()
    await app.close()
    await api.close()
  }
}
