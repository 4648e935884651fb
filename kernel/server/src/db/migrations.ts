/**
 * Migration runner: each server module (the kernel, then every enabled plugin) owns its tables
 * (named `<module>_...`) and an ordered list of migrations. At boot they run in module order, each
 * module's in id order, inside one transaction under an advisory lock, so several server processes
 * starting together on one PostgreSQL apply each migration exactly once. Applied migrations are
 * recorded in `kernel_migrations`.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

export interface Migration {
  /** Positive, strictly increasing within the module; never renumber a shipped migration. */
  readonly id: number
  readonly name: string
  readonly up: Effect.Effect<void, SqlError, SqlClient.SqlClient>
}

export interface MigrationModule {
  readonly id: string
  readonly migrations: ReadonlyArray<Migration>
}

export class MigrationError extends Schema.TaggedError<MigrationError>()("MigrationError", {
  module: Schema.String,
  message: Schema.String,
}) {}

/** Table-name prefix a module's tables must carry: `kernel_`, `p2p_`, `ton_space_` ... */
export const tablePrefix = (moduleId: string): string => `${moduleId.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_`

/** Arbitrary constant key for pg_advisory_xact_lock: "wallet migrations". */
const MIGRATION_LOCK_KEY = 7_261_000_301

export interface AppliedMigration {
  readonly module: string
  readonly id: number
  readonly name: string
}

const checkOrder = (module: MigrationModule): Effect.Effect<void, MigrationError> => {
  let previous = 0
  for (const migration of module.migrations) {
    if (!Number.isInteger(migration.id) || migration.id <= previous) {
      return Effect.fail(
        new MigrationError({ module: module.id, message: `migration ids must be positive and strictly increasing (at ${migration.id} "${migration.name}")` }),
      )
    }
    previous = migration.id
  }
  return Effect.void
}

const listTables = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema()`,
    (rows) => new Set(rows.map((row) => row.table_name)),
  )

/** Runs the pending migrations of `modules` (in the given order); returns what it applied. */
export const runMigrations = (
  modules: ReadonlyArray<MigrationModule>,
): Effect.Effect<ReadonlyArray<AppliedMigration>, MigrationError | SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const seen = new Set<string>()
    for (const module of modules) {
      if (seen.has(module.id)) return yield* new MigrationError({ module: module.id, message: "module listed twice" })
      seen.add(module.id)
      yield* checkOrder(module)
    }
    const sql = yield* SqlClient.SqlClient
    const run = Effect.gen(function* () {
      yield* sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`
      yield* sql`create table if not exists kernel_migrations (
        module text not null,
        id integer not null,
        name text not null,
        applied_at timestamptz not null default now(),
        primary key (module, id)
      )`
      const rows = yield* sql<{ module: string; id: number }>`select module, id from kernel_migrations`
      const done = new Set(rows.map((row) => `${row.module}:${row.id}`))
      const applied: Array<AppliedMigration> = []
      for (const module of modules) {
        const pending = module.migrations.filter((migration) => !done.has(`${module.id}:${migration.id}`))
        if (pending.length === 0) continue
        const before = yield* listTables(sql)
        for (const migration of pending) {
          yield* migration.up
          yield* sql`insert into kernel_migrations (module, id, name) values (${module.id}, ${migration.id}, ${migration.name})`
          applied.push({ module: module.id, id: migration.id, name: migration.name })
        }
        const prefix = tablePrefix(module.id)
        const foreign = [...(yield* listTables(sql))].filter((table) => !before.has(table) && !table.startsWith(prefix))
        if (foreign.length > 0) {
          return yield* new MigrationError({
            module: module.id,
            message: `tables must be prefixed "${prefix}" (module owns its tables): ${foreign.join(", ")}`,
          })
        }
      }
      return applied as ReadonlyArray<AppliedMigration>
    })
    return yield* sql.withTransaction(run)
  })
