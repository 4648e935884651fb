/**
 * Services every server module may use in its handlers.
 */
import { Context, Effect, type Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import type { Chain } from "./chain/index.ts"

export interface ServerConfigShape {
  /** The bot token initData is signed with. Never logged. */
  readonly botToken: Redacted.Redacted<string>
  readonly botUsername: string
  readonly region: string
  /** WALLET_DEV=1: dev endpoints and demo users. */
  readonly dev: boolean
  readonly accessTokenTtlSeconds: number
  readonly refreshTokenTtlSeconds: number
  /** initData older than this is rejected as init_data_expired. */
  readonly initDataMaxAgeSeconds: number
  /** Wall clock in ms; injectable so tests can move time. */
  readonly now: () => number
  /**
   * The region's config per enabled plugin, keyed by plugin id (`pluginConfig.passcode`); the region
   * file (`host/regions/<id>.ts`) names plugins by package name (`plugins["@wallet/plugin-passcode"].config`).
   */
  readonly pluginConfig: Readonly<Record<string, object | undefined>>
  /** The chain API the server was started with (tests, the devnet), when given explicitly; else modules read CHAIN_API_URL. */
  readonly chainApiUrl?: string
}

export class ServerConfig extends Context.Service<ServerConfig, ServerConfigShape>()("wallet/server/ServerConfig") {}

/** Dev servers: the modules' `devResetUser` hooks, run when the dev launch resets a user. */
export class DevResets extends Context.Service<
  DevResets,
  { readonly hooks: ReadonlyArray<(userId: number) => Effect.Effect<void, unknown, SqlClient.SqlClient | ServerConfig>> }
>()("wallet/server/DevResets") {}

export const defaultTtls = {
  /** Short-lived: the client refreshes one minute before expiry. */
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlSeconds: 30 * 24 * 60 * 60,
  initDataMaxAgeSeconds: 60 * 60,
} as const

/** What a server module's handlers may require. */
export type ServerServices = SqlClient.SqlClient | ServerConfig | Chain

/**
 * A user's holdings valued in US cents: a kernel port that one server module implements (the
 * custodial wallet, from its Ledger balances and rates) and any module may read (the passcode's
 * forced-passcode rule). Without a provider every user is worth 0.
 */
export interface UsdBalancesShape {
  readonly usdCentsOf: (userId: number) => Effect.Effect<bigint>
}
export class UsdBalances extends Context.Service<UsdBalances, UsdBalancesShape>()("wallet/server/UsdBalances") {
  static readonly none: UsdBalancesShape = { usdCentsOf: () => Effect.succeed(0n) }
}

/**
 * The operation-token check (docs/decisions/0550): a kernel port one server module implements (the
 * passcode plugin) and every module's handlers call through `requireOperation(...)`.
 */
export { OperationGuard, requireOperation, type OperationCheck, type OperationGuardShape, type RequireOperationInput } from "./security/operationGuard.ts"
export { VerificationLimits, type Allowance, type LimitKind, type VerificationLimitsShape } from "./security/verificationLimits.ts"
