#!/usr/bin/env node
// `npm run bench`: runs every suite under tooling/bench/suites (or the ones named) and prints figures.
// `npm run bench -- <suite> [<suite>...] --flag ...`: the flags go to each named suite.
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { sourceEnv } from "../scripts/lib.mjs"
import { parseBenchArgs } from "./src/args.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "..", "..")
const files = readdirSync(join(here, "suites")).filter((f) => f.endsWith(".ts"))
const { suites, flags, unknown } = parseBenchArgs(process.argv.slice(2), files)
if (unknown.length > 0) {
  console.error(`no bench suite starts with: ${unknown.join(", ")} (suites: ${files.map((f) => f.replace(/\.ts$/, "")).join(", ")})`)
  process.exit(1)
}
let failed = 0
for (const suite of suites) {
  console.log(`\n=== ${suite}${flags.length > 0 ? ` ${flags.join(" ")}` : ""} ===`)
  const result = spawnSync(process.execPath, ["--import", "tsx", join(here, "suites", suite), ...flags], { stdio: "inherit", cwd: root, env: sourceEnv() })
  if (result.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
