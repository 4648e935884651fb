// API server benchmark: requests per second and p50/p90/p99 latency of the authenticated
// view-settings endpoint (GET /api/view-settings, Bearer access token: one session check plus one
// settings read per request) at 200 concurrent keep-alive clients (target p99 <= 50 ms, issue 18),
// against a locally started server process (`host/server/src/main.ts`, WALLET_DEV=1) on embedded
// PGlite and, when the binaries exist, on a throwaway PostgreSQL. Each client sends one request at a
// time over its own connection (the hand-written client of http-load.ts: fetch cost the shared CPU
// more than the server did). Prints the CPU per request of the server process (and of PostgreSQL),
// and the floor Little's law puts under the mean latency of a closed loop: clients / throughput.
// `--runs` (odd) repeats the measurement; the figures are the median run's. Also reports the
// server's start time (spawn -> "api ready").
// Run: npm run bench -- server [--clients 200] [--seconds 10] [--warmup 2] [--runs 3] [--db pglite|postgres|both]
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { parseArgs } from "node:util"
import { startTestPostgres, type TestPostgres } from "../../../kernel/server/src/testing/postgres.ts"
import { Connection, cpuOfTree, median, percentile, postmasterPid } from "../src/http-load.ts"

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    db: { type: "string", default: "both" },
  },
})
const CLIENTS = Number(values.clients)
const SECONDS = Number(values.seconds)
const WARMUP = Number(values.warmup)
const root = path.resolve(import.meta.dirname, "..", "..", "..")
const DEMO_USER = 700000002

const RUNS = Number(values.runs)
if (RUNS % 2 !== 1) throw new Error("--runs must be odd: the figures are the median run's")
const ms = (n: number) => `${n.toFixed(2)} ms`

interface ServerProcess {
  readonly child: ChildProcess
  readonly url: string
  readonly startMs: number
}

const startServerProcess = (env: Record<string, string>): Promise<ServerProcess> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, ["--import", "tsx", "host/server/src/main.ts", "--port", "0"], {
      cwd: root,
      // Every client signs the one demo user in: far above the per-user sign-in limit (decision 0206).
      env: { ...process.env, WALLET_DEV: "1", BOT_TOKEN: "", DATABASE_URL: "", RATE_LIMITS: "off", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /api ready (http:\/\/\S+)/.exec(output)
      if (match) resolve({ child, url: match[1]!, startMs: performance.now() - t0 })
    })
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.once("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)))
  })

const stopServerProcess = (server: ServerProcess) =>
  new Promise<void>((resolve) => {
    server.child.removeAllListeners("exit")
    server.child.once("exit", () => resolve())
    server.child.kill("SIGTERM")
  })

const signIn = async (url: string): Promise<string> => {
  const launch = await fetch(`${url}/api/dev/launch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userId: DEMO_USER, platform: "ios", theme: "light", language: "en" }),
  })
  const { initData } = (await launch.json()) as { initData: string }
  const auth = await fetch(`${url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })
  if (auth.status !== 200) throw new Error(`auth init -> ${auth.status} ${await auth.text()}`)
  return ((await auth.json()) as { access_token: string }).access_token
}

/** Each client loops one request at a time until the deadline; latencies recorded after warmup. */
const load = async (url: string, tokens: ReadonlyArray<string>, warmup: number) => {
  const latencies: Array<number> = []
  let errors = 0
  const warmEnd = performance.now() + warmup * 1000
  const end = warmEnd + SECONDS * 1000
  const client = async (token: string) => {
    const connection = new Connection(url)
    try {
      for (;;) {
        const start = performance.now()
        if (start >= end) return
        const response = await connection.send("GET", "/api/view-settings", undefined, `Bearer ${token}`)
        const finished = performance.now()
        if (start < warmEnd) continue
        if (response.status !== 200) errors++
        else latencies.push(finished - start)
      }
    } finally {
      connection.close()
    }
  }
  await Promise.all(tokens.map(client))
  latencies.sort((a, b) => a - b)
  return { latencies, errors }
}

const run = async (name: string, env: Record<string, string>, postgresUrl?: string) => {
  const server = await startServerProcess(env)
  try {
    const tokens: Array<string> = []
    for (let i = 0; i < CLIENTS; i++) tokens.push(await signIn(server.url))
    const database = postgresUrl === undefined ? -1 : postmasterPid(postgresUrl)
    const figures: Array<{ rps: number; p50: number; p90: number; p99: number; max: number; errors: number; server: number; database: number }> = []
    for (let n = 0; n < RUNS; n++) {
      const before = { server: cpuOfTree(server.child.pid ?? -1), database: database < 0 ? 0 : cpuOfTree(database) }
      const { latencies, errors } = await load(server.url, tokens, n === 0 ? WARMUP : 0)
      const count = Math.max(1, latencies.length)
      figures.push({
        rps: latencies.length / SECONDS,
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? Number.NaN,
        errors,
        // The first run's CPU includes its warmup requests: a slight overstatement there.
        server: ((cpuOfTree(server.child.pid ?? -1) - before.server) / count) * 1e3,
        database: database < 0 ? 0 : ((cpuOfTree(database) - before.database) / count) * 1e3,
      })
    }
    const middle = figures.find((f) => f.rps === median(figures.map((g) => g.rps)))!
    console.log(`\n[server] ${name}`)
    console.log(`  server start (spawn -> api ready): ${ms(server.startMs)}`)
    console.log(`  GET /api/view-settings, ${CLIENTS} concurrent clients, ${RUNS} runs of ${SECONDS} s after ${WARMUP} s warmup; the median run:`)
    console.log(`  throughput: ${middle.rps.toFixed(0)} req/s (runs: ${figures.map((f) => f.rps.toFixed(0)).join(", ")}), errors: ${middle.errors}`)
    console.log(
      `  latency p50 ${ms(middle.p50)}, p90 ${ms(middle.p90)}, p99 ${ms(middle.p99)} (target <= 50 ms: ${middle.p99 <= 50 ? "met" : "missed"}), max ${ms(middle.max)}`,
    )
    console.log(
      `  Little's law: a closed loop of ${CLIENTS} clients at this rate waits ${ms((CLIENTS / middle.rps) * 1000)} on average, whatever the server does`,
    )
    console.log(
      `  CPU per request: server ${middle.server.toFixed(2)} ms${postgresUrl === undefined ? " (PGlite runs inside it)" : `, PostgreSQL ${middle.database.toFixed(2)} ms`}`,
    )
  } finally {
    await stopServerProcess(server)
  }
}

console.log(
  `[server] node ${process.version}, ${os.cpus().length} cpus, load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
)
if (values.db === "pglite" || values.db === "both") {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "wallet-bench-"))
  try {
    await run("embedded PGlite", { WALLET_DATA_DIR: dataDir })
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
if (values.db === "postgres" || values.db === "both") {
  let postgres: TestPostgres | undefined
  try {
    postgres = await startTestPostgres()
  } catch (error) {
    console.log(`\n[server] PostgreSQL skipped: ${error instanceof Error ? error.message : error}`)
  }
  if (postgres) {
    try {
      await run("PostgreSQL 15 (throwaway cluster, fsync off)", { DATABASE_URL: postgres.url }, postgres.url)
    } finally {
      await postgres.stop()
    }
  }
}
