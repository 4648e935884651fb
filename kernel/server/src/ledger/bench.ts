/**
 * The Ledger side of the benchmark (tooling/bench/suites/ledger.ts): opens `accounts` funded
 * accounts on the PostgreSQL at `url`, then runs `clients` concurrent fibers that each loop
 * `Ledger.transfer` between random accounts for `seconds`, and audits the result. Lives beside
 * the service so it resolves the kernel's dependencies; not exported from the package.
 */
import { Effect, Exit, Layer, ManagedRuntime } from "effect"
import * as Db from "../db/Db.ts"
import { runMigrations } from "../db/migrations.ts"
import { formatAuditReport } from "./audit.ts"
import { Ledger, type LedgerShape } from "./Ledger.ts"
import { ledgerMigrationModule } from "./migrations.ts"
import { System, userOwner, type AccountRef } from "./model.ts"

export interface TransferBenchOptions {
  readonly url: string
  readonly seconds: number
  readonly clients: number
  readonly accounts: number
  readonly maxBatch: number
  readonly workers: number
  readonly maxConnections: number
  /** Distinguishes the idempotency keys of repeated runs on one database. */
  readonly runId: string
}

export interface TransferBenchResult {
  readonly transfersPerSecond: number
  readonly committed: number
  readonly failed: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly auditOk: boolean
  readonly auditText: string
}

// A tiny seeded PRNG so runs pick the same account pairs.
const prng = (start: number) => {
  let seed = start
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const benchTransfers = async (options: TransferBenchOptions): Promise<TransferBenchResult> => {
  const random = prng(0x9e3779b9)
  const Sql = Db.layer({ kind: "postgres", url: options.url, maxConnections: options.maxConnections })
  const layer = Ledger.layerWith({ maxBatch: options.maxBatch, workers: options.workers }).pipe(
    Layer.provide(Layer.effectDiscard(runMigrations([ledgerMigrationModule]))),
    Layer.provideMerge(Sql),
  )
  const runtime = ManagedRuntime.make(layer)
  try {
    const run = <A, E>(f: (ledger: LedgerShape) => Effect.Effect<A, E>) => runtime.runPromise(Effect.flatMap(Effect.service(Ledger), f))
    await run((l) => l.defineCurrency({ code: "TON", decimals: 9 }))
    const users: Array<AccountRef> = Array.from({ length: options.accounts }, (_, i) => ({ owner: userOwner(1_000_000 + i), currency: "TON" }))
    await run((l) => Effect.forEach(users, (ref) => l.openAccount(ref), { concurrency: 8, discard: true }))
    await run((l) =>
      Effect.forEach(
        users,
        (ref, i) => l.transfer({ key: `bench:seed:${i}`, legs: [{ from: { owner: System.deposits, currency: "TON" }, to: ref, amount: 1_000_000_000_000n }] }),
        { concurrency: 64, discard: true },
      ),
    )

    let committed = 0
    let failed = 0
    let sequence = 0
    const latencies: Array<number> = []
    const client = (deadline: number) =>
      Effect.gen(function* () {
        const ledger = yield* Effect.service(Ledger)
        while (performance.now() < deadline) {
          const i = Math.floor(random() * users.length)
          const j = (i + 1 + Math.floor(random() * (users.length - 1))) % users.length
          const t0 = performance.now()
          const exit = yield* Effect.exit(
            ledger.transfer({
              key: `bench:${options.runId}:t:${sequence++}`,
              legs: [{ from: users[i]!, to: users[j]!, amount: 1n + BigInt(Math.floor(random() * 1000)) }],
            }),
          )
          if (Exit.isSuccess(exit)) {
            committed++
            latencies.push(performance.now() - t0)
          } else failed++
        }
      })
    const clients = (deadline: number) =>
      runtime.runPromise(
        Effect.all(
          Array.from({ length: options.clients }, () => client(deadline)),
          { concurrency: "unbounded", discard: true },
        ),
      )
    await clients(performance.now() + 2000) // warm-up
    committed = 0
    failed = 0
    latencies.length = 0
    const started = performance.now()
    await clients(started + options.seconds * 1000)
    const elapsed = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN
    const report = await run((l) => l.audit)
    return {
      transfersPerSecond: committed / elapsed,
      committed,
      failed,
      p50Ms: pct(50),
      p99Ms: pct(99),
      auditOk: report.ok,
      auditText: formatAuditReport(report),
    }
  } finally {
    await runtime.dispose()
  }
}
