/**
 * The API server: composes the kernel module and the enabled plugins' server modules into one
 * HttpApi, runs their migrations, serves it with @effect/platform-node and the OpenAPI document at
 * /api/openapi.json.
 */
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, Redacted, Schedule, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Ledger } from "./ledger/index.ts"
import { runAudit, type AuditReport } from "./ledger/audit.ts"
import { ApiId, OpenApiPath } from "@wallet/kernel/api"
import { ChainLive, type Chain } from "./chain/index.ts"
import { composeServerModules } from "./compose.ts"
import { apiCorsLayer, DEFAULT_CORS_ORIGINS } from "./cors.ts"
import * as Db from "./db/Db.ts"
import { FileStore, localFileStore, type FileStoreShape } from "./files/FileStore.ts"
import { apiErrorsLayer } from "./http/apiErrors.ts"
import { runMigrations } from "./db/migrations.ts"
import { seedDemoUsers } from "./dev/demoUsers.ts"
import { kernelMiddleware } from "./kernel/middleware.ts"
import { pruneExpired } from "./kernel/sessions.ts"
import { RateLimiter, type RateLimitsOption } from "./ratelimit/RateLimiter.ts"
import type { ServerPlugin } from "./plugin.ts"
import { defaultTtls, DevResets, OperationGuard, ServerConfig, UsdBalances, VerificationLimits, type ServerConfigShape } from "./services.ts"

export interface ServerOptions {
  /** 0 picks a free port. */
  readonly port: number
  readonly host?: string
  readonly database: Db.DatabaseOptions
  readonly botToken: string
  readonly botUsername?: string
  readonly region?: string
  /** Dev endpoints and demo users. */
  readonly dev?: boolean
  /** Server modules of the plugins the region enables. */
  readonly plugins?: ReadonlyArray<ServerPlugin>
  /** The region's config per plugin id, readable by handlers as `ServerConfig.pluginConfig`. */
  readonly pluginConfig?: Readonly<Record<string, object | undefined>>
  readonly accessTokenTtlSeconds?: number
  readonly refreshTokenTtlSeconds?: number
  readonly initDataMaxAgeSeconds?: number
  /** Wall clock in ms (tests move it). */
  readonly now?: () => number
  /** Log one line per request. */
  readonly logRequests?: boolean
  /** Request bodies above this answer 413 (default 1 MiB); a module's `uploads` routes have their own limits. */
  readonly maxBodyBytes?: number
  /** Where modules keep users' files (`FileStore`); default a `localFileStore` in `filesDir`. */
  readonly files?: FileStoreShape
  /** The default file store's folder; default a folder of this process under the OS temp folder. */
  readonly filesDir?: string
  /** The Chain service handlers get; default: from CHAIN_API_URL / CHAIN_API_KEY (the devnet locally). */
  readonly chain?: Layer.Layer<Chain>
  /** The URL behind `chain`, for modules that talk to the devnet beyond the Chain service (faucet, simulated networks). */
  readonly chainApiUrl?: string
  /**
   * Origins allowed to call `/api` cross-origin (CORS, decision 0207); default the dev app
   * (http://127.0.0.1:5173, http://localhost:5173). Same-origin calls (the Vite proxy) need none.
   */
  readonly corsOrigins?: ReadonlyArray<string>
  /**
   * Rate limits per user and per address, counted in the database (decision 0206): `false` turns
   * every limit off (benchmarks), an object overrides some (`{ moneyPerUser: { limit, windowSeconds } }`
   * or `false` for one); default `defaultRateLimits`.
   */
  readonly rateLimits?: RateLimitsOption
  /**
   * Reverse proxies whose `X-Forwarded-For` is believed for per-address limits (decision 0741);
   * default `pluginConfig.bridge.trustedProxies`, else none.
   */
  readonly trustedProxies?: ReadonlyArray<string>
}

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly modules: ReadonlyArray<string>
  /** Runs SQL on the server's own database connection (tests and tooling; PGlite has no other way in). */
  sql(statement: string, params?: ReadonlyArray<unknown>): Promise<ReadonlyArray<Record<string, unknown>>>
  /** The Ledger's audit over the server's own database (browser tests end a money journey with it). */
  ledgerAudit(): Promise<AuditReport>
  close(): Promise<void>
}

