/**
 * Storage: one PGlite, in a data directory (locked against a second process, which would corrupt
 * it) or in memory ("memory"). A fresh database starts from a cached copy of PGlite's initdb
 * output in the temp folder, which saves seconds per test; then the migrations run.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { PGlite, type Transaction } from "@electric-sql/pglite"
import { MIGRATIONS } from "./schema.ts"

/** What the modules need from PGlite or one of its transactions. */
export type Sql = Pick<Transaction, "query" | "exec">

export interface Storage {
  readonly db: PGlite
  close(): Promise<void>
}

const INITDB_CACHE = path.join(tmpdir(), "wallet-partners-pglite-0.5.14-initdb.tar")

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return errorCode(error) === "EPERM"
  }
}

/** `<dataDir>.lock` holds the owning pid; a lock left by a dead process is taken over. */
const lock = (dataDir: string): (() => void) => {
  const file = `${dataDir}.lock`
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(file, "wx")
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(file, { force: true })
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error
      const owner = Number(readFileSync(file, "utf8").trim())
      if (Number.isInteger(owner) && owner > 0 && processAlive(owner)) {
        throw new Error(`${dataDir} is in use by another sandbox (pid ${owner})`, { cause: error })
      }
      rmSync(file, { force: true })
    }
  }
  throw new Error(`could not lock ${dataDir}`)
}

const create = async (location: string, fresh: boolean): Promise<PGlite> => {
  if (fresh && existsSync(INITDB_CACHE)) {
    try {
      return await PGlite.create(location, { loadDataDir: new Blob([readFileSync(INITDB_CACHE)]) })
    } catch {
      // an unusable cache: run initdb and rewrite it below
    }
  }
  const db = await PGlite.create(location)
  if (fresh) {
    try {
      const dump = await db.dumpDataDir("none")
      const partial = `${INITDB_CACHE}.${process.pid}.tmp`
      writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()))
      renameSync(partial, INITDB_CACHE)
    } catch {
      // the cache only saves time
    }
  }
  return db
}

const migrate = async (db: PGlite, migrations: ReadonlyArray<string>): Promise<void> => {
  await db.exec("create table if not exists schema_migrations (version integer primary key, applied_at bigint not null)")
  const done = await db.query<{ version: number }>("select version from schema_migrations")
  const applied = new Set(done.rows.map((r) => r.version))
  for (const [index, sql] of migrations.entries()) {
    const version = index + 1
    if (applied.has(version)) continue
    await db.transaction(async (tx) => {
      await tx.exec(sql)
      await tx.query("insert into schema_migrations (version, applied_at) values ($1, $2)", [version, Date.now()])
    })
  }
}

/** Opens (and migrates) the store; `dataDir` "memory" keeps everything in memory. Sumsub's migrations unless others are given. */
export const openStorage = async (dataDir: string, migrations: ReadonlyArray<string> = MIGRATIONS): Promise<Storage> => {
  const inMemory = dataDir === "memory"
  const dir = inMemory ? undefined : path.resolve(dataDir)
  if (dir) mkdirSync(dir, { recursive: true })
  const unlock = dir ? lock(dir) : () => {}
  try {
    const db = await create(dir ?? "memory://", dir === undefined || !existsSync(path.join(dir, "PG_VERSION")))
    await migrate(db, migrations)
    return {
      db,
      close: async () => {
        try {
          await db.close()
        } finally {
          unlock()
        }
      },
    }
  } catch (error) {
    unlock()
    throw error
  }
}
