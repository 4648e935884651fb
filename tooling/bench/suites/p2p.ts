/**
 * P2P benchmark (issue 20): completed orders per second end to end through the HTTP API (take, mark
 * paid, confirm received: three requests, each one conditional update plus one Ledger command in one
 * transaction, bot messages queued through the Outbox) on PostgreSQL, beside `pgbench -b tpcb-like` on
 * the same throwaway cluster in the same run, and their ratio. One order is three transactions where a
 * pgbench transaction is one, so the fair yardstick is moves/s against tps (also printed).
 *
 * The server and the load generator share this process (and the machine's cores with PostgreSQL).
 *
 *   npx tsx tooling/bench/suites/p2p.ts [--seconds 10] [--clients 16] [--offers 8] [--runs 3] [--pgbench-clients 8]
 */
import { randomUUID } from "node:crypto"
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { signInitData } from "../../../kernel/server/src/kernel/initData.ts"
import { startServer } from "../../../kernel/server/src/server.ts"
import { startTestPostgres } from "../../../kernel/server/src/testing/postgres.ts"
import { serverPlugin as custodyPlugin } from "../../../plugins/custody/src/server/index.ts"
import { serverPlugin as p2pPlugin } from "../../../plugins/p2p/src/server/index.ts"
import { p2pProbePlugin } from "../../../plugins/p2p/src/server/testing.ts"

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "16" },
    offers: { type: "string", default: "8" },
    runs: { type: "string", default: "3" },
    "pgbench-clients": { type: "string", default: "8" },
    scale: { type: "string", default: "10" },
  },
})
const SECONDS = Number(values.seconds)
const BOT_TOKEN = "7777777:p2p-bench"

const pgbenchBinary = (): string => {
  const base = "/usr/lib/postgresql"
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "pgbench"))) : []
  if (versions.length === 0) throw new Error("pgbench not found under /usr/lib/postgresql/*/bin")
  return join(base, versions.sort((a, b) => Number(b) - Number(a))[0]!, "bin", "pgbench")
}
const pgbench = (url: string, args: ReadonlyArray<string>): string => {
  const result = spawnSync(pgbenchBinary(), [...args, url], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`pgbench ${args.join(" ")} failed: ${result.stderr}`)
  return result.stdout + result.stderr
}

const postgres = await startTestPostgres()
const server = await startServer({
  port: 0,
  database: { kind: "postgres", url: postgres.url, maxConnections: 8 },
  botToken: BOT_TOKEN,
  accessTokenTtlSeconds: 24 * 3600,
  rateLimits: false,
  plugins: [custodyPlugin, p2pPlugin, p2pProbePlugin],
  pluginConfig: { p2p: { makerFeeBps: 90, takerFeeBps: 0, maxOpenOrdersPerOffer: 1000 } },
})

const send = (method: string, path: string, body?: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: token } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
/**
 * One request; sent again once when the connection was gone before an answer. Each buyer's first request after
 * pgbench's idle 10 s went out on a kept-alive socket the server had closed (5 s keep-alive): "fetch failed",
 * counted as a failed order in every run. Every request here is safe to repeat (an idempotency key, or a move
 * that answers the order when repeated).
 */
const request = async (method: string, path: string, body?: unknown, token?: string) => {
  const reply = await send(method, path, body, token).catch((error: unknown) =>
    error instanceof TypeError ? send(method, path, body, token) : Promise.reject(error),
  )
  const text = await reply.text()
  return { status: reply.status, body: text ? JSON.parse(text) : undefined }
}
const signIn = async (id: number) => {
  const initData = signInitData({ user: { id, first_name: `Bench${id % 1000}` }, authDate: new Date(), queryId: randomUUID() }, BOT_TOKEN)
  const auth = await request("POST", "/api/auth/init", undefined, `tma ${initData}`)
  if (auth.status !== 200) throw new Error(`auth failed: ${JSON.stringify(auth.body)}`)
  return `Bearer ${auth.body.access_token}`
}
const ok = async (reply: Promise<{ status: number; body: any }>) => {
  const r = await reply
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}

