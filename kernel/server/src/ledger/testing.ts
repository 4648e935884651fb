/**
 * Test helper: a migrated database (PGlite or a throwaway PostgreSQL) with the Ledger on it.
 *
 *   const ledger = await startTestLedger("postgres");
 *   await ledger.run(Effect.flatMap(Effect.service(Ledger), (l) => l.balance(ref)));
 *   await ledger.stop();
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import * as Db from "../db/Db.ts"
import { runMigrations } from "../db/migrations.ts"
import { kernelMigrations } from "../kernel/migrations.ts"
import { startTestDatabase, type TestDatabaseKind } from "../testing/databases.ts"
import { Ledger, type LedgerOptions } from "./Ledger.ts"
import { ledgerMigrationModule } from "./migrations.ts"

export interface TestLedger {
  readonly kind: TestDatabaseKind
  /** The PostgreSQL URL (undefined on PGlite: use `run` with `SqlClient`). */
  readonly url: string | undefined
  run<A, E>(effect: Effect.Effect<A, E, Ledger | SqlClient.SqlClient>): Promise<A>
  stop(): Promise<void>
}

export const startTestLedger = async (kind: TestDatabaseKind, options: LedgerOptions = {}): Promise<TestLedger> => {
  const database = await startTestDatabase(kind)
  const Sql = Db.layer(database.options)
  const Migrated = Layer.effectDiscard(runMigrations([{ id: "kernel", migrations: kernelMigrations }, ledgerMigrationModule]))
  const layer = Ledger.layerWith(options).pipe(Layer.provide(Migrated), Layer.provideMerge(Sql))
  const runtime = ManagedRuntime.make(layer)
  try {
    await runtime.runPromise(Effect.void)
  } catch (error) {
    await runtime.dispose()
    await database.stop()
    throw error
  }
  return {
    kind,
    url: database.options.kind === "postgres" ? database.options.url : undefined,
    run: (effect) => runtime.runPromise(effect),
    stop: async () => {
      await runtime.dispose()
      await database.stop()
    },
  }
}
