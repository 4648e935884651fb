/**
 * `@wallet/kernel-server/analytics`: the analytics events gateway (docs/decisions/0350).
 * `analyticsModule` (every server): `POST /api/analytics/events`, `POST /api/analytics/meters`
 * and the `analytics_` tables; `analyticsDevModule` (dev servers): `GET /api/dev/analytics`
 * (JSON) and `/api/dev/analytics.html`, the latest events.
 */
import { defineServerPlugin, type ServerPlugin } from "../plugin.ts"
import { AnalyticsDevGroup, AnalyticsGroup } from "./api.ts"
import { analyticsDevHandlers, analyticsHandlers } from "./handlers.ts"
import { analyticsMigrations } from "./store.ts"

export * from "./api.ts"
export { AnalyticsStore, analyticsMigrations, makeAnalyticsStore, type AnalyticsStoreShape } from "./store.ts"
export { REDACTED, isSecretKey, scrubText, scrubValue } from "./scrub.ts"
export { renderAnalyticsPage } from "./page.ts"

export const analyticsModule: ServerPlugin = defineServerPlugin({
  id: "analytics",
  migrations: analyticsMigrations,
  groups: [AnalyticsGroup],
  handlers: analyticsHandlers,
})

export const analyticsDevModule: ServerPlugin = defineServerPlugin({
  id: "analytics-dev",
  dependsOn: ["analytics"],
  groups: [AnalyticsDevGroup],
  handlers: analyticsDevHandlers,
})