try {
  console.log(`p2p bench: one throwaway PostgreSQL cluster, ${SECONDS} s per run, ${values.clients} buyers, ${values.offers} sellers' offers`)
  pgbench(postgres.url, ["-i", "-q", "-s", String(values.scale)])
  const sellers: Array<{ token: string; offerId: number }> = []
  for (let n = 0; n < Number(values.offers); n++) {
    const id = 9_600_000_000 + n
    const token = await signIn(id)
    await ok(request("POST", "/api/p2p-probe/fund", { userId: id, currency: "USDT", amount: "1000000000000000" }))
    const details = await ok(
      request(
        "POST",
        "/api/p2p/user/payments",
        { code: "sbp", fiat: "RUB", fields: { phone: "+79161234567", bankName: "T-Bank", holderName: "Bench Seller" } },
        token,
      ),
    )
    const offer = await ok(
      request(
        "POST",
        "/api/p2p/offers",
        {
          type: "SALE",
          crypto: "USDT",
          fiat: "RUB",
          price: { type: "FIXED", value: "10000" },
          volume: "900000000000000",
          minOrderFiat: "100",
          maxOrderFiat: "100000000",
          paymentDetailsIds: [details.id],
          paymentMethodCodes: [],
          paymentWindowMinutes: 15,
          terms: null,
          autoAccept: true,
          idempotencyKey: `bench-offer-${n}`,
        },
        token,
      ),
    )
    sellers.push({ token, offerId: offer.id })
  }
  const buyers = await Promise.all(Array.from({ length: Number(values.clients) }, (_, n) => signIn(9_600_100_000 + n)))

  const orders = async (seconds: number) => {
    const until = performance.now() + seconds * 1000
    let completed = 0
    let failed = 0
    const latencies: Array<number> = []
    await Promise.all(
      buyers.map(async (buyer, n) => {
        while (performance.now() < until) {
          const seller = sellers[(n + completed) % sellers.length]!
          const started = performance.now()
          try {
            const order = await ok(
              request(
                "POST",
                "/api/p2p/orders",
                { offerId: seller.offerId, amount: "1000000", priceCents: "10000", paymentMethodCode: "sbp", idempotencyKey: randomUUID() },
                buyer,
              ),
            )
            await ok(request("POST", "/api/p2p/orders/move", { orderId: order.id, move: "paid", status: "ACCEPTED" }, buyer))
            await ok(request("POST", "/api/p2p/orders/move", { orderId: order.id, move: "received", status: "PAID" }, seller.token))
            completed++
            latencies.push(performance.now() - started)
          } catch (error) {
            failed++
            if (failed < 3) console.error(String(error))
          }
        }
      }),
    )
    latencies.sort((a, b) => a - b)
    return {
      perSecond: completed / seconds,
      completed,
      failed,
      p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
      p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    }
  }

  await orders(2) // warm-up
  const ratios: Array<number> = []
  for (let run = 1; run <= Number(values.runs); run++) {
    const out = pgbench(postgres.url, ["-b", "tpcb-like", "-c", String(values["pgbench-clients"]), "-j", "2", "-T", String(SECONDS), "-n"])
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN)
    console.log(`[run ${run}] pgbench -b tpcb-like -c ${values["pgbench-clients"]} -j 2: ${tps.toFixed(0)} tps`)
    const result = await orders(SECONDS)
    console.log(
      `[run ${run}] p2p orders end to end (HTTP, ${values.clients} buyers): ${result.perSecond.toFixed(1)} completed orders/s = ${(result.perSecond * 3).toFixed(0)} moves/s ` +
        `(${result.completed} completed, ${result.failed} failed; order latency p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms)`,
    )
    const ratio = (result.perSecond * 3) / tps
    ratios.push(ratio)
    console.log(`[run ${run}] ratio moves/s / pgbench tps: ${ratio.toFixed(2)}x (orders/s / tps: ${(result.perSecond / tps).toFixed(3)}x)`)
  }
  const audit = await request("GET", "/api/p2p-probe/audit")
  console.log(`ledger audit after the runs: ${audit.body.ok ? "OK" : `VIOLATIONS ${JSON.stringify(audit.body.violations.slice(0, 5))}`}`)
  const sorted = [...ratios].sort((a, b) => a - b)
  console.log(`ratio moves/s / pgbench tps (median of ${ratios.length}): ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}x`)
  if (!audit.body.ok) process.exitCode = 1
} finally {
  await server.close()
  await postgres.stop()
}
