import { Effect, Layer, ManagedRuntime, Scope, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Db from "../db/Db.ts"
import { runMigrations } from "../db/migrations.ts"
import { kernelMigrations } from "../kernel/migrations.ts"
import { createSession } from "../kernel/sessions.ts"
import { upsertFromTelegram } from "../kernel/users.ts"
import { ServerConfig } from "../services.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { testServerConfig } from "../testing/config.ts"
import { checkAccessTokens, makeAccessTokenChecker } from "./accessTokens.ts"

const clock = { now: Date.UTC(2026, 2, 1) }

describe.each(testDatabases)("batched access token checks on %s", (kind) => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient | ServerConfig, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | ServerConfig>) => runtime.runPromise(effect)
  const exec = (statement: string, params: ReadonlyArray<unknown>) =>
    run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe(statement, params)))
  const session = async (userId: number) => {
    await run(upsertFromTelegram({ id: userId, first_name: "Token" }))
    return run(createSession(userId))
  }

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

  it("answers each token of one lookup as the single check would", async () => {
    const valid = await session(770001)
    const revoked = await session(770002)
    const expired = await session(770003)
    const blocked = await session(770004)
    await exec(`update kernel_sessions set revoked_at = now() where id = $1`, [revoked.session_id])
    await exec(`update kernel_access_tokens set expires_at = $1 where session_id = $2`, [new Date(clock.now - 1000), expired.session_id])
    await exec(`update kernel_users set is_blocked = true where id = $1`, [770004])
    const checks = await run(
      checkAccessTokens([valid.access_token, "nope", revoked.access_token, expired.access_token, blocked.access_token, valid.access_token]),
    )
    expect(checks).toEqual([
      { _tag: "Valid", userId: 770001, sessionId: valid.session_id, isBlocked: false },
      expect.objectContaining({ _tag: "Rejected", code: "token_invalid" }),
      expect.objectContaining({ _tag: "Rejected", code: "session_revoked" }),
      expect.objectContaining({ _tag: "Rejected", code: "token_expired" }),
      { _tag: "Valid", userId: 770004, sessionId: blocked.session_id, isBlocked: true },
      { _tag: "Valid", userId: 770001, sessionId: valid.session_id, isBlocked: false },
    ])
  })

  it("shares lookups between concurrent requests and still sees a revocation at once (no cache)", async () => {
    const sessions = await Promise.all(Array.from({ length: 12 }, (_, i) => session(771000 + i)))
    const batches: Array<number> = []
    const scope = Effect.runSync(Scope.make())
    try {
      const checker = await run(makeAccessTokenChecker({ workers: 1, onBatch: (size) => batches.push(size) }).pipe(Scope.provide(scope)))
      const checks = await run(
        Effect.all(
          sessions.map((s) => checker.run(s.access_token)),
          { concurrency: "unbounded" },
        ),
      )
      expect(checks.map((check) => (check._tag === "Valid" ? check.userId : check.code))).toEqual(sessions.map((_, i) => 771000 + i))
      expect(batches.reduce((a, b) => a + b, 0)).toBe(12)
      expect(batches.length).toBeLessThan(12)
      await exec(`update kernel_sessions set revoked_at = now() where id = $1`, [sessions[3]!.session_id])
      expect(await run(checker.run(sessions[3]!.access_token))).toMatchObject({ _tag: "Rejected", code: "session_revoked" })
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })
})
