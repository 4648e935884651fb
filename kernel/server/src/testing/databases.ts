/**
 * The databases every server test runs on: embedded PGlite and a real PostgreSQL.
 * `describe.each(testDatabases)` and start the database once per file in `beforeAll`.
 */
import type { DatabaseOptions } from "../db/Db.ts"
import { startTestPostgres } from "./postgres.ts"

export interface TestDatabase {
  readonly options: DatabaseOptions
  stop(): Promise<void>
}

export type TestDatabaseKind = "pglite" | "postgres"
export const testDatabases: ReadonlyArray<TestDatabaseKind> = ["pglite", "postgres"]

export const startTestDatabase = async (kind: TestDatabaseKind): Promise<TestDatabase> => {
  if (kind === "pglite") return { options: { kind: "pglite" }, stop: async () => {} }
  const postgres = await startTestPostgres()
  return { options: { kind: "postgres", url: postgres.url, maxConnections: 8 }, stop: () => postgres.stop() }
}
