// `npm run operator -- <command>`: the operator console's command line (kernel/server/src/operator/cli.ts,
// docs/decisions/0370-operator-console.md). Runs the TypeScript sources with tsx from the repo root.
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { root, sourceEnv } from "./lib.mjs"

const cli = join(root, "kernel", "server", "src", "operator", "cli.ts")
const result = spawnSync(process.execPath, ["--import", "tsx", cli, ...process.argv.slice(2)], { stdio: "inherit", cwd: root, env: sourceEnv() })
process.exit(result.status ?? 1)
