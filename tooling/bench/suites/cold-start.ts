/**
 * Cold start of the README's start command: from `node tooling/scripts/start.mjs` to the dev launch
 * page served (HTTP 200), on fresh data directories (devnet deploys its contracts, PGlite migrates),
 * then a warm start on the same data. Ports differ from the defaults so a running dev stack is fine.
 *
 *   npx tsx tooling/bench/suites/cold-start.ts
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = join(import.meta.dirname, "..", "..", "..")
const ports = { PORT: "18090", DEVNET_PORT: "18091", APP_PORT: "15173" }
const data = mkdtempSync(join(tmpdir(), "wallet-cold-"))

async function startOnce(label: string): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, [join(root, "tooling/scripts/start.mjs")], {
    cwd: root,
    env: { ...process.env, ...ports, WALLET_DATA_DIR: join(data, "pglite"), DEVNET_DATA_DIR: join(data, "devnet") },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout.on("data", (c: Buffer) => (output += c.toString()))
  child.stderr.on("data", (c: Buffer) => (output += c.toString()))
  const url = `http://127.0.0.1:${ports.APP_PORT}/launch.html`
  const deadline = Date.now() + 180_000
  let elapsed = -1
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const response = await fetch(url)
      if (response.ok) {
        elapsed = performance.now() - started
        break
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill("SIGINT")
  await new Promise((r) => child.once("exit", r))
  if (elapsed < 0) throw new Error(`${label}: the launch page was not served\n${output.slice(-2000)}`)
  return elapsed
}

try {
  const cold = await startOnce("cold")
  const warm = await startOnce("warm")
  console.log("start command to served launch page")
  console.log(`  cold (fresh data)  ${(cold / 1000).toFixed(2)} s`)
  console.log(`  warm (same data)   ${(warm / 1000).toFixed(2)} s`)
} finally {
  rmSync(data, { recursive: true, force: true })
}
