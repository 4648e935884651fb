/**
 * The passcode plugin's migrations for operation tokens bound to parameters (docs/decisions/0550),
 * kept apart from `migrations.ts` so the two lists can grow side by side; the module sorts them by
 * id. Ids from 50 up belong to this list.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Migration } from "@wallet/kernel-server"

export const operationTokenMigrations: ReadonlyArray<Migration> = [
  {
    id: 50,
    name: "operation tokens and challenges bound to the operation's parameters; the key a token was consumed for",
    up: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // SHA-256 of the canonical parameter encoding (null: granted before parameters existed, reads as no parameters).
      yield* sql.unsafe(`alter table passcode_operation_tokens add column params_hash text`)
      // The replay key of the request that consumed the token (an HTTP retry of that request passes again).
      yield* sql.unsafe(`alter table passcode_operation_tokens add column consumed_for text`)
      yield* sql.unsafe(`alter table passcode_challenges add column params_hash text`)
    }),
  },
]
