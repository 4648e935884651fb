/**
 * `@wallet/host-server`: the API server process. `startServer(options)` is what `main.ts` runs and
 * what tests start (`{ url, close() }`).
 */
import { dirname, join } from "node:path"
import {
  parseCorsOrigins,
  startServer as startKernelServer,
  type Db,
  type RateLimitsOption,
  type RunningServer,
  type ServerPlugin,
} from "@wallet/kernel-server"
import { Chain } from "@wallet/kernel-server/chain"
import { regionFile, repoRoot, resolveRegionPlugins } from "./plugins.ts"

/** The dev bot token: not a secret, only ever used with WALLET_DEV=1. */
export const DEV_BOT_TOKEN = "7000000001:DEV-wallet-bot-token-not-a-secret"
export const DEFAULT_PORT = 8090
export const defaultDataDir = join(repoRoot, ".data", "pglite")

export interface HostServerOptions {
  /** Default 8090; 0 picks a free port. */
  readonly port?: number
  readonly host?: string
  /** PostgreSQL; absent: embedded PGlite. */
  readonly databaseUrl?: string
  /** PGlite directory (default `<repo>/.data/pglite`); "memory" keeps it in memory. */
  readonly dataDir?: string
  /** Required unless dev. */
  readonly botToken?: string
  readonly botUsername?: string
  /** WALLET_DEV=1: dev endpoints and demo users. */
  readonly dev?: boolean
  readonly region?: string
  /**
   * Keeps only these of the region's plugins (ids or package names; tests, benchmarks); default:
   * every plugin `host/regions/<region>.ts` enables (none if it does not exist yet).
   */
  readonly enabledPlugins?: ReadonlyArray<string>
  /** Server modules given directly (tests); added to the loaded ones. */
  readonly plugins?: ReadonlyArray<ServerPlugin>
  readonly accessTokenTtlSeconds?: number
  readonly refreshTokenTtlSeconds?: number
  readonly initDataMaxAgeSeconds?: number
  readonly now?: () => number
  readonly logRequests?: boolean
  /** The tonapi-compatible chain API (default: CHAIN_API_URL, else the local devnet on :8091). */
  readonly chainApiUrl?: string
  /** Origins allowed to call `/api` cross-origin (default the dev app on 127.0.0.1:5173 and localhost:5173). */
  readonly corsOrigins?: ReadonlyArray<string>
  /** Rate limits (decision 0206): `false` turns them off (benchmarks), an object overrides some; default the kernel's. */
  readonly rateLimits?: RateLimitsOption
  /** Reverse proxies whose X-Forwarded-For is believed for per-address limits (decision 0741). */
  readonly trustedProxies?: ReadonlyArray<string>
  /** Plugin config over the region's, per plugin id (tests, the environment: `kycPartnerFromEnv`). */
  readonly pluginConfig?: Readonly<Record<string, object>>
}

/**
 * The identity partner from the environment (decision 0930): KYC_PARTNER_URL (its API), KYC_PARTNER_SDK_URL
 * (the WebSDK frame's origin, default the API's), KYC_PARTNER_APP_TOKEN, KYC_PARTNER_SECRET_KEY,
 * KYC_PARTNER_WEBHOOK_SECRET, KYC_PARTNER_SANDBOX=1 (the local sandbox: reviews decided on /ops/kyc).
 * None set: a dev server uses the local sandbox on :8092, another server has no partner.
 */
export const kycPartnerFromEnv = (env: Readonly<Record<string, string | undefined>>): Pick<HostServerOptions, "pluginConfig"> => {
  const partner: Record<string, string | boolean> = {}
  const fields: ReadonlyArray<[string, string]> = [
    ["apiUrl", "KYC_PARTNER_URL"],
    ["sdkUrl", "KYC_PARTNER_SDK_URL"],
    ["appToken", "KYC_PARTNER_APP_TOKEN"],
    ["secretKey", "KYC_PARTNER_SECRET_KEY"],
    ["webhookSecret", "KYC_PARTNER_WEBHOOK_SECRET"],
  ]
  for (const [field, name] of fields) {
    const value = env[name]?.trim()
    if (value) partner[field] = value
  }
  if (env.KYC_PARTNER_SANDBOX !== undefined) partner.sandbox = env.KYC_PARTNER_SANDBOX === "1"
  return Object.keys(partner).length === 0 ? {} : { pluginConfig: { kyc: { partner } } }
}

/** Longest access token lifetime the environment may set (a day); refresh tokens stay 30 days. */
const MAX_ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60

/**
 * The security settings read from the environment: ACCESS_TOKEN_TTL_SECONDS (60..86400, default
 * 900) and CORS_ORIGINS (comma-separated http(s) origins). A bad value throws: the server must not
 * start on a setting it cannot honour.
 */
