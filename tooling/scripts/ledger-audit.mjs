#!/usr/bin/env node
// The Ledger audit command (kernel/server/src/ledger/audit-cli.ts): exits 0 when every invariant
// holds, 1 on a violation, 2 when it cannot run. Options: --database-url, --data-dir, --json.
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { sourceEnv } from "./lib.mjs"

const root = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..")
const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "kernel/server/src/ledger/audit-cli.ts"), ...process.argv.slice(2)], {
  cwd: root,
  env: sourceEnv(),
  stdio: "inherit",
})
process.exit(result.status ?? 2)
