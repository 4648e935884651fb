/**
 * `@wallet/kernel-server`: API server composition, Db, Auth and the server plugin contract.
 */
export { defineServerPlugin, type ApiGroup, type ServerPlugin, type ServerPluginDefinition, type UploadRoute } from "./plugin.ts"
export { composeServerModules, ServerCompositionError } from "./compose.ts"
export { startServer, makeServerLayer, makeConfig, type ServerOptions, type RunningServer } from "./server.ts"
export { DEFAULT_CORS_ORIGINS, parseCorsOrigins } from "./cors.ts"
export { ServerConfig, UsdBalances, defaultTtls, type ServerConfigShape, type ServerServices, type UsdBalancesShape } from "./services.ts"
export { OperationGuard, requireOperation, type OperationCheck, type OperationGuardShape, type RequireOperationInput } from "./services.ts"
export { VerificationLimits, type Allowance, type LimitKind, type VerificationLimitsShape } from "./services.ts"
export {
  RateLimiter,
  defaultRateLimits,
  enforceAddressRateLimit,
  enforceRateLimit,
  requestAddress,
  rateLimitOptionsFromEnv,
  resolveRateLimits,
  type RateLimitName,
  type RateLimitRule,
  type RateLimits,
  type RateLimitsOption,
  type RateLimiterShape,
} from "./ratelimit/RateLimiter.ts"
export * as Db from "./db/Db.ts"
export type { DatabaseOptions } from "./db/Db.ts"
export { runMigrations, tablePrefix, MigrationError, type Migration, type MigrationModule, type AppliedMigration } from "./db/migrations.ts"
export { sqlStatements } from "./db/statements.ts"
export { signContact, signInitData, verifyInitData, type SignableContact } from "./kernel/initData.ts"
export { demoUsers, type DemoUserSeed } from "./dev/demoUsers.ts"
export { kernelModule, devModule } from "./kernel/module.ts"
export * from "./chain/index.ts"
export * from "./files/index.ts"
