// Process entry: node --import tsx host/devnet/src/main.ts [--port 8091] [--host 127.0.0.1] [--data-dir dir] [--reset] [--block-ms 2000] [--global-id -239|-3]
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { startDevnet } from "./index.ts"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8091" },
    host: { type: "string", default: "127.0.0.1" },
    "data-dir": { type: "string", default: path.join(repoRoot, ".data/devnet") },
    reset: { type: "boolean", default: false },
    "block-ms": { type: "string", default: "2000" },
    "global-id": { type: "string", default: "-239" },
  },
  allowNegative: false,
  strict: true,
})

const globalId = Number(values["global-id"])
if (globalId !== -239 && globalId !== -3) {
  console.error("--global-id must be -239 or -3")
  process.exit(2)
}
const port = Number(values.port)
const blockMs = Number(values["block-ms"])
if (!Number.isInteger(port) || !Number.isInteger(blockMs) || blockMs < 0) {
  console.error("--port and --block-ms must be non-negative integers")
  process.exit(2)
}

const running = await startDevnet({
  port,
  host: values.host,
  dataDir: path.resolve(values["data-dir"]),
  reset: values.reset,
  blockMs,
  globalId,
})
console.log(`devnet ready http://${values.host}:${running.port}`)

let stopping = false
const stop = (signal: string) => {
  if (stopping) return
  stopping = true
  running
    .close()
    .then(() => process.exit(0))
    .catch((e: unknown) => {
      console.error(`devnet: failed to stop on ${signal}`, e)
      process.exit(1)
    })
}
process.on("SIGINT", () => stop("SIGINT"))
process.on("SIGTERM", () => stop("SIGTERM"))
