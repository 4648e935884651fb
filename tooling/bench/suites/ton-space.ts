/**
 * What the TON space costs the mini-app: builds host/app once and prints, gzip -9,
 *  - the chunks /scw loads (the wallet main route with its static imports) and the TON chunk it
 *    loads lazily (@ton/core, @ton/crypto, @ton/ton wallets: ton/wallet.ts);
 *  - any ton-space module that leaked into the first screen (wallet main /main): there must be
 *    none but the manifest, and no TON library;
 *  - mnemonic-to-keys time (PBKDF2 of @ton/crypto) and a W5R1 transfer signature in Node, medians of 7.
 *
 *   npx tsx tooling/bench/suites/ton-space.ts
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { build, type Plugin } from "vite"
import { identityOf, keysOf, newMnemonic, signTransfer } from "../../../plugins/ton-space/src/ton/wallet.ts"

const appRoot = join(import.meta.dirname, "..", "..", "..", "host", "app")
const outDir = mkdtempSync(join(tmpdir(), "wallet-ton-size-"))

interface ChunkInfo {
  readonly file: string
  readonly modules: ReadonlyArray<string>
  readonly imports: ReadonlyArray<string>
  readonly dynamicImports: ReadonlyArray<string>
  readonly isEntry: boolean
  readonly name: string
}
const chunks = new Map<string, ChunkInfo>()
const record: Plugin = {
  name: "record-chunks",
  generateBundle(_options, bundle) {
    for (const item of Object.values(bundle)) {
      if (item.type !== "chunk") continue
      chunks.set(item.fileName, {
        file: item.fileName,
        modules: item.moduleIds,
        imports: item.imports,
        dynamicImports: item.dynamicImports,
        isEntry: item.isEntry,
        name: item.name,
      })
    }
  },
}
await build({ root: appRoot, configFile: join(appRoot, "vite.config.ts"), logLevel: "silent", plugins: [record], build: { outDir, emptyOutDir: true } })

const gz = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`
const closure = (roots: ReadonlyArray<string>) => {
  const seen = new Set<string>()
  const add = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const dep of chunks.get(file)?.imports ?? []) add(dep)
  }
  roots.forEach(add)
  return seen
}
const byModule = (pattern: RegExp) => [...chunks.values()].filter((c) => c.modules.some((m) => pattern.test(m))).map((c) => c.file)
const entry = [...chunks.values()].find((c) => c.isEntry && c.name === "app")!
const first = closure([entry.file, ...byModule(/plugins\/home\/src\/client\/MainScreen\.tsx$/)])
const scw = closure(byModule(/plugins\/ton-space\/src\/client\/MainScreen\.tsx$/))
const scwOnly = [...scw].filter((f) => !first.has(f))
const tonChunks = [...closure(byModule(/plugins\/ton-space\/src\/ton\/wallet\.ts$/))].filter((f) => !first.has(f) && !scw.has(f))
const tonModules = (files: Iterable<string>) => [...files].flatMap((f) => chunks.get(f)!.modules).filter((m) => /node_modules\/.*@ton\//.test(m))
const leaked = [...first].flatMap((f) => chunks.get(f)!.modules).filter((m) => /plugins\/ton-space\/src\//.test(m) && !m.endsWith("manifest.ts"))

const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(f), 0)
console.log("TON space size (gzip -9)")
console.log(`  /scw route beyond the first screen   ${kb(sum(scwOnly)).padStart(9)}  (${scwOnly.length} chunks)`)
console.log(
  `  TON chunk loaded when /scw opens      ${kb(sum(tonChunks)).padStart(9)}  (${tonChunks.length} chunks, ${tonModules(tonChunks).length} @ton modules)`,
)
for (const file of tonChunks) console.log(`      ${kb(gz(file)).padStart(9)}  ${file}`)
console.log(`  TON libraries in the first screen: ${tonModules(first).length === 0 ? "none" : tonModules(first).length}`)
console.log(`  ton-space modules in the first screen (besides the manifest): ${leaked.length === 0 ? "none" : leaked.join(", ")}`)
rmSync(outDir, { recursive: true, force: true })

const median = async (run: () => Promise<unknown> | unknown, times = 7) => {
  const samples: Array<number> = []
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    await run()
    samples.push(performance.now() - start)
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)]!
}
const words = await newMnemonic()
const keys = await keysOf(words)
const friend = identityOf(keys.publicKey, "v4r2", "mainnet")
const { Address } = await import("../../../plugins/ton-space/src/ton/wallet.ts")
console.log(`  new 24-word mnemonic (Node)           ${(await median(() => newMnemonic())).toFixed(1).padStart(7)} ms`)
console.log(`  mnemonic to keys (Node)               ${(await median(() => keysOf(words))).toFixed(1).padStart(7)} ms`)
console.log(
  `  sign a W5R1 transfer (Node)           ${(await median(() => signTransfer({ keys, walletClass: "v5r1", network: "mainnet", seqno: 1, deployed: true, messages: [{ to: Address.parse(friend.raw), value: 1n, bounce: false }] }))).toFixed(1).padStart(7)} ms`,
)
