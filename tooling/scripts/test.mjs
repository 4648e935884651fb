#!/usr/bin/env node
// The README's test command: typecheck, lint, unit tests, then the browser tests in Chromium.
import { CHROMIUM, ensureDebian, ensureDependencies, pnpm, postgresBinary } from "./lib.mjs"

ensureDependencies()
const hasChromium = ensureDebian(CHROMIUM, ["chromium"])
// The server suite runs on PGlite and on a throwaway PostgreSQL cluster.
ensureDebian(postgresBinary(), ["postgresql"])

const steps = [
  ["typecheck", ["run", "typecheck"]],
  ["lint", ["run", "lint"]],
  ["unit tests", ["run", "test:unit"]],
  // Builds the mini-app first, then runs the browser tests against that build.
  ["browser tests", ["run", "test:e2e"]],
]
for (const [name, args] of steps) {
  if (name === "browser tests" && !hasChromium) {
    console.error("[test] Chromium is required for the browser tests")
    process.exit(1)
  }
  console.log(`\n[test] ${name}`)
  const status = pnpm(args)
  if (status !== 0) {
    console.error(`[test] ${name} failed`)
    process.exit(status)
  }
}
console.log("\n[test] all steps passed")
