/**
 * Test helper: a migrated database (PGlite or a throwaway PostgreSQL) with the Ledger on it.
 *
 *   const ledger = await startTestLedger("postgres");
 *   await ledger.run(Effect.flatMap(Effect.service(Ledger), (l) => l.balance(ref)));
 *   await ledger.stop();
 *
 * `processes: n` (PostgreSQL) adds n - 1 more Ledger services, each with its own connection pool and
 * batcher on the same database, as n API processes would have; `runOn(i, effect)` runs on the i-th.
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
  /** Runs on the `index % processes`-th Ledger service (0 is the one `run` uses). */
  runOn<A, E>(index: number, effect: Effect.Effect<A, E, Ledger | SqlClient.SqlClient>): Promise<A>
  readonly processes: number
  stop(): Promise<void>
}

export const startTestLedger = async (kind: TestDatabaseKind, options: LedgerOptions & { readonly processes?: number } = {}): Promise<TestLedger> => {
  const { processes = 1, ...ledgerOptions } = options
  if (processes > 1 && kind !== "postgres") throw new Error("several Ledger processes need PostgreSQL (PGlite has one session)")
  const database = await startTestDatabase(kind)
  const Migrated = Layer.effectDiscard(runMigrations([{ id: "kernel", migrations: kernelMigrations }, ledgerMigrationModule]))
  const runtimes: Array<ManagedRuntime.ManagedRuntime<Ledger | SqlClient.SqlClient, unknown>> = []
  const stopAll = async () => {
    for (const runtime of runtimes) await runtime.dispose()
    await database.stop()
  }
  try {
    for (let n = 0; n < processes; n++) {
      const Sql = Db.layer(database.options)
      const base = n === 0 ? Ledger.layerWith(ledgerOptions).pipe(Layer.provide(Migrated)) : Ledger.layerWith(ledgerOptions)
      const runtime = ManagedRuntime.make(base.pipe(Layer.provideMerge(Sql)))
      runtimes.push(runtime)
      await runtime.runPromise(Effect.void)
    }
  } catch (error) {
    await stopAll()
    throw error
  }
  return {
    kind,
    url: database.options.kind === "postgres" ? database.options.url : undefined,
    run: (effect) => runtimes[0]!.runPromise(effect),
    runOn: (index, effect) => runtimes[index % processes]!.runPromise(effect),
    processes,
    stop: stopAll,
  }
}
