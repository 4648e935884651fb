/**
 * Key vault and TON key timings in Chromium with 4x CPU throttling (issue 6's bench line), plus the
 * TON chunk's gzip bytes when /scw opens.
 *
 * The page runs the vault and @ton/crypto as Vite bundles them for the app (KeyVault from
 * kernel/core/src/keyvault, `keysOf` from plugins/ton-space/src/ton/wallet.ts with its Buffer shim).
 * The device-key server is the vault's test double (kernel/core/src/keyvault/testing.ts) run in
 * Node and reached through a page binding, so its RSA-OAEP wrap (the server's work) is not charged
 * to the throttled page; the passcode check and the round trip are. Throttling comes from CDP
 * `Emulation.setCPUThrottlingRate`. Medians of 5 (after one untimed warm-up of each step).
 *
 *   npx tsx tooling/bench/suites/keyvault-browser.ts            # throttled x4 and x1, and the TON chunk
 *   npx tsx tooling/bench/suites/keyvault-browser.ts --no-size  # skip the TON chunk (it rebuilds the app)
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { extname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { chromium } from "playwright-core"
import { build } from "vite"
import { makeFakeDeviceKeyServer } from "../../../kernel/core/src/keyvault/testing.ts"

const repoRoot = join(import.meta.dirname, "..", "..", "..")
// effect as the kernel resolves it (the bench package has no dependencies of its own).
const effectEntry = realpathSync(createRequire(join(repoRoot, "kernel", "core", "package.json")).resolve("effect"))
const { Effect, Exit } = (await import(pathToFileURL(effectEntry).href)) as typeof import("effect")
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const RUNS = 5
const PASSCODE = "482915"
const SERVER_BIOMETRY_TOKEN = "bench-server-biometry-token-0123456789"
const withSize = !process.argv.includes("--no-size")

// 1. The page: the vault and the TON keys, bundled by Vite as for the app.
const work = mkdtempSync(join(tmpdir(), "wallet-keyvault-browser-"))
const src = (path: string) => JSON.stringify(join(repoRoot, path))
writeFileSync(
  join(work, "index.html"),
  `<!doctype html><html><head><meta charset="utf-8"><title>keyvault bench</title></head><body><script type="module" src="./entry.ts"></script></body></html>`,
)
writeFileSync(
  join(work, "entry.ts"),
  `
import { Effect, Layer } from ${JSON.stringify(effectEntry)}
import { BiometricManager, DeviceKeyServer, DeviceKeyUnavailable, ExternalIdNotFound, KeyVault, PasscodeRejected, VaultLogger, VaultStore, generateTransportKeyPair, toCredentials } from ${src("kernel/core/src/keyvault/index.ts")}
import { makeFakeBiometricManager, makeMemoryStore } from ${src("kernel/core/src/keyvault/testing.ts")}
import { ADDRESS, MNEMONIC, PRIVATE_KEY } from ${src("kernel/core/src/keyvault/fixtures.ts")}

type Answer = { ok: unknown } | { error: { _tag: string; code?: string; message: string; remainingAttempts?: number } }
const call = (method: "generate" | "get", request: unknown) =>
  Effect.flatMap(Effect.promise(() => (window as any).__deviceKeys(method, request) as Promise<Answer>), (answer) => {
    if ("ok" in answer) return Effect.succeed(answer.ok as any)
    const e = answer.error
    if (e._tag === "ExternalIdNotFound") return Effect.fail(new ExternalIdNotFound({ message: "externalId not found" }))
    if (e._tag === "PasscodeRejected") return Effect.fail(new PasscodeRejected({ code: e.code as any, message: e.message }))
    return Effect.fail(new DeviceKeyUnavailable({ message: e.message }))
  })

const time = async (run: () => Promise<unknown>) => {
  const start = performance.now()
  await run()
  return performance.now() - start
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

;(window as any).bench = async (runs: number, token: string) => {
  const biometry = makeFakeBiometricManager()
  const layer = KeyVault.layer().pipe(
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(DeviceKeyServer, DeviceKeyServer.of({ generate: (r) => call("generate", r), get: (r) => call("get", r) })),
        Layer.succeed(VaultStore, makeMemoryStore().service),
        Layer.succeed(BiometricManager, biometry.service),
        Layer.succeed(VaultLogger, VaultLogger.of({ info: () => undefined, report: () => undefined })),
      ),
    ),
  )
  const vault = await Effect.runPromise(Effect.provide(Effect.gen(function* () { return yield* KeyVault }), layer))
  const passcode = ${JSON.stringify(PASSCODE)}
  const credentials = toCredentials({ address: ADDRESS, mnemonic: MNEMONIC, privateKey: PRIVATE_KEY })
  const keygen: number[] = []
  for (let i = 0; i < 3; i++) keygen.push(await time(generateTransportKeyPair))
  // The first create also makes the page's transport key; the timed ones below reuse it.
  const firstCreate = await time(() => Effect.runPromise(vault.create({ credentials, passcode })))
  const create: number[] = []
  const unlock: number[] = []
  await Effect.runPromise(vault.unlockWithPasscode(passcode))
  for (let i = 0; i < runs; i++) {
    create.push(await time(() => Effect.runPromise(vault.create({ credentials, passcode }))))
    unlock.push(await time(() => Effect.runPromise(vault.unlockWithPasscode(passcode))))
  }
  await Effect.runPromise(vault.enableBiometry({ passcode, serverBiometryToken: token }))
  const deviceToken = biometry.state.token
  const unlockBiometry: number[] = []
  await Effect.runPromise(vault.unlockWithBiometry({ token: deviceToken }))
  for (let i = 0; i < runs; i++) unlockBiometry.push(await time(() => Effect.runPromise(vault.unlockWithBiometry({ token: deviceToken }))))
  // As in the app: the TON module is a lazy chunk (its Buffer shim runs before the TON libraries).
  await import(${src("plugins/ton-space/src/ton/buffer-shim.ts")})
  const { keysOf, newMnemonic } = await import(${src("plugins/ton-space/src/ton/wallet.ts")})
  const words = await newMnemonic()
  const keys: number[] = []
  const mnemonics: number[] = []
  await keysOf(words)
  for (let i = 0; i < runs; i++) keys.push(await time(() => keysOf(words)))
  for (let i = 0; i < runs; i++) mnemonics.push(await time(() => newMnemonic()))
  return {
    transportKeygenMs: median(keygen),
    firstCreateMs: firstCreate,
    createMs: median(create),
    unlockPasscodeMs: median(unlock),
    unlockBiometryMs: median(unlockBiometry),
    mnemonicToKeysMs: median(keys),
    newMnemonicMs: median(mnemonics),
  }
}
;(window as any).benchReady = true
`,
)
const dist = join(work, "dist")
await build({ root: work, configFile: false, logLevel: "silent", build: { outDir: dist, emptyOutDir: true, target: "es2022", modulePreload: false } })

const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" }
const server = createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0]!
  const file = path === "/" ? "index.html" : path
  try {
    const body = readFileSync(join(dist, file))
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" })
    res.end(body)
  } catch {
    res.writeHead(404).end()
  }
})
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const port = (server.address() as { port: number }).port

// 2. The device-key server double in Node, behind a page binding.
const deviceKeys = makeFakeDeviceKeyServer({ passcode: PASSCODE, biometryToken: SERVER_BIOMETRY_TOKEN, maxAttempts: 1_000_000 })
const answer = async (method: "generate" | "get", request: never) => {
  const exit = await Effect.runPromiseExit(deviceKeys.service[method](request))
  if (Exit.isSuccess(exit)) return { ok: exit.value }
  const failure = Exit.findErrorOption(exit)
  const error =
    failure._tag === "Some" ? (failure.value as { _tag: string; code?: string; message: string }) : { _tag: "DeviceKeyUnavailable", message: "defect" }
  return { error: { _tag: error._tag, code: error.code, message: error.message } }
}

type Figures = Record<string, number>
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
})
const measure = async (rate: number): Promise<Figures> => {
  const context = await browser.newContext()
  const page = await context.newPage()
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`))
  page.on("requestfailed", (request) => console.error(`request failed: ${request.url()}`))
  await page.exposeFunction("__deviceKeys", answer)
  await page.goto(`http://127.0.0.1:${port}/`)
  await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true, undefined, { timeout: 15_000 })
  const cdp = await context.newCDPSession(page)
  await cdp.send("Emulation.setCPUThrottlingRate", { rate })
  const figures = await page.evaluate(([runs, token]) => (window as unknown as { bench: (r: number, t: string) => Promise<Figures> }).bench(runs, token), [
    RUNS,
    SERVER_BIOMETRY_TOKEN,
  ] as const)
  await context.close()
  return figures
}

try {
  const version = browser.version()
  const throttled = await measure(4)
  const plain = await measure(1)
  const labels: Record<string, string> = {
    transportKeygenMs: "RSA-2048 transport key (once per page)",
    firstCreateMs: "first create (incl. transport key, 1 run)",
    createMs: "vault create (passcode)",
    unlockPasscodeMs: "vault unlock with passcode",
    unlockBiometryMs: "vault unlock with biometry token",
    mnemonicToKeysMs: "mnemonic to keys (@ton/crypto)",
    newMnemonicMs: "new 24-word mnemonic (@ton/crypto)",
  }
  console.log(`key vault in Chromium ${version} (medians of ${RUNS}; device-key server double in Node)`)
  console.log(`  ${"".padEnd(44)} ${"4x CPU".padStart(9)} ${"1x CPU".padStart(9)}`)
  for (const [key, label] of Object.entries(labels)) {
    console.log(`  ${label.padEnd(44)} ${`${throttled[key]!.toFixed(1)} ms`.padStart(9)} ${`${plain[key]!.toFixed(1)} ms`.padStart(9)}`)
  }
} finally {
  await browser.close()
  server.close()
  rmSync(work, { recursive: true, force: true })
}

// 3. The TON chunk's bytes when /scw opens: the figure of the ton-space size suite (one app build).
if (withSize) {
  const run = spawnSync(process.execPath, ["--import", "tsx", join(repoRoot, "tooling", "bench", "suites", "ton-space.ts")], {
    cwd: repoRoot,
    encoding: "utf8",
  })
  const line = run.stdout.split("\n").find((l) => l.includes("TON chunk loaded when /scw opens"))
  console.log(
    line
      ? `  ${line.trim()}  (gzip -9, from tooling/bench/suites/ton-space.ts)`
      : `  TON chunk: the ton-space suite failed (${run.status}): ${run.stderr.slice(0, 400)}`,
  )
}
