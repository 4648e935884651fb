import { Effect, Exit, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import * as Db from "./Db.ts"
import { runMigrations, type Migration, type MigrationModule } from "./migrations.ts"

const exec = (statement: string): Migration["up"] =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(statement)
  })

const tableExists = (name: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`select 1 from information_schema.tables where table_name = ${name}`
    return rows.length === 1
  })

const recorded = (module: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: number; name: string }>`select id, name from kernel_migrations where module = ${module} order by id`
    return rows.map((row) => `${row.id}:${row.name}`)
  })

describe.each(testDatabases)("migration runner on %s", (kind) => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => runtime.runPromise(effect)
  const runExit = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => runtime.runPromiseExit(effect)

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    runtime = ManagedRuntime.make(Db.layer(database.options))
  }, 60_000)
  afterAll(async () => {
    await runtime?.dispose()
    await database?.stop()
  })

  it("applies modules in order, each migration once, and records them", async () => {
    const alpha: MigrationModule = {
      id: "alpha",
      migrations: [
        { id: 1, name: "create", up: exec("create table alpha_items (id int primary key)") },
        { id: 2, name: "column", up: exec("alter table alpha_items add column label text") },
      ],
    }
    // beta's migration needs alpha's table: it only works because alpha runs first.
    const beta: MigrationModule = {
      id: "beta",
      migrations: [{ id: 1, name: "view", up: exec("create table beta_links (alpha_id int references alpha_items (id))") }],
    }
    const first = await run(runMigrations([alpha, beta]))
    expect(first.map((m) => `${m.module}:${m.id}`)).toEqual(["alpha:1", "alpha:2", "beta:1"])
    expect(await run(recorded("alpha"))).toEqual(["1:create", "2:column"])
    const second = await run(runMigrations([alpha, beta]))
    expect(second).toEqual([])
    const third = await run(
      runMigrations([
        { ...alpha, migrations: [...alpha.migrations, { id: 3, name: "index", up: exec("create index alpha_items_label on alpha_items (label)") }] },
        beta,
      ]),
    )
    expect(third.map((m) => `${m.module}:${m.id}`)).toEqual(["alpha:3"])
  })

  it("refuses a table outside the module's prefix and rolls the whole run back", async () => {
    const exit = await runExit(
      runMigrations([
        { id: "gamma", migrations: [{ id: 1, name: "ok", up: exec("create table gamma_ok (id int)") }] },
        { id: "delta", migrations: [{ id: 1, name: "foreign", up: exec("create table not_delta (id int)") }] },
      ]),
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain('prefixed "delta_"')
    expect(await run(tableExists("gamma_ok"))).toBe(false)
    expect(await run(tableExists("not_delta"))).toBe(false)
    expect(await run(recorded("gamma"))).toEqual([])
  })

  it("rolls back when a migration fails, leaving nothing recorded", async () => {
    const exit = await runExit(
      runMigrations([
        {
          id: "epsilon",
          migrations: [
            { id: 1, name: "table", up: exec("create table epsilon_rows (id int)") },
            { id: 2, name: "broken", up: exec("alter table epsilon_missing add column x int") },
          ],
        },
      ]),
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(await run(tableExists("epsilon_rows"))).toBe(false)
    expect(await run(recorded("epsilon"))).toEqual([])
  })

  it("rejects ids that do not strictly increase and modules listed twice", async () => {
    const unordered = await runExit(
      runMigrations([
        {
          id: "zeta",
          migrations: [
            { id: 2, name: "b", up: Effect.void },
            { id: 1, name: "a", up: Effect.void },
          ],
        },
      ]),
    )
    expect(String(Exit.isFailure(unordered) ? unordered.cause : "")).toContain("strictly increasing")
    const twice = await runExit(
      runMigrations([
        { id: "eta", migrations: [] },
        { id: "eta", migrations: [] },
      ]),
    )
    expect(String(Exit.isFailure(twice) ? twice.cause : "")).toContain("listed twice")
  })

  it("applies each migration once when several servers boot at the same time", async () => {
    const theta: MigrationModule = {
      id: "theta",
      migrations: [
        { id: 1, name: "create", up: exec("create table theta_rows (id int)") },
        { id: 2, name: "seed", up: exec("insert into theta_rows values (1)") },
      ],
    }
    const results = await run(Effect.all([runMigrations([theta]), runMigrations([theta]), runMigrations([theta])], { concurrency: "unbounded" }))
    expect(results.map((applied) => applied.length).sort()).toEqual([0, 0, 2])
    const rows = await run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql`select count(*)::int as n from theta_rows`))
    expect(rows[0]).toEqual({ n: 1 })
  })

  it("decodes int8 through one schema whatever the driver returns", async () => {
    const rows = await run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql`select 9007199254740993::int8 as big, 700000001::int8 as id`))
    expect(Db.decodeInt8(rows[0]!.big)).toBe(9007199254740993n)
    expect(Db.decodeInt8Number(rows[0]!.id)).toBe(700000001)
    expect(Db.decodeInt8("42")).toBe(42n)
    expect(Db.decodeInt8(42)).toBe(42n)
  })
})
