/**
 * Custody transfers through the HTTP API on PostgreSQL, beside `pgbench -b tpcb-like` on the same
 * throwaway cluster in the same run, and their ratio (target >= 0.5x pgbench).
 *
 * The server (kernel + custody plugin, the real handlers, session auth on every request) runs in a
 * child process on the cluster; this process is the load generator: `--clients` concurrent
 * keep-alive connections, each looping POST /api/custody/transfers (an internal transfer to
 * another Telegram user: one Ledger hold plus its records) between `--users` funded users. The
 * "lifecycle" phase also approves each transfer as the receiver (hold, then post: two Ledger
 * movements and two requests per transfer). A read phase (GET /api/view-settings: session auth plus
 * one read) shows the HTTP stack's own ceiling on this machine. pgbench and each phase alternate
 * `--runs` times so they do not share the CPU; the Ledger audit runs at the end. Each phase also
 * prints the CPU per request of the server, PostgreSQL and this load generator (from /proc), which
 * the other load on the machine moves much less than the rates (docs/decisions/0403).
 *
 *   npx tsx tooling/bench/suites/ledger-http.ts [--seconds 10] [--clients 64] [--users 200] [--runs 2]
 *     [--pgbench-clients 8] [--scale 10] [--connections 8] [--phases read,create,lifecycle]
 *     [--processes 1] [--cpu-prof DIR] [--statements]
 *   --runs must be odd: each ratio is the median run.
 *   --statements: PostgreSQL with pg_stat_statements; the first run prints, per phase, the statements
 *   per request and the most frequent ones (what each request costs the database).
 *   BENCH_SCANS=1 also prints the sequential scans per table at the end.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import cluster from "node:cluster"
import { randomUUID } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import http from "node:http"
import { dirname, join } from "node:path"
import { parseArgs } from "node:util"
import { signInitData } from "../../../kernel/server/src/kernel/initData.ts"
import { startServer } from "../../../kernel/server/src/server.ts"
import { startTestPostgres } from "../../../kernel/server/src/testing/postgres.ts"
import { serverPlugin } from "../../../plugins/custody/src/server/index.ts"
import { probePlugin } from "../../../plugins/custody/src/server/testSupport.ts"
import { Connection, cpuOfTree, median, percentile, postmasterPid } from "../src/http-load.ts"

const BOT_TOKEN = "1234567:ledger-http-bench"
const { values } = parseArgs({
  options: {
    serve: { type: "string" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "64" },
    users: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
    statements: { type: "boolean", default: false },
    "pgbench-clients": { type: "string", default: "8" },
    scale: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    phases: { type: "string", default: "read,create,lifecycle" },
    processes: { type: "string", default: "1" },
    "cpu-prof": { type: "string" },
  },
})

// --- parent: pgbench, load, figures -------------------------------------------------------------

function pgbenchBinary(): string {
  const base = "/usr/lib/postgresql"
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, "bin", "pgbench")))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length === 0) throw new Error("pgbench not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
  return join(base, versions[0]!, "bin", "pgbench")
}

function pgbench(url: string, args: ReadonlyArray<string>): string {
  const result = spawnSync(pgbenchBinary(), [...args, url], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`pgbench ${args.join(" ")} failed: ${result.stderr}`)
  return result.stdout + result.stderr
}

function psql(url: string, query: string): string {
  const result = spawnSync(join(dirname(pgbenchBinary()), "psql"), [url, "-At", "-F", " | ", "-c", query], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`)
  return result.stdout.trim()
}

/** With --statements: what one request of a phase costs the database, from pg_stat_statements. */
function statementsPerRequest(url: string, requests: number): string {
  const own = "query not like '%pg_stat_statements%'"
  const total = Number(psql(url, `select coalesce(sum(calls), 0) from pg_stat_statements where ${own}`))
  const top = psql(
    url,
    `select to_char(calls::numeric / ${requests}, 'FM990.000'), to_char(total_exec_time / ${requests}, 'FM990.000') || ' ms', to_char(mean_exec_time, 'FM990.000') || ' ms',
            left(regexp_replace(query, '\\s+', ' ', 'g'), 110)
       from pg_stat_statements where ${own} order by total_exec_time desc limit 12`,
  )
  return `statements per request: ${(total / requests).toFixed(2)} (calls per request | execution per request | mean execution | statement, by execution time)\n${top
    .split("\n")
    .map((line) => `          ${line}`)
    .join("\n")}`
}