export const serverOptionsFromEnv = (env: Readonly<Record<string, string | undefined>>): Pick<HostServerOptions, "accessTokenTtlSeconds" | "corsOrigins"> => {
  const options: { accessTokenTtlSeconds?: number; corsOrigins?: ReadonlyArray<string> } = {}
  const ttl = env.ACCESS_TOKEN_TTL_SECONDS?.trim()
  if (ttl) {
    const seconds = Number(ttl)
    if (!/^\d+$/.test(ttl) || seconds < 60 || seconds > MAX_ACCESS_TOKEN_TTL_SECONDS) {
      throw new Error(`ACCESS_TOKEN_TTL_SECONDS must be a whole number of seconds from 60 to ${MAX_ACCESS_TOKEN_TTL_SECONDS} (got "${ttl}")`)
    }
    options.accessTokenTtlSeconds = seconds
  }
  if (env.CORS_ORIGINS !== undefined && env.CORS_ORIGINS.trim() !== "") options.corsOrigins = parseCorsOrigins(env.CORS_ORIGINS)
  return options
}

export interface HostServer extends RunningServer {
  readonly database: string
  readonly region: string
  readonly usesDevBotToken: boolean
}

export const startServer = async (options: HostServerOptions = {}): Promise<HostServer> => {
  const dev = options.dev ?? false
  const region = options.region ?? "default"
  const usesDevBotToken = options.botToken === undefined
  if (usesDevBotToken && !dev) throw new Error("BOT_TOKEN is required (only a dev server, WALLET_DEV=1, has a dev bot token)")
  const database: Db.DatabaseOptions = options.databaseUrl
    ? { kind: "postgres", url: options.databaseUrl }
    : options.dataDir === "memory"
      ? { kind: "pglite" }
      : { kind: "pglite", dataDir: options.dataDir ?? defaultDataDir }
  // The region file names the plugins by package; their manifests and server modules are resolved
  // and checked (kernel range, dependsOn, conflicts) before anything boots (decision 0120).
  const regionConfig = (await regionFile(region)) ?? { id: region, plugins: {} }
  const resolved = await resolveRegionPlugins(regionConfig, options.enabledPlugins !== undefined ? { only: options.enabledPlugins } : {})
  const pluginConfig: Record<string, object | undefined> = { ...resolved.pluginConfig }
  for (const [id, config] of Object.entries(options.pluginConfig ?? {})) pluginConfig[id] = { ...pluginConfig[id], ...config }
  // The passcode plugin's device-key encryption key lives beside the database, never in it
  // (`<data>/keys/device-keys.key`, made on first boot; WALLET_DEVICE_KEY_SECRET wins; decision 0540).
  // In-memory data gets a random key of the process.
  if (options.dataDir !== "memory") {
    pluginConfig.passcode = { ...pluginConfig.passcode, deviceKeyFile: join(dirname(options.dataDir ?? defaultDataDir), "keys", "device-keys.key") }
  }
  // Users' files (identity evidence) live beside the database too (`<data>/files`); in-memory data
  // gets the kernel's folder of the process under the OS temp folder.
  const filesDir = options.dataDir === "memory" ? undefined : join(dirname(options.dataDir ?? defaultDataDir), "files")
  const plugins = [...resolved.serverPlugins, ...(options.plugins ?? [])]
  const server = await startKernelServer({
    port: options.port ?? DEFAULT_PORT,
    host: options.host ?? "127.0.0.1",
    database,
    botToken: options.botToken ?? DEV_BOT_TOKEN,
    ...(options.botUsername !== undefined ? { botUsername: options.botUsername } : {}),
    region,
    dev,
    plugins,
    pluginConfig,
    ...(filesDir !== undefined ? { filesDir } : {}),
    ...(options.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
    ...(options.refreshTokenTtlSeconds !== undefined ? { refreshTokenTtlSeconds: options.refreshTokenTtlSeconds } : {}),
    ...(options.initDataMaxAgeSeconds !== undefined ? { initDataMaxAgeSeconds: options.initDataMaxAgeSeconds } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.logRequests !== undefined ? { logRequests: options.logRequests } : {}),
    ...(options.chainApiUrl !== undefined ? { chain: Chain.layer({ baseUrl: options.chainApiUrl }), chainApiUrl: options.chainApiUrl } : {}),
    ...(options.corsOrigins !== undefined ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.rateLimits !== undefined ? { rateLimits: options.rateLimits } : {}),
    ...(options.trustedProxies !== undefined ? { trustedProxies: options.trustedProxies } : {}),
  })
  const databaseName = database.kind === "postgres" ? "postgresql (DATABASE_URL)" : database.dataDir ? `pglite ${database.dataDir}` : "pglite (memory)"
  return { ...server, database: databaseName, region, usesDevBotToken }
}
