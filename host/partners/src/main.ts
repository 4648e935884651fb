/**
 * Process entry: `node --import tsx host/partners/src/main.ts [--port N] [--host H] [--data-dir D]`.
 * Env: SUMSUB_PORT, SUMSUB_WEBHOOK_URL (default the dev API server's Sumsub webhook), SUMSUB_CHAOS
 * (`duplicate=0.2,reorder=0.2` by default in dev; `none` for none), SUMSUB_RETRY_DELAYS_MS (comma list;
 * dev default 2 s, 10 s, 1 min, 5 min), PARTNERS_DATA_DIR (the sandbox uses `<dir>/sumsub`).
 */
import path from "node:path"
import { parseArgs } from "node:util"
import { DEFAULT_SUMSUB_PORT, startSumsubSandbox, type Chaos } from "./index.ts"

const DEV_WEBHOOK_URL = "http://127.0.0.1:8090/api/kyc/webhooks/sumsub"
const DEV_CHAOS = "duplicate=0.2,reorder=0.2"
const DEV_RETRY_DELAYS_MS = "2000,10000,60000,300000"

const fail = (message: string): never => {
  console.error(`sumsub: ${message}`)
  process.exit(2)
}

const parseChaos = (text: string): Chaos => {
  const chaos: Chaos = {}
  if (text.trim() === "" || text.trim() === "none") return chaos
  for (const part of text.split(",")) {
    const [key, value] = part.split("=").map((s) => s.trim())
    const p = Number(value)
    if ((key !== "duplicate" && key !== "reorder") || value === undefined || value === "" || !(p >= 0 && p <= 1)) {
      return fail(`SUMSUB_CHAOS: expected duplicate=<0..1>,reorder=<0..1>, got "${part}"`)
    }
    chaos[key] = p
  }
  return chaos
}

const parseDelays = (text: string): number[] =>
  text
    .split(",")
    .filter((s) => s.trim() !== "")
    .map((s) => {
      const ms = Number(s)
      return Number.isInteger(ms) && ms >= 0 ? ms : fail(`SUMSUB_RETRY_DELAYS_MS: "${s}" is not a whole number of milliseconds`)
    })

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env["SUMSUB_PORT"] ?? String(DEFAULT_SUMSUB_PORT) },
    host: { type: "string", default: "127.0.0.1" },
    "data-dir": { type: "string" },
  },
  strict: true,
})

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail("--port must be a port number")
const partnersDir = values["data-dir"] ?? process.env["PARTNERS_DATA_DIR"]
const webhookUrl = process.env["SUMSUB_WEBHOOK_URL"] ?? DEV_WEBHOOK_URL

const running = await startSumsubSandbox({
  port,
  host: values.host,
  ...(partnersDir ? { dataDir: path.join(path.resolve(partnersDir), "sumsub") } : {}),
  ...(webhookUrl ? { webhookUrl } : {}),
  chaos: parseChaos(process.env["SUMSUB_CHAOS"] ?? DEV_CHAOS),
  retryDelaysMs: parseDelays(process.env["SUMSUB_RETRY_DELAYS_MS"] ?? DEV_RETRY_DELAYS_MS),
  log: (line) => console.log(line),
})
console.log(`sumsub ready ${running.url}`)

let stopping = false
const stop = (signal: string): void => {
  if (stopping) return
  stopping = true
  running
    .close()
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(`sumsub: failed to stop on ${signal}`, error)
      process.exit(1)
    })
}
process.on("SIGINT", () => stop("SIGINT"))
process.on("SIGTERM", () => stop("SIGTERM"))
