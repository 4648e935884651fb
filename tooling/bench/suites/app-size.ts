/**
 * First-screen weight of the mini-app: builds host/app and reports the gzip size of the JS and CSS
 * the first screen (wallet main) loads — the entry, its static imports, the main route's chunk and
 * the i18n bundles it needs — and of the whole build, with each library's share of the first screen.
 * Fails (exit 1) above the budget of 210 kB gzip JS+CSS, or with TON code or Effect Schema on the first
 * screen (docs/decisions/0003, revised for issue 13).
 *
 *   npx tsx tooling/bench/suites/app-size.ts [--modules]
 *
 * `--modules` also lists the first screen's heaviest modules (gzip of each module's rendered code
 * alone: an upper bound of what dropping it saves, since gzip shares context inside a chunk).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { build, minifySync, type Plugin } from "vite"
import { FIRST_SCREEN_BUDGET_KB, libraryOf, sharesOf, verdictOf } from "../src/first-screen.ts"

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

const gz = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length
const entry = [...chunks.values()].find((c) => c.isEntry && c.name === "app")
if (!entry) throw new Error("no app entry chunk")

// The first screen: the entry with its static imports, then the chunks the main route pulls in.
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
const css = new Set([...firstScreen].flatMap((f) => chunks.get(f)?.css ?? []))

const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(f), 0)
const kb = (bytes: number) => (bytes / 1024).toFixed(1)
const firstJs = sum(firstScreen)
const firstCss = sum(css)
const allFiles = readdirSync(join(outDir, "assets")).map((f) => `assets/${f}`)
const launchOnly = [...chunks.values()].filter((c) => c.isEntry && c.name === "launch").map((c) => c.file)
const wholeJs = sum(allFiles.filter((f) => f.endsWith(".js") && !launchOnly.includes(f)))
const wholeCss = sum(allFiles.filter((f) => f.endsWith(".css")))
const tonInFirst = [...firstScreen]
  .flatMap((f) => chunks.get(f)!.modules)
  .filter((m) => /node_modules\/.*@ton(-community)?\/|node_modules\/.*@tonconnect\//.test(m))
const root = join(appRoot, "..", "..")
const firstModules = [...firstScreen].flatMap((f) => [...(chunks.get(f)?.code ?? new Map<string, string>())].map(([id, code]) => ({ id, code })))
const schemaInFirst = firstModules.filter((m) => libraryOf(m.id, root) === "effect Schema")
// Module code is rendered before the chunk is minified: minify each library's code the same way first.
const minified = (text: string) => {
  const result = minifySync("library.js", text, { compress: false, mangle: true })
  return result.errors.length === 0 ? result.code : text
}
const shares = sharesOf(firstModules, root, firstJs, (text) => gzipSync(minified(text), { level: 9 }).length)
const verdict = verdictOf({ totalBytes: firstJs + firstCss, tonModules: tonInFirst.length, schemaModules: schemaInFirst.length })

console.log("mini-app size (gzip -9)")
console.log(`  first screen JS   ${kb(firstJs).padStart(7)} kB  (${firstScreen.size} chunks)`)
console.log(`  first screen CSS  ${kb(firstCss).padStart(7)} kB  (${css.size} files)`)
console.log(
  `  first screen      ${kb(firstJs + firstCss).padStart(7)} kB  budget ${FIRST_SCREEN_BUDGET_KB} kB  ${firstJs + firstCss <= FIRST_SCREEN_BUDGET_KB * 1024 ? "OK" : "OVER"}`,
)
console.log(`  whole build JS    ${kb(wholeJs).padStart(7)} kB`)
console.log(`  whole build CSS   ${kb(wholeCss).padStart(7)} kB`)
console.log(`  TON libraries in first screen: ${tonInFirst.length === 0 ? "none" : tonInFirst.length + " modules"}`)
console.log(`  Effect Schema in first screen: ${schemaInFirst.length === 0 ? "none" : schemaInFirst.length + " modules"}`)
console.log("  first screen JS by library (minified + gzip per library, scaled to the JS total)")
for (const share of shares)
  console.log(`    ${kb(share.bytes).padStart(7)} kB  ${((share.bytes / firstJs) * 100).toFixed(1).padStart(5)}%  ${share.library}  (${share.modules} modules)`)
console.log(`    ${kb(firstCss).padStart(7)} kB         CSS`)
console.log("  heaviest first-screen chunks")
const heaviest = [...firstScreen]
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
  console.log("  heaviest first-screen modules (gzip alone)")
  for (const [id, size] of modules.slice(0, 40)) console.log(`    ${kb(size).padStart(7)} kB  ${id}`)
}
rmSync(outDir, { recursive: true, force: true })
for (const problem of verdict.problems) console.error(`  FAIL: ${problem}`)
process.exit(verdict.ok ? 0 : 1)
