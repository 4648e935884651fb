/**
 * The port to the server-side key records of the user's addresses ("backups with externalId",
 * spec 2 §3). The device-key records belong to the passcode plugin (`passcode_device_keys`, decision
 * 0511) and a plugin never reads another plugin's tables: the default asks the passcode plugin's own
 * query (`deviceKeyRecordsOf`), so the server module depends on it (decision 0620). Tests and hosts
 * may provide another through `makeTonSpaceServerPlugin({ backupKeys })`.
 */
import { Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { deviceKeyRecordsOf } from "@wallet/plugin-passcode/server"

export interface BackupKeyRecord {
  /** As the key was generated for it (friendly or raw); normalised by the handlers. */
  readonly address: string
  readonly externalId: string
  readonly createdAt: Date
}

export interface BackupKeysShape {
  /** The user's key records. */
  readonly list: (userId: number) => Effect.Effect<ReadonlyArray<BackupKeyRecord>>
}

export class BackupKeys extends Context.Service<BackupKeys, BackupKeysShape>()("wallet/ton-space/BackupKeys") {
  static readonly none = Layer.succeed(BackupKeys, BackupKeys.of({ list: () => Effect.succeed([]) }))
  /** The passcode plugin's device-key records. */
  static readonly fromPasscode: Layer.Layer<BackupKeys, never, SqlClient.SqlClient> = Layer.effect(
    BackupKeys,
    Effect.gen(function* () {
      const context = yield* Effect.context<SqlClient.SqlClient>()
      return BackupKeys.of({ list: (user) => deviceKeyRecordsOf(user).pipe(Effect.provideContext(context)) })
    }),
  )
}
