/**
 * A throwaway PostgreSQL for tests. With TEST_DATABASE_URL (or DATABASE_URL) it creates a fresh
 * database there; otherwise it starts its own cluster from the Debian binaries
 * (/usr/lib/postgresql/<version>/bin) in a temp dir on a free loopback port, as the `postgres`
 * system user when running as root, and removes it on stop. Without binaries it fails with a
 * message saying what to install.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface TestPostgres {
  readonly url: string
  stop(): Promise<void>
}

const findBinaries = (): string | undefined => {
  const base = "/usr/lib/postgresql"
  if (!existsSync(base)) return undefined
  const versions = readdirSync(base)
    .filter((entry) => existsSync(join(base, entry, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a))
  const preferred = versions.includes("15") ? "15" : versions[0]
  return preferred === undefined ? undefined : join(base, preferred, "bin")
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

const isRoot = typeof process.getuid === "function" && process.getuid() === 0

const postgresUid = (): { uid: number; gid: number } => {
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
  return { uid, gid }
}

/** Runs a PostgreSQL binary, as the postgres system user when we are root (initdb refuses root). */
const run = (binary: string, args: ReadonlyArray<string>) => {
  const [command, commandArgs] = isRoot ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, [...args]]
  const result = spawnSync(command, commandArgs as Array<string>, { encoding: "utf8" })
  if (result.status !== 0) {
    throw new Error(`${binary} ${args.join(" ")} failed (${result.status}): ${result.stderr || result.stdout}`)
  }
}

let counter = 0

const fromUrl = async (baseUrl: string): Promise<TestPostgres> => {
  const { SQL } = await import("./sqlOnce.ts")
  const name = `wallet_test_${process.pid}_${Date.now()}_${counter++}`
  await SQL(baseUrl, `create database ${name}`)
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    stop: async () => {
      await SQL(baseUrl, `drop database if exists ${name} with (force)`)
    },
  }
}

/**
 * `settings`: extra server settings for an own cluster (benches: `shared_preload_libraries:
 * "pg_stat_statements"`); ignored for an external server, which keeps its own.
 */
export const startTestPostgres = async (options: { readonly settings?: Readonly<Record<string, string>> } = {}): Promise<TestPostgres> => {
  const external = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL
  if (external) return fromUrl(external)
  const bin = findBinaries()
  if (bin === undefined) {
    throw new Error(
      "PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: install Debian's postgresql (apt-get install postgresql) " +
        "or set TEST_DATABASE_URL to a server the tests may create databases on",
    )
  }
  // The postgres user must reach the directory: a root-only TMPDIR (e.g. under /root) would not do.
  const dir = mkdtempSync(join(isRoot && existsSync("/tmp") ? "/tmp" : tmpdir(), "wallet-pg-"))
  if (isRoot) {
    const { uid, gid } = postgresUid()
    chownSync(dir, uid, gid)
  }
  const dataDir = join(dir, "data")
  const port = await freePort()
  try {
    run(join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"])
    run(join(bin, "pg_ctl"), [
      "-D",
      dataDir,
      "-l",
      join(dir, "postgres.log"),
      "-w",
      "-t",
      "60",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60${Object.entries(
        options.settings ?? {},
      )
        .map(([name, value]) => ` -c ${name}=${value}`)
        .join("")}`,
      "start",
    ])
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  let stopped = false
  const stopNow = () => {
    if (stopped) return
    stopped = true
    process.off("exit", stopNow)
    try {
      run(join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  // A test run that dies before its afterAll must not leave a cluster behind.
  process.once("exit", stopNow)
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => stopNow(),
  }
}
