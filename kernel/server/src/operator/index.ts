/**
 * `@wallet/kernel-server` operator module (decision 0370): the operator console at `/ops` (its own
 * accounts, sessions and audit log), the service that changes flags, banners and experiment buckets
 * for all or per user (shared by the pages and `npm run operator`), and `GET /api/experiments`.
 * Every server has it (a kernel module, id "operator", tables `operator_*`).
 */
import { Layer } from "effect"
import { ExperimentsGroup } from "@wallet/kernel/api"
import { defineServerPlugin, type ServerPlugin } from "../plugin.ts"
import { experimentsHandlers } from "./experiments.ts"
import { operatorMigrations } from "./migrations.ts"
import { operatorRoutesWith } from "./routes.ts"
import type { OperatorLink } from "./pages.ts"

export {
  addOperator,
  hashPassword,
  login,
  sessionOf,
  verifyPassword,
  LOGIN_WINDOW_MS,
  MAX_FAILURES_PER_NAME,
  MIN_PASSWORD_LENGTH,
  OperatorAuthError,
} from "./auth.ts"
export {
  auditLog,
  bucketsForAll,
  experimentBucketsFor,
  OperatorInputError,
  overview,
  setBucket,
  setFlag,
  type AuditEntry,
  type BucketChange,
  type FlagChange,
} from "./service.ts"
export { operatorMigrations } from "./migrations.ts"
export { OPS_COOKIE, OPS_PREFIX, operatorRoutes, sessionCookie } from "./routes.ts"
export * from "./kit.ts"

/** The operator module, its console listing `links` (the plugins' operator pages) in the navigation. */
export const makeOperatorModule = (links: ReadonlyArray<OperatorLink>): ServerPlugin =>
  defineServerPlugin({
    id: "operator",
    migrations: operatorMigrations,
    groups: [ExperimentsGroup],
    handlers: Layer.mergeAll(experimentsHandlers, operatorRoutesWith(links)),
  })

export const operatorModule: ServerPlugin = makeOperatorModule([])