function startChild(url: string): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const profile = values["cpu-prof"] !== undefined ? ["--cpu-prof", "--cpu-prof-dir", values["cpu-prof"]] : []
    const child = spawn(
      process.execPath,
      [
        ...profile,
        "--import",
        "tsx",
        import.meta.filename,
        "--serve",
        url,
        "--connections",
        String(values.connections),
        "--processes",
        String(values.processes),
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    )
    let output = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /ready (http:\/\/\S+)/.exec(output)
      if (match) resolve({ child, base: match[1]! })
    })
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.once("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)))
  })
}

interface Cpu {
  readonly server: number
  readonly postgres: number
  readonly client: number
}
let cpuPids = { server: -1, postgres: -1 }
const cpuNow = (): Cpu => ({
  server: cpuOfTree(cpuPids.server),
  postgres: cpuOfTree(cpuPids.postgres),
  client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
})
/**
 * CPU per request of each side, and the rate that CPU allows on 2 and on 3 cores given to the
 * server and PostgreSQL alone (the load generator elsewhere): what one more core would buy when
 * the cores, not the design, are the limit.
 */
const cpuLine = (before: Cpu, after: Cpu, count: number) => {
  const server = ((after.server - before.server) / count) * 1e3
  const postgres = ((after.postgres - before.postgres) / count) * 1e3
  const client = ((after.client - before.client) / count) * 1e3
  const ceiling = (cores: number) => ((cores * 1000) / Math.max(0.001, server + postgres)).toFixed(0)
  return (
    `CPU per request: server ${server.toFixed(2)} ms, postgres ${postgres.toFixed(2)} ms, load generator ${client.toFixed(2)} ms; ` +
    `CPU-bound ceiling ${ceiling(2)}/s on 2 cores, ${ceiling(3)}/s on 3`
  )
}

// Setup requests (sign-in, funding, audit) go through node:http.
let agent = new http.Agent({ keepAlive: true, maxSockets: 1024 })

function request(base: string, method: string, path: string, body: unknown, authorization?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const url = new URL(path, base)
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: {
          ...(authorization !== undefined ? { authorization } : {}),
          ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString()
          resolve({ status: res.statusCode ?? 0, body: text === "" ? undefined : JSON.parse(text) })
        })
      },
    )
    req.on("error", reject)
    if (payload !== undefined) req.write(payload)
    req.end()
  })
}

interface Phase {
  readonly perSecond: number
  readonly ok: number
  readonly failed: number
  readonly p50: number
  readonly p99: number
  readonly cpu: string
}

async function load(
  base: string,
  tokens: ReadonlyArray<{ id: number; token: string }>,
  seconds: number,
  mode: "create" | "lifecycle" | "read",
): Promise<Phase> {
  let ok = 0
  let failed = 0
  const latencies: Array<number> = []
  const deadline = performance.now() + seconds * 1000
  let next = 0
  const client = async () => {
    const connection = new Connection(base)
    try {
      while (performance.now() < deadline) {
        const i = next++ % tokens.length
        const j = (i + 1 + (next % (tokens.length - 1))) % tokens.length
        const sender = tokens[i]!
        const receiver = tokens[j]!
        const t0 = performance.now()
        if (mode === "read") {
          const read = await connection.send("GET", "/api/view-settings", undefined, `Bearer ${sender.token}`)
          if (read.status === 200) {
            ok++
            latencies.push(performance.now() - t0)
          } else failed++
          continue
        }
        const payload = `{"idempotencyKey":"${randomUUID()}","receiverId":${receiver.id},"currency":"TON","amount":"0.001"}`
        const created = await connection.send("POST", "/api/custody/transfers", payload, `Bearer ${sender.token}`)
        let good = created.status === 200
        if (good && mode === "lifecycle") {
          const id = (JSON.parse(created.body) as { id: string }).id
          const approved = await connection.send("POST", `/api/custody/transfers/${id}/approve`, undefined, `Bearer ${receiver.token}`)
          good = approved.status === 200
        }
        if (good) {
          ok++
          latencies.push(performance.now() - t0)
        } else failed++
      }
    } finally {
      connection.close()
    }
  }
  const started = performance.now()
  const cpuBefore = cpuNow()
  await Promise.all(Array.from({ length: Number(values.clients) }, client))
  const elapsed = (performance.now() - started) / 1000
  const cpu = cpuLine(cpuBefore, cpuNow(), Math.max(1, ok))
  latencies.sort((a, b) => a - b)
  return { perSecond: ok / elapsed, ok, failed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpu }
}

