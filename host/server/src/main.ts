/**
 * The API server process: `node --import tsx host/server/src/main.ts [--port N]`.
 * Env: PORT, DATABASE_URL (absent: embedded PGlite under <repo>/.data/pglite, or WALLET_DATA_DIR),
 * BOT_TOKEN (absent in dev: the fixed dev bot token), WALLET_DEV=1 (dev endpoints, demo users),
 * REGION (default "default"), LOG_REQUESTS=1 (one log line per request), ACCESS_TOKEN_TTL_SECONDS
 * (access token lifetime, default 900), CORS_ORIGINS (comma-separated origins allowed to call /api
 * cross-origin; default the dev app on 127.0.0.1:5173 and localhost:5173), RATE_LIMITS (`off`, or JSON
 * overrides of the rate limits, decision 0206), TRUSTED_PROXIES (comma-separated proxy addresses whose
 * X-Forwarded-For counts for per-address limits), KYC_PARTNER_* (the identity partner: `kycPartnerFromEnv`).
 * Prints `api ready http://127.0.0.1:<port>` once serving; SIGINT/SIGTERM stop cleanly.
 */
import { rateLimitOptionsFromEnv } from "@wallet/kernel-server"
import { DEFAULT_PORT, DEV_BOT_TOKEN, kycPartnerFromEnv, serverOptionsFromEnv, startServer } from "./index.ts"

const parsePort = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): number => {
  let raw: string | undefined = env.PORT
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "--port") raw = argv[i + 1]
    else if (arg.startsWith("--port=")) raw = arg.slice("--port=".length)
  }
  if (raw === undefined || raw === "") return DEFAULT_PORT
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`[api] invalid port "${raw}"`)
    process.exit(2)
  }
  return port
}

const env = process.env
const dev = env.WALLET_DEV === "1"
const port = parsePort(process.argv.slice(2), env)

try {
  const server = await startServer({
    port,
    dev,
    region: env.REGION || "default",
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    ...(env.WALLET_DATA_DIR ? { dataDir: env.WALLET_DATA_DIR } : {}),
    ...(env.BOT_TOKEN ? { botToken: env.BOT_TOKEN } : {}),
    ...(env.LOG_REQUESTS === "1" ? { logRequests: true } : {}),
    ...serverOptionsFromEnv(env),
    ...rateLimitOptionsFromEnv(env),
    ...kycPartnerFromEnv(env),
  })
  if (server.usesDevBotToken) console.log(`[api] dev bot token (not a secret, WALLET_DEV only): ${DEV_BOT_TOKEN}`)
  console.log(`[api] region ${server.region}, modules ${server.modules.join(", ")}, database ${server.database}`)
  console.log(`api ready ${server.url}`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`[api] ${signal}: stopping`)
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("[api] error while stopping", error)
        process.exit(1)
      },
    )
  }
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
} catch (error) {
  console.error("[api] failed to start:", error instanceof Error ? error.message : error)
  process.exit(1)
}
