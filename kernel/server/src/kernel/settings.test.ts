import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Db from "../db/Db.ts"
import { runMigrations } from "../db/migrations.ts"
import type { ServerConfig } from "../services.ts"
import { testServerConfig } from "../testing/config.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { kernelMigrations } from "./migrations.ts"
import { makeViewSettingsReader, saveViewSettings, viewSettingsOfUsers } from "./settings.ts"
import { upsertFromTelegram } from "./users.ts"

describe.each(testDatabases)("view settings read in batches on %s", (kind) => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient | ServerConfig, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | ServerConfig>) => runtime.runPromise(effect)

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    runtime = ManagedRuntime.make(
      Layer.mergeAll(
        Db.layer(database.options),
        testServerConfig(() => Date.UTC(2026, 10, 1)),
      ),
    )
    await run(runMigrations([{ id: "kernel", migrations: kernelMigrations }]))
    for (const id of [770001, 770002, 770003]) await run(upsertFromTelegram({ id, first_name: `Reader${id}` }))
    await run(saveViewSettings(770001, { changedUserFlags: { expand_cryptocurrency: true } }))
    await run(saveViewSettings(770002, { changedBanners: { display_terms_banner: false } }))
  }, 60_000)
  afterAll(async () => {
    await runtime?.dispose()
    await database?.stop()
  })

  it("answers each user their own settings in order, a repeated user twice and an unknown one undefined", async () => {
    const list = await run(viewSettingsOfUsers([770002, 770001, 999999, 770002, 770003]))
    expect(list.map((settings) => settings?.data.userFlags.expand_cryptocurrency)).toEqual([false, true, undefined, false, false])
    expect(list.map((settings) => settings?.data.banners.display_terms_banner)).toEqual([false, true, undefined, false, true])
  })

  it("shares one query among concurrent reads and still answers each its own", async () => {
    const batches: Array<number> = []
    const answers = await run(
      Effect.scoped(
        Effect.gen(function* () {
          const reader = yield* makeViewSettingsReader({ onBatch: (size) => batches.push(size) })
          return yield* Effect.all(
            [770001, 770002, 770003, 770001, 770002, 770003, 770001, 999999].map((id) => reader.run(id)),
            { concurrency: "unbounded" },
          )
        }),
      ),
    )
    expect(answers.map((settings) => settings?.data.userFlags.expand_cryptocurrency)).toEqual([true, false, false, true, false, false, true, undefined])
    // Eight reads in fewer queries than reads: the first runs at once, the rest share a batch.
    expect(batches.reduce((a, b) => a + b, 0)).toBe(8)
    expect(batches.length).toBeLessThan(8)
  })
})
