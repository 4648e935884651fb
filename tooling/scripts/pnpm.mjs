#!/usr/bin/env node
// Runs pnpm for the README's commands on a machine that has only Node 20 and npm:
// pnpm is installed into .tools/ on first use (no root, no global install, no corepack).
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const PNPM_VERSION = "12.21.0"
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const tools = join(root, ".tools")
const bin = join(tools, "node_modules", "pnpm", "bin", "pnpm.mjs")

if (!existsSync(bin)) {
  console.log(`[setup] installing pnpm ${PNPM_VERSION} into .tools/`)
  execFileSync("npm", ["install", "--prefix", tools, "--no-save", "--no-audit", "--no-fund", `pnpm@${PNPM_VERSION}`], {
    stdio: "inherit",
    cwd: root,
  })
}
const result = spawnSync(process.execPath, [bin, ...process.argv.slice(2)], { stdio: "inherit", cwd: root })
process.exit(result.status ?? 1)
