/**
 * The server side of a plugin: `defineServerPlugin({ id, migrations, groups, handlers })`.
 * Each plugin ships `@wallet/plugin-<id>/server` built with it; the kernel's own endpoints and
 * tables are the "kernel" server module. `host/server` composes the kernel module plus the modules
 * of the plugins the region enables, runs their migrations in order, and refuses to boot on a
 * conflict (two modules claiming one id, one group, or one method and path).
 */
import { Layer, type Effect } from "effect"
import type { HttpApiGroup } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import type { ServerConfig } from "./services.ts"

/**
 * A raw route of the module that reads a bigger body than the server's limit (1 MiB by default):
 * a request to exactly this method and path (without its query) may declare and send up to
 * `maxBytes`; above it the answer is the API's 413.
 */
export interface UploadRoute {
  readonly method: "POST" | "PUT"
  /** The exact path, under `/api/`. */
  readonly path: string
  readonly maxBytes: number
}

/** Any API group (its endpoint types do not matter to the composition). */
export type ApiGroup = HttpApiGroup.Constraint
import type { Migration } from "./db/migrations.ts"

export interface ServerPlugin {
  /** Plugin id (the manifest's id); also the table-name prefix of its migrations. */
  readonly id: string
  /** Ids of server modules that must be enabled and composed before this one. */
  readonly dependsOn: ReadonlyArray<string>
  readonly migrations: ReadonlyArray<Migration>
  /** The plugin's API groups (its `api.ts`); every path under `/api/`. */
  readonly groups: ReadonlyArray<ApiGroup>
  /**
   * Implements every group in `groups` (`HttpApiBuilder.group(...)` layers merged). It may require
   * the kernel services (`SqlClient`, `ServerConfig`: see `ServerServices`; `FileStore` and the
   * kernel ports too), the contract's middleware, and use `CurrentSession` in handlers. Typed
   * loosely on purpose: the host checks the composition at boot.
   */
  readonly handlers: Layer.Any
  /** Routes of this module allowed a bigger request body than the server's limit (uploads). */
  readonly uploads?: ReadonlyArray<UploadRoute>
  /**
   * The `UsdBalances` kernel port, when this module implements it (at most one module per server).
   * Built over the kernel services and the Ledger; every module's handlers get it.
   */
  readonly usdBalances?: Layer.Any
  /**
   * The `OperationGuard` kernel port, when this module implements it (at most one module per
   * server; docs/decisions/0550). Built over the kernel services and `UsdBalances`; every module's
   * handlers get it. Without one the server uses `OperationGuard.none`.
   */
  readonly operationGuard?: Layer.Any
  /**
   * The `VerificationLimits` kernel port, when this module implements it (at most one module per
   * server; decision 0920). Built over the kernel services; every module's handlers get it.
   */
  readonly verificationLimits?: Layer.Any
  /** The label of this plugin's operator page (`/ops/<id>`, built with `operatorPages`) in the console's navigation. */
  readonly operatorLabel?: string
  /**
   * Dev servers only: run at start after the kernel seeded the demo users, to give them this
   * plugin's state (idempotent: it runs on every start of a persistent dev database).
   */
  readonly devSeed?: Effect.Effect<void, unknown, SqlClient.SqlClient | ServerConfig>
  /**
   * Dev servers only: forget this plugin's state of a user the dev launch resets (the "new" demo
   * user, before each launch), after the kernel forgot the user.
   */
  readonly devResetUser?: (userId: number) => Effect.Effect<void, unknown, SqlClient.SqlClient | ServerConfig>
}

export interface ServerPluginDefinition {
  readonly id: string
  readonly dependsOn?: ReadonlyArray<string>
  readonly migrations?: ReadonlyArray<Migration>
  readonly groups?: ReadonlyArray<ApiGroup>
  readonly handlers?: Layer.Any
  readonly uploads?: ReadonlyArray<UploadRoute>
  readonly usdBalances?: Layer.Any
  readonly operationGuard?: Layer.Any
  readonly verificationLimits?: Layer.Any
  readonly operatorLabel?: string
  readonly devSeed?: Effect.Effect<void, unknown, SqlClient.SqlClient | ServerConfig>
  readonly devResetUser?: (userId: number) => Effect.Effect<void, unknown, SqlClient.SqlClient | ServerConfig>
}

const ID_PATTERN = /^[a-z][a-z0-9-]{1,39}$/

export const defineServerPlugin = (definition: ServerPluginDefinition): ServerPlugin => {
  if (!ID_PATTERN.test(definition.id)) {
    throw new Error(`server plugin id "${definition.id}" must match ${ID_PATTERN}`)
  }
  const groups = definition.groups ?? []
  if (groups.length > 0 && definition.handlers === undefined) {
    throw new Error(`server plugin "${definition.id}" declares API groups but no handlers layer`)
  }
  for (const upload of definition.uploads ?? []) {
    if (!upload.path.startsWith("/api/") || /[?#\s]/.test(upload.path) || !Number.isSafeInteger(upload.maxBytes) || upload.maxBytes <= 0) {
      throw new Error(`server plugin "${definition.id}" declares an invalid upload route ${upload.method} ${upload.path} (${upload.maxBytes} bytes)`)
    }
  }
  return {
    id: definition.id,
    dependsOn: definition.dependsOn ?? [],
    migrations: definition.migrations ?? [],
    groups,
    handlers: definition.handlers ?? Layer.empty,
    ...(definition.uploads !== undefined && definition.uploads.length > 0 ? { uploads: definition.uploads } : {}),
    ...(definition.usdBalances !== undefined ? { usdBalances: definition.usdBalances } : {}),
    ...(definition.operationGuard !== undefined ? { operationGuard: definition.operationGuard } : {}),
    ...(definition.verificationLimits !== undefined ? { verificationLimits: definition.verificationLimits } : {}),
    ...(definition.operatorLabel !== undefined ? { operatorLabel: definition.operatorLabel } : {}),
    ...(definition.devSeed !== undefined ? { devSeed: definition.devSeed } : {}),
    ...(definition.devResetUser !== undefined ? { devResetUser: definition.devResetUser } : {}),
  }
}
