/**
 * Ledger benchmark: internal transfers per second through the Ledger service on PostgreSQL, beside
 * `pgbench -b tpcb-like` on the same PostgreSQL server in the same run, and their ratio
 * (target: ledger >= 0.5x pgbench).
 *
 * The transfer API (the custody plugin's HTTP endpoints) does not exist yet, so this measures the
 * Ledger service directly (`Ledger.transfer` from concurrent in-process clients); the HTTP layer
 * will add its own cost on top.
 *
 * Both run on one throwaway cluster (the testing helper: fsync off, synchronous_commit off, the
 * same settings for both), one after the other so they do not share the CPU, alternating
 * `--runs` times (the machine is shared: each pair is measured under similar load); the summary
 * is the median of the per-pair ratios.
 *
 *   npx tsx tooling/bench/suites/ledger.ts [--seconds 15] [--clients 64] [--accounts 1000]
 *     [--pgbench-clients 8] [--scale 10] [--max-batch 256] [--workers 2] [--connections 8] [--runs 3]
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { benchTransfers } from "../../../kernel/server/src/ledger/bench.ts"
import { startTestPostgres } from "../../../kernel/server/src/testing/postgres.ts"

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    clients: { type: "string", default: "64" },
    accounts: { type: "string", default: "1000" },
    "pgbench-clients": { type: "string", default: "8" },
    scale: { type: "string", default: "10" },
    "max-batch": { type: "string", default: "256" },
    workers: { type: "string", default: "2" },
    connections: { type: "string", default: "8" },
    runs: { type: "string", default: "3" },
  },
})
const SECONDS = Number(values.seconds)
const PGBENCH_CLIENTS = Number(values["pgbench-clients"])
const SCALE = Number(values.scale)

const pgbenchBinary = (): string => {
  const base = "/usr/lib/postgresql"
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, "bin", "pgbench")))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length === 0) throw new Error("pgbench not found under /usr/lib/postgresql/*/bin (apt-get install postgresql-contrib or postgresql)")
  return join(base, versions[0]!, "bin", "pgbench")
}

const pgbench = (url: string, args: ReadonlyArray<string>): string => {
  const result = spawnSync(pgbenchBinary(), [...args, url], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`pgbench ${args.join(" ")} failed: ${result.stderr}`)
  return result.stdout + result.stderr
}

const postgres = await startTestPostgres()
try {
  console.log(`ledger bench: one throwaway PostgreSQL cluster, ${SECONDS} s per run`)

  pgbench(postgres.url, ["-i", "-q", "-s", String(SCALE)])
  const ratios: Array<number> = []
  let auditFailed = false
  for (let run = 1; run <= Number(values.runs); run++) {
    const out = pgbench(postgres.url, ["-b", "tpcb-like", "-c", String(PGBENCH_CLIENTS), "-j", "2", "-T", String(SECONDS), "-n"])
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN)
    console.log(`[run ${run}] pgbench -b tpcb-like -s ${SCALE} -c ${PGBENCH_CLIENTS} -j 2: ${tps.toFixed(0)} tps`)
    const result = await benchTransfers({
      url: postgres.url,
      seconds: SECONDS,
      clients: Number(values.clients),
      accounts: Number(values.accounts),
      maxBatch: Number(values["max-batch"]),
      workers: Number(values.workers),
      maxConnections: Number(values.connections),
      runId: String(run),
    })
    console.log(
      `[run ${run}] ledger transfers (Ledger service, no HTTP; ${values.clients} concurrent clients, ${values.accounts} accounts, max batch ${values["max-batch"]}, ${values.workers} workers): ` +
        `${result.transfersPerSecond.toFixed(0)} transfers/s (${result.committed} committed, ${result.failed} failed; latency p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms)`,
    )
    ratios.push(result.transfersPerSecond / tps)
    console.log(`[run ${run}] ratio ledger / pgbench: ${(result.transfersPerSecond / tps).toFixed(2)}x`)
    if (!result.auditOk) auditFailed = true
    if (run === Number(values.runs) || !result.auditOk) console.log(result.auditText)
  }
  const sorted = [...ratios].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]!
  console.log(`ratio ledger / pgbench (median of ${ratios.length}): ${median.toFixed(2)}x (target >= 0.5x)`)
  if (auditFailed) process.exitCode = 1
} finally {
  await postgres.stop()
}