async function main() {
  const seconds = Number(values.seconds)
  const phases = new Set(values.phases.split(","))
  if (Number(values.runs) % 2 !== 1) throw new Error("--runs must be odd: each ratio is the median run")
  const postgres = await startTestPostgres(values.statements ? { settings: { shared_preload_libraries: "pg_stat_statements" } } : {})
  let server: { child: ChildProcess; base: string } | undefined
  try {
    console.log(`ledger-http bench: one throwaway PostgreSQL cluster, ${seconds} s per phase, ${values.clients} HTTP clients, ${values.users} users`)
    pgbench(postgres.url, ["-i", "-q", "-s", String(values.scale)])
    server = await startChild(postgres.url)
    cpuPids = { server: server.child.pid ?? -1, postgres: postmasterPid(postgres.url) }
    const base = server.base
    const users: Array<{ id: number; token: string }> = []
    for (let n = 0; n < Number(values.users); n++) {
      const id = 9_500_000_000 + n
      const initData = signInitData({ user: { id, first_name: `Bench${n}` }, authDate: new Date(), queryId: randomUUID() }, BOT_TOKEN)
      const auth = await request(base, "POST", "/api/auth/init", undefined, `tma ${initData}`)
      if (auth.status !== 200) throw new Error(`auth failed: ${JSON.stringify(auth.body)}`)
      await request(base, "POST", "/api/custody-probe/fund", { userId: id, currency: "TON", amount: "1000000", key: `bench:fund:${id}` })
      users.push({ id, token: auth.body.access_token as string })
    }
    await load(base, users, 2, "create") // warm-up
    if (values.statements) psql(postgres.url, "create extension if not exists pg_stat_statements")
    const measure = async (run: number, mode: "create" | "lifecycle" | "read") => {
      const counting = values.statements && run === 1
      if (counting) psql(postgres.url, "select pg_stat_statements_reset()")
      const phase = await load(base, users, seconds, mode)
      return counting ? { ...phase, cpu: `${phase.cpu}\n        ${statementsPerRequest(postgres.url, Math.max(1, phase.ok))}` } : phase
    }

    const readRatios: Array<number> = []
    const ratios: Array<number> = []
    const lifecycleRatios: Array<number> = []
    for (let run = 1; run <= Number(values.runs); run++) {
      const pgBefore = cpuOfTree(cpuPids.postgres)
      const out = pgbench(postgres.url, ["-b", "tpcb-like", "-c", String(values["pgbench-clients"]), "-j", "2", "-T", String(seconds), "-n"])
      const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN)
      const pgPerTx = ((cpuOfTree(cpuPids.postgres) - pgBefore) / (tps * seconds)) * 1e3
      console.log(
        `[run ${run}] pgbench -b tpcb-like -s ${values.scale} -c ${values["pgbench-clients"]} -j 2: ${tps.toFixed(0)} tps (postgres CPU ${pgPerTx.toFixed(2)} ms per transaction; load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`,
      )
      if (phases.has("read")) {
        const read = await measure(run, "read")
        console.log(
          `[run ${run}] HTTP ceiling of this server (GET /api/view-settings: auth + one read): ${read.perSecond.toFixed(0)}/s ` +
            `(p50 ${read.p50.toFixed(1)} ms, p99 ${read.p99.toFixed(1)} ms) -> ${(read.perSecond / tps).toFixed(2)}x pgbench\n        ${read.cpu}`,
        )
        readRatios.push(read.perSecond / tps)
      }
      if (phases.has("create")) {
        const create = await measure(run, "create")
        console.log(
          `[run ${run}] HTTP internal transfers (POST /api/custody/transfers: auth, hold, records): ${create.perSecond.toFixed(0)}/s ` +
            `(${create.ok} ok, ${create.failed} failed; p50 ${create.p50.toFixed(1)} ms, p99 ${create.p99.toFixed(1)} ms) -> ${(create.perSecond / tps).toFixed(2)}x pgbench\n        ${create.cpu}`,
        )
        ratios.push(create.perSecond / tps)
      }
      if (phases.has("lifecycle")) {
        const lifecycle = await measure(run, "lifecycle")
        console.log(
          `[run ${run}] HTTP transfer lifecycle (create + approve by the receiver): ${lifecycle.perSecond.toFixed(0)}/s ` +
            `(${lifecycle.ok} ok, ${lifecycle.failed} failed; p50 ${lifecycle.p50.toFixed(1)} ms, p99 ${lifecycle.p99.toFixed(1)} ms) -> ${(lifecycle.perSecond / tps).toFixed(2)}x pgbench\n        ${lifecycle.cpu}`,
        )
        lifecycleRatios.push(lifecycle.perSecond / tps)
      }
    }
    const verdict = (value: number, target: number) => `${value.toFixed(2)}x (target >= ${target.toFixed(1)}x: ${value >= target ? "met" : "missed"})`
    if (readRatios.length > 0) console.log(`ratio authenticated reads / pgbench (median of ${readRatios.length}): ${verdict(median(readRatios), 1)}`)
    if (ratios.length > 0) console.log(`ratio HTTP transfers / pgbench (median of ${ratios.length}): ${verdict(median(ratios), 1)}`)
    if (lifecycleRatios.length > 0)
      console.log(`ratio HTTP create+approve / pgbench (median of ${lifecycleRatios.length}): ${verdict(median(lifecycleRatios), 0.5)}`)
    if (process.env.BENCH_SCANS) {
      console.log(
        psql(
          postgres.url,
          "select relname, seq_scan, seq_tup_read, idx_scan, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup from pg_stat_user_tables order by n_tup_upd + seq_tup_read desc limit 12",
        ),
      )
    }
    const audit = await request(base, "GET", "/api/custody-probe/audit", undefined)
    console.log(`ledger audit: ${audit.body.ok ? "clean" : `VIOLATIONS ${JSON.stringify(audit.body.violations)}`}`)
    if (!audit.body.ok) process.exitCode = 1
  } finally {
    if (server !== undefined) {
      const child = server.child
      child.removeAllListeners("exit")
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })
    }
    agent.destroy()
    await postgres.stop()
  }
}

