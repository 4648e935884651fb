/**
 * Process entry: `node --import tsx host/partners/src/main.ts [--port N] [--host H] [--data-dir D]`.
 * Env: SUMSUB_PORT, SUMSUB_WEBHOOK_URL (default the dev API server's Sumsub webhook), SUMSUB_CHAOS
 * (`duplicate=0.2,reorder=0.2` by default in dev; `none` for none), SUMSUB_RETRY_DELAYS_MS (comma list;
 * dev default 2 s, 10 s, 1 min, 5 min), PARTNERS_DATA_DIR (the sandbox uses `<dir>/sumsub`).
 * It starts the ramp sandbox (MoonPay-like and Mercuryo-like) too: RAMP_PORT (8093), RAMP_MOONPAY_WEBHOOK_URL,
 * RAMP_MERCURYO_WEBHOOK_URL (defaults: the dev API server's ramp webhooks), RAMP_CHAOS, RAMP_RETRY_DELAYS_MS
 * (same forms and defaults as Sumsub's), its PGlite in `<dir>/ramp`.
 */
import path from "node:path"
import { parseArgs } from "node:util"
import { DEFAULT_RAMP_PORT, DEFAULT_SUMSUB_PORT, startRampSandbox, startSumsubSandbox, type Chaos } from "./index.ts"

const DEV_WEBHOOK_URL = "http://127.0.0.1:8090/api/kyc/webhooks/sumsub"
const DEV_CHAOS = "duplicate=0.2,reorder=0.2"
const DEV_RETRY_DELAYS_MS = "2000,10000,60000,300000"
const DEV_RAMP_WEBHOOK_URL = "http://127.0.0.1:8090/api/ramp/webhooks/"

const fail = (message: string): never => {
  console.error(`sumsub: ${message}`)
  process.exit(2)
}

const parseChaos = (text: string, name = "SUMSUB_CHAOS"): Chaos => {
  const chaos: Chaos = {}
  if (text.trim() === "" || text.trim() === "none") return chaos
  for (const part of text.split(",")) {
    const [key, value] = part.split("=").map((s) => s.trim())
    const p = Number(value)
    if ((key !== "duplicate" && key !== "reorder") || value === undefined || value === "" || !(p >= 0 && p <= 1)) {
      return fail(`${name}: expected duplicate=<0..1>,reorder=<0..1>, got "${part}"`)
    }
    chaos[key] = p
  }
  return chaos
}

const parseDelays = (text: string, name = "SUMSUB_RETRY_DELAYS_MS"): number[] =>
  text
    .split(",")
    .filter((s) => s.trim() !== "")
    .map((s) => {
      const ms = Number(s)
      return Number.isInteger(ms) && ms >= 0 ? ms : fail(`${name}: "${s}" is not a whole number of milliseconds`)
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

const rampPort = Number(process.env["RAMP_PORT"] ?? DEFAULT_RAMP_PORT)
if (!Number.isInteger(rampPort) || rampPort < 0 || rampPort > 65535) fail("RAMP_PORT must be a port number")
const rampUrl = (name: string, provider: string): string | undefined => {
  const value = process.env[name] ?? `${DEV_RAMP_WEBHOOK_URL}${provider}`
  return value === "" ? undefined : value
}
const ramp = await startRampSandbox({
  port: rampPort,
  host: values.host,
  ...(partnersDir ? { dataDir: path.join(path.resolve(partnersDir), "ramp") } : {}),
  webhookUrls: { moonpay: rampUrl("RAMP_MOONPAY_WEBHOOK_URL", "moonpay"), mercuryo: rampUrl("RAMP_MERCURYO_WEBHOOK_URL", "mercuryo") },
  chaos: parseChaos(process.env["RAMP_CHAOS"] ?? DEV_CHAOS, "RAMP_CHAOS"),
  retryDelaysMs: parseDelays(process.env["RAMP_RETRY_DELAYS_MS"] ?? DEV_RETRY_DELAYS_MS, "RAMP_RETRY_DELAYS_MS"),
  log: (line) => console.log(line),
}).catch(async (error: unknown) => {
  await running.close()
  throw error
})
console.log(`ramp ready ${ramp.url}`)

let stopping = false
const stop = (signal: string): void => {
  if (stopping) return
  stopping = true
  Promise.all([running.close(), ramp.close()])
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(`sumsub: failed to stop on ${signal}`, error)
      process.exit(1)
    })
}
process.on("SIGINT", () => stop("SIGINT"))
process.on("SIGTERM", () => stop("SIGTERM"))
