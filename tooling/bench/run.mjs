#!/usr/bin/env node
// `npm run bench`: runs every suite under tooling/bench/suites (or the ones named) and prints figures.
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { sourceEnv } from "../scripts/lib.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "..", "..")
const wanted = process.argv.slice(2)
const suites = readdirSync(join(here, "suites"))
  .filter((f) => f.endsWith(".ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
let failed = 0
for (const suite of suites) {
  console.log(`\n=== ${suite} ===`)
  const result = spawnSync(process.execPath, ["--import", "tsx", join(here, "suites", suite)], { stdio: "inherit", cwd: root, env: sourceEnv() })
  if (result.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