// --- child: the server (one process, or `--processes` cluster workers sharing one port) ----------
const serve = async (url: string, port: number) => {
  const server = await startServer({
    port,
    database: { kind: "postgres", url, maxConnections: Number(values.connections) },
    botToken: BOT_TOKEN,
    accessTokenTtlSeconds: 24 * 3600,
    plugins: [serverPlugin, probePlugin],
    // A few users post thousands of transfers a second: far above the per-user money limit (decision 0206).
    rateLimits: false,
  })
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)))
  return server
}

if (values.serve !== undefined && cluster.isPrimary && Number(values.processes) > 1) {
  // Workers start one after the other (the first runs the migrations); each listens on port 0,
  // which the cluster resolves to one shared port.
  let port = 0
  for (let n = 0; n < Number(values.processes); n++) {
    const worker = cluster.fork()
    port = await new Promise<number>((resolve, reject) => {
      worker.once("message", (message: { port: number }) => resolve(message.port))
      worker.once("exit", (code) => reject(new Error(`server worker exited (${code})`)))
    })
  }
  console.log(`ready http://127.0.0.1:${port}`)
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM")
    cluster.disconnect(() => process.exit(0))
  })
} else if (values.serve !== undefined && cluster.isWorker) {
  const server = await serve(values.serve, 0)
  process.send!({ port: server.port })
} else if (values.serve !== undefined) {
  const server = await serve(values.serve, 0)
  console.log(`ready ${server.url}`)
} else {
  await main()
}
