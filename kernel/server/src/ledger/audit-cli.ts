/**
 * The Ledger audit as a command: checks every invariant over the whole database, prints the
 * report and exits 0 when clean, 1 on any violation, 2 when it cannot run.
 *
 *   npx tsx kernel/server/src/ledger/audit-cli.ts [--database-url postgres://...] [--data-dir <pglite dir>] [--json]
 *   node tooling/scripts/ledger-audit.mjs [same options]
 *
 * Database: --database-url, else DATABASE_URL, else the embedded PGlite directory (--data-dir,
 * WALLET_DATA_DIR, default <repo>/.data/pglite; the API server must be stopped: PGlite is
 * single-process). Read-only: it never migrates or writes.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Db from "../db/Db.ts"
import { formatAuditReport, runAudit } from "./audit.ts"

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    "data-dir": { type: "string" },
    json: { type: "boolean", default: false },
  },
})

const repoRoot = join(import.meta.dirname, "..", "..", "..", "..")
const url = values["database-url"] ?? process.env.DATABASE_URL
const dataDir = values["data-dir"] ?? process.env.WALLET_DATA_DIR ?? join(repoRoot, ".data", "pglite")

if (url === undefined && !existsSync(join(dataDir, "PG_VERSION"))) {
  console.error(`ledger audit: no database: set DATABASE_URL or --database-url, or --data-dir to an existing PGlite directory (${dataDir} has none)`)
  process.exit(2)
}
const options: Db.DatabaseOptions = url !== undefined ? { kind: "postgres", url, maxConnections: 1 } : { kind: "pglite", dataDir }

const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{
    n: number
  }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name like 'ledger\\_%'`
  if (Number(tables[0]?.n ?? 0) === 0) return undefined
  return yield* runAudit
}).pipe(Effect.scoped, Effect.provide(Db.layer(options)))

try {
  const report = await Effect.runPromise(program)
  if (report === undefined) {
    console.error(`ledger audit: ${Db.describeDatabase(options)} has no ledger tables (the ledger module has not been migrated there)`)
    process.exit(2)
  }
  console.log(values.json ? JSON.stringify(report, null, 2) : formatAuditReport(report))
  process.exit(report.ok ? 0 : 1)
} catch (error) {
  console.error(`ledger audit: could not run on ${Db.describeDatabase(options)}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(2)
}
