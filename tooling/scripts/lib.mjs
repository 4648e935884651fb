// Shared steps of the README's two commands: make sure pnpm, the dependencies and the
// system packages a step needs are present, then run workspace scripts.
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const pnpmScript = join(root, "tooling", "scripts", "pnpm.mjs")

/**
 * The environment for Node processes that run the workspace from its TypeScript sources: the
 * packages export built files and their sources under the `source` condition (decision 0110), and
 * NODE_OPTIONS carries the condition on to every process those start.
 */
export const sourceEnv = (env = process.env) => ({
  ...env,
  NODE_OPTIONS: [env.NODE_OPTIONS, "--conditions=source"].filter(Boolean).join(" "),
})

export function pnpm(args, options = {}) {
  const result = spawnSync(process.execPath, [pnpmScript, ...args], { stdio: "inherit", cwd: root, ...options })
  return result.status ?? 1
}

/** Installs workspace dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = join(root, "node_modules", ".modules.yaml")
  const lock = join(root, "pnpm-lock.yaml")
  const fresh = existsSync(marker) && existsSync(lock) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs
  if (fresh) return
  const ci = process.env.CI === "true"
  const status = pnpm(["install", ...(ci ? ["--frozen-lockfile"] : [])])
  if (status !== 0) throw new Error("pnpm install failed")
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0
let aptUpdated = false

/** Installs Debian packages when a binary is missing and we may (root with apt-get). */
export function ensureDebian(binary, packages) {
  if (existsSync(binary)) return true
  if (!isRoot || !existsSync("/usr/bin/apt-get")) {
    console.warn(`[setup] ${binary} is missing: install ${packages.join(" ")} (Debian) to run this step`)
    return false
  }
  console.log(`[setup] installing ${packages.join(" ")} from Debian`)
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  if (!aptUpdated) {
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env })
    aptUpdated = true
  }
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { stdio: "inherit", env })
  return existsSync(binary)
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** A PostgreSQL server binary from Debian (any major version), or the default path to install. */
export function postgresBinary() {
  const base = "/usr/lib/postgresql"
  if (existsSync(base)) {
    for (const version of readdirSync(base).sort().toReversed()) {
      const binary = `${base}/${version}/bin/postgres`
      if (existsSync(binary)) return binary
    }
  }
  return `${base}/15/bin/postgres`
}
