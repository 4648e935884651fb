/**
 * `@wallet/kernel-server` fingerprint module (docs/decisions/0390): `POST /api/users/me/fingerprint`
 * (authenticated, an XOR-obfuscated binary body) and the `fingerprint_` table, on every server;
 * `fingerprintDevModule` (dev servers): `GET /api/dev/fingerprints` (JSON) and `.html`.
 */
import { defineServerPlugin, type ServerPlugin } from "../plugin.ts"
import { FingerprintDevGroup, FingerprintGroup } from "./api.ts"
import { fingerprintDevHandlers, fingerprintHandlers } from "./handlers.ts"
import { fingerprintMigrations } from "./store.ts"

export * from "./api.ts"
export { FingerprintStore, fingerprintMigrations, makeFingerprintStore, type FingerprintStoreShape } from "./store.ts"
export { readFingerprint } from "./handlers.ts"
export { renderFingerprintPage } from "./page.ts"

export const fingerprintModule: ServerPlugin = defineServerPlugin({
  id: "fingerprint",
  migrations: fingerprintMigrations,
  groups: [FingerprintGroup],
  handlers: fingerprintHandlers,
})

export const fingerprintDevModule: ServerPlugin = defineServerPlugin({
  id: "fingerprint-dev",
  dependsOn: ["fingerprint"],
  groups: [FingerprintDevGroup],
  handlers: fingerprintDevHandlers,
})