const HOUSEKEEPING_INTERVAL = "10 minutes"
/** Holds past their expiry go back to their owners within a minute. */
const HOLD_EXPIRY_INTERVAL = "1 minute"
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

let processFilesDir: string | undefined
/** Made once per process (mkdtemp: private, not guessable) the first time a server needs it. */
const defaultFilesDir = () => (processFilesDir ??= mkdtempSync(join(tmpdir(), "wallet-files-")))

export const makeConfig = (options: ServerOptions): ServerConfigShape => ({
  botToken: Redacted.make(options.botToken),
  botUsername: options.botUsername ?? "wallet_dev_bot",
  region: options.region ?? "default",
  dev: options.dev ?? false,
  accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? defaultTtls.accessTokenTtlSeconds,
  refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? defaultTtls.refreshTokenTtlSeconds,
  initDataMaxAgeSeconds: options.initDataMaxAgeSeconds ?? defaultTtls.initDataMaxAgeSeconds,
  now: options.now ?? Date.now,
  pluginConfig: options.pluginConfig ?? {},
  ...(options.chainApiUrl !== undefined ? { chainApiUrl: options.chainApiUrl } : {}),
})

/** The whole server as one layer; building it migrates, seeds (dev) and starts listening. */
export const makeServerLayer = (options: ServerOptions) => {
  const config = makeConfig(options)
  const modules = composeServerModules(options.plugins ?? [], { dev: config.dev })
  const groups = modules.flatMap((module) => module.groups) as unknown as [HttpApiGroup.Constraint, ...Array<HttpApiGroup.Constraint>]
  const api = HttpApi.make(ApiId).add(...groups)

  // No MaxBodySize here: `apiErrorsLayer` sets it per request (an upload route has its own limit, and
  // a raw route that re-provides the context it captured must not bring back the server's).
  const Base = Layer.mergeAll(Db.layer(options.database), Layer.succeed(ServerConfig, config), options.chain ?? ChainLive)

  const Boot = Layer.effectDiscard(
    Effect.gen(function* () {
      yield* runMigrations(modules)
      if (config.dev) {
        yield* seedDemoUsers
        // The plugins' state of the demo users (e.g. a verification level); a failing seed stops the dev server.
        for (const module of modules) if (module.devSeed !== undefined) yield* Effect.orDie(module.devSeed)
      }
      yield* Effect.forkScoped(pruneExpired.pipe(Effect.ignore, Effect.repeat(Schedule.spaced(HOUSEKEEPING_INTERVAL))))
      const ledger = yield* Ledger
      yield* Effect.forkScoped(
        Effect.suspend(() => ledger.expireHolds(new Date(config.now()))).pipe(Effect.ignore, Effect.repeat(Schedule.spaced(HOLD_EXPIRY_INTERVAL))),
      )
    }),
  )

  const handlerLayers = modules.map((module) => module.handlers) as unknown as [Layer.Layer<any, any, any>, ...Array<Layer.Layer<any, any, any>>]
  // The UsdBalances port: the one module that implements it, else "no balances known".
  const usdBalances = (modules.find((module) => module.usdBalances !== undefined)?.usdBalances ??
    Layer.succeed(UsdBalances, UsdBalances.none)) as Layer.Layer<UsdBalances>
  // The OperationGuard port (docs/decisions/0550): the one module that implements it, else `none` (fails closed).
  const operationGuard = (modules.find((module) => module.operationGuard !== undefined)?.operationGuard ??
    Layer.succeed(OperationGuard, OperationGuard.none)) as Layer.Layer<OperationGuard, never, UsdBalances>
  // The VerificationLimits port (decision 0920): the one module that implements it, else no limits.
  const verificationLimits = (modules.find((module) => module.verificationLimits !== undefined)?.verificationLimits ??
    Layer.succeed(VerificationLimits, VerificationLimits.none)) as Layer.Layer<VerificationLimits>
  // Users' files (evidence): the host's store, else a folder.
  const files = Layer.succeed(FileStore, options.files ?? localFileStore(options.filesDir ?? defaultFilesDir()))
  const devResets = Layer.succeed(DevResets, { hooks: modules.flatMap((module) => (module.devResetUser !== undefined ? [module.devResetUser] : [])) })
  const Handlers = Layer.mergeAll(...handlerLayers).pipe(
    Layer.provide(kernelMiddleware),
    Layer.provide(devResets),
    Layer.provide(files),
    Layer.provide(verificationLimits),
    Layer.provide(operationGuard),
    Layer.provide(usdBalances),
    // Limits shared by every process on the database (decision 0206).
    Layer.provide(
      RateLimiter.layer({
        ...(options.rateLimits !== undefined ? { rateLimits: options.rateLimits } : {}),
        ...(options.trustedProxies !== undefined ? { trustedProxies: options.trustedProxies } : {}),
      }),
    ),
  )

  // Unknown API paths answer with the same error shape as everything else (static routes win).
  const NotFoundRoute = HttpRouter.add(
    "*",
    "/api/*",
    HttpServerResponse.jsonUnsafe({ _tag: "NotFound", code: "not_found", message: "No such API endpoint" }, { status: 404 }),
  )

  const App = Layer.mergeAll(
    HttpApiBuilder.layer(api as unknown as HttpApi.Top, { openapiPath: OpenApiPath }).pipe(Layer.provide(Handlers)),
    NotFoundRoute,
    // One JSON error shape for framework refusals (413, 415, 5xx), x-request-id, 5xx logged (decision 0205);
    // each request's body limit (MaxBodySize): the server's, or its upload route's.
    apiErrorsLayer({ maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, uploads: modules.flatMap((module) => module.uploads ?? []) }),
    // CORS for /api only: the app's origins (decision 0207); the bridge keeps its own.
    apiCorsLayer(options.corsOrigins ?? DEFAULT_CORS_ORIGINS),
  )

  return HttpRouter.serve(App as Layer.Layer<never, never, HttpRouter.HttpRouter>, {
    disableLogger: options.logRequests !== true,
    disableListenLog: true,
  }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "127.0.0.1" })),
    Layer.provide(Boot),
    // Money moves only through the Ledger: every handler can reach it.
    Layer.provideMerge(Ledger.layer.pipe(Layer.provideMerge(Base))),
  )
}

/** Starts the server; resolves once it is listening (after migrations). */
export const startServer = async (options: ServerOptions): Promise<RunningServer> => {
  const layer = makeServerLayer(options)
  const modules = composeServerModules(options.plugins ?? [], { dev: options.dev ?? false }).map((module) => module.id)
  const scope = Effect.runSync(Scope.make())
  const close = () => Effect.runPromise(Scope.close(scope, Exit.void))
  try {
    const context = await Effect.runPromise(
      Layer.buildWithScope(layer, scope) as Effect.Effect<Context.Context<HttpServer.HttpServer | SqlClient.SqlClient>, unknown>,
    )
    const address = Context.get(context, HttpServer.HttpServer).address
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    const host = options.host === undefined || options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host
    const client = Context.get(context, SqlClient.SqlClient)
    const sql = (statement: string, params: ReadonlyArray<unknown> = []) =>
      Effect.runPromise(client.unsafe<Record<string, unknown>>(statement, params as Array<unknown>))
    const ledgerAudit = () => Effect.runPromise(Effect.provideService(runAudit, SqlClient.SqlClient, client))
    return { url: `http://${host}:${address.port}`, port: address.port, modules, sql, ledgerAudit, close }
  } catch (error) {
    await close()
    throw error
  }
}
