/**
 * `@wallet/plugin-ton-space/server`: the self-custody addresses of a user with the manual backup
 * flag (spec 2 §3, §6, §7; decision 0620). Contract in `../api.ts` (browser-safe; the `./api` entry).
 */
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { defineServerPlugin, type ServerPlugin } from "@wallet/kernel-server"
import { TonSpaceAddressesGroup } from "../api.ts"
import type { BackupKeys } from "./backupKeys.ts"
import { makeTonSpaceHandlers } from "./handlers.ts"
import { tonSpaceMigrations } from "./migrations.ts"

export { BackupKeys, type BackupKeyRecord, type BackupKeysShape } from "./backupKeys.ts"
export { tonSpaceMigrations } from "./migrations.ts"
export { normaliseAddress } from "./address.ts"

export interface TonSpaceServerOptions {
  /** The server-side key records of the user's addresses (default: the passcode plugin's, decision 0620). */
  readonly backupKeys?: Layer.Layer<BackupKeys, never, SqlClient.SqlClient>
}

export const makeTonSpaceServerPlugin = (options: TonSpaceServerOptions = {}): ServerPlugin =>
  defineServerPlugin({
    id: "ton-space",
    // The default BackupKeys reads the passcode plugin's device-key records through its own query.
    dependsOn: ["passcode"],
    migrations: tonSpaceMigrations,
    groups: [TonSpaceAddressesGroup],
    handlers: makeTonSpaceHandlers(options.backupKeys),
  })

export const serverPlugin: ServerPlugin = makeTonSpaceServerPlugin()
export default serverPlugin
