import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Db from "../db/Db.ts"
import { runMigrations } from "../db/migrations.ts"
import { ServerConfig } from "../services.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { testServerConfig } from "../testing/config.ts"
import { kernelMigrations } from "./migrations.ts"
import { createSession, pruneExpired, recordInitDataUse, refreshSession } from "./sessions.ts"
import { upsertFromTelegram, upsertProfile } from "./users.ts"

const clock = { now: Date.UTC(2026, 2, 1) }
const DAY = 24 * 60 * 60 * 1000

describe.each(testDatabases)("sessions and users in SQL on %s", (kind) => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient | ServerConfig, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | ServerConfig>) => runtime.runPromise(effect)
  const count = (table: string) =>
    run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql<{ n: number }>`select count(*)::int as n from ${sql(table)}`)).then(
      (rows) => rows[0]!.n,
    )

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    const config = testServerConfig(() => clock.now)
    runtime = ManagedRuntime.make(Layer.mergeAll(Db.layer(database.options), config))
    await run(runMigrations([{ id: "kernel", migrations: kernelMigrations }]))
  }, 60_000)
  afterAll(async () => {
    await runtime?.dispose()
    await database?.stop()
  })

  it("creates a user once when the first auths of one user race", async () => {
    const user = { id: 880001, first_name: "Race" }
    const results = await run(
      Effect.all(
        [1, 2, 3, 4].map(() => upsertFromTelegram(user)),
        { concurrency: "unbounded" },
      ),
    )
    expect(results.filter((result) => result.created)).toHaveLength(1)
  })

  it("creates the profile once when upserts race", async () => {
    await run(upsertFromTelegram({ id: 880002, first_name: "Profile" }))
    const results = await run(
      Effect.all(
        [1, 2, 3].map(() => upsertProfile(880002, { source: "x" })),
        { concurrency: "unbounded" },
      ),
    )
    expect(results.filter((result) => result?.created)).toHaveLength(1)
  })

  it("accepts an initData hash once even when uses race", async () => {
    const results = await run(
      Effect.all(
        [1, 2, 3].map(() => recordInitDataUse("race-hash", 1, new Date(clock.now))),
        { concurrency: "unbounded" },
      ),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  it("prunes what can no longer matter and keeps what still can", async () => {
    const session = await run(createSession(880001))
    const rotated = await run(refreshSession(session.session_id, session.refresh_token))
    expect(rotated._tag).toBe("Refreshed")
    await run(recordInitDataUse("old-hash", 1, new Date(clock.now)))
    const accessBefore = await count("kernel_access_tokens")
    const refreshBefore = await count("kernel_refresh_tokens")

    // Two days on: both access tokens are long expired; the refresh tokens (30 days) are not, and
    // the used one must stay to detect its reuse. The initData record is past max age + a day.
    clock.now += 2 * DAY
    try {
      await run(pruneExpired)
      expect(await count("kernel_access_tokens")).toBe(accessBefore - 2)
      expect(await count("kernel_refresh_tokens")).toBe(refreshBefore)
      const reuse = await run(refreshSession(session.session_id, session.refresh_token))
      expect(reuse).toMatchObject({ _tag: "Rejected", code: "refresh_token_reused" })
      expect(await run(recordInitDataUse("old-hash", 1, new Date(clock.now - 2 * DAY)))).toBe(true)
    } finally {
      clock.now -= 2 * DAY
    }
  })
})
