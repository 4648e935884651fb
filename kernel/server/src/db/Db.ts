/**
 * `Db`: one SQL driver (`@effect/sql-pg`) for both databases. The embedded default is PGlite
 * (Postgres in WASM) served on a loopback socket by `PGLiteSocketServer`; `DATABASE_URL` points the
 * same client, SQL and migrations at a real PostgreSQL. See docs/decisions/0200-db-one-driver.md.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted, Schema, SchemaTransformation } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

export type DatabaseOptions =
  | { readonly kind: "postgres"; readonly url: string; readonly maxConnections?: number }
  /** `dataDir` undefined: in memory (tests). */
  | { readonly kind: "pglite"; readonly dataDir?: string }

export const describeDatabase = (options: DatabaseOptions): string =>
  options.kind === "postgres" ? "postgresql (DATABASE_URL)" : options.dataDir ? `pglite ${options.dataDir}` : "pglite (in memory)"

/** Bump with the PGlite dependency: the template is its initdb output. */
const PGLITE_VERSION = "0.5.14"
const templateFile = join(tmpdir(), `wallet-pglite-${PGLITE_VERSION}-template.tar`)

/**
 * A fresh PGlite runs initdb in WASM, which takes seconds; every fresh database after the first
 * on this machine starts from a cached copy of that initdb output instead.
 */
const createPglite = async (dataDir: string | undefined): Promise<PGlite> => {
  const location = dataDir ?? "memory://"
  const fresh = dataDir === undefined || !existsSync(join(dataDir, "PG_VERSION"))
  if (fresh && existsSync(templateFile)) {
    try {
      return await PGlite.create(location, { loadDataDir: new Blob([readFileSync(templateFile)]) })
    } catch {
      // An unreadable template: fall back to initdb (and rewrite the template below).
    }
  }
  const db = await PGlite.create(location)
  if (fresh) {
    try {
      const dump = await db.dumpDataDir("none")
      const partial = `${templateFile}.${process.pid}.tmp`
      writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()))
      renameSync(partial, templateFile)
    } catch {
      // The template only saves time.
    }
  }
  return db
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === "EPERM"
  }
}

/**
 * PGlite does not lock its data directory, and two processes writing one directory corrupt it:
 * `<dataDir>.lock` holds the owner's pid; a lock whose process is gone is taken over.
 */
const lockDataDir = (dataDir: string): (() => void) => {
  const lockFile = `${dataDir}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx")
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(lockFile, { force: true })
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error
      const owner = Number(readFileSync(lockFile, "utf8").trim())
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new Error(`${dataDir} is in use by another server (pid ${owner}); stop it or set DATABASE_URL`, { cause: error })
      }
      rmSync(lockFile, { force: true })
    }
  }
  throw new Error(`could not lock ${dataDir}`)
}

/** Starts PGlite and serves it on an ephemeral loopback port for the lifetime of the scope. */
const servePglite = (dataDir: string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      if (dataDir) mkdirSync(dataDir, { recursive: true })
      const unlock = dataDir ? lockDataDir(dataDir) : () => {}
      let db: PGlite
      try {
        db = await createPglite(dataDir)
      } catch (error) {
        unlock()
        throw error
      }
      // PGlite has one session: the client below keeps a single connection so that statements of
      // different requests never interleave inside one extended-protocol exchange or transaction.
      const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 4 })
      await server.start()
      const port = Number(server.getServerConn().split(":").pop())
      return { db, server, port, unlock }
    }),
    ({ db, server, unlock }) =>
      Effect.promise(async () => {
        await server.stop()
        await db.close()
        unlock()
      }),
  )

/** Provides `SqlClient` (and `PgClient`) for the chosen database. */
export const layer = (options: DatabaseOptions): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  options.kind === "postgres"
    ? PgClient.layer({ url: Redacted.make(options.url), maxConnections: options.maxConnections ?? 10, applicationName: "wallet-api" })
    : Layer.unwrap(
        Effect.map(servePglite(options.dataDir), ({ port }) =>
          PgClient.layer({
            host: "127.0.0.1",
            port,
            username: "postgres",
            database: "postgres",
            maxConnections: 1,
            minConnections: 1,
            applicationName: "wallet-api",
          }),
        ),
      )

/**
 * int8 arrives as bigint (@effect/sql-pg), number (PGlite direct) or string (node-postgres):
 * every int8 column is decoded through this one Schema.
 */
export const Int8 = Schema.Union([Schema.BigInt, Schema.Number, Schema.String]).pipe(
  Schema.decodeTo(
    Schema.BigInt,
    SchemaTransformation.transform<bigint, bigint | number | string>({
      decode: (value) => (typeof value === "bigint" ? value : BigInt(value)),
      encode: (value) => value,
    }),
  ),
)

/** An int8 that must fit a JS number (Telegram user ids are below 2^52). */
export const Int8Number = Int8.pipe(
  Schema.decodeTo(
    Schema.Number.check(Schema.isInt()),
    SchemaTransformation.transform({ decode: (value: bigint) => Number(value), encode: (value: number) => BigInt(value) }),
  ),
)

export const decodeInt8 = Schema.decodeUnknownSync(Int8)
export const decodeInt8Number = Schema.decodeUnknownSync(Int8Number)
