import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/**
 * A migration's `up` made of plain SQL statements, run one after another in the migration's
 * transaction (decision 0130: the one helper every server module and plugin uses).
 */
export const sqlStatements = (...parts: ReadonlyArray<string>): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    for (const part of parts) yield* sql.unsafe(part)
  })
