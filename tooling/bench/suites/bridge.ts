/**
 * TonConnect bridge benchmark, end to end over HTTP (POST /bridge/message -> SSE /bridge/events):
 *
 * 1. throughput: `--receivers` SSE connections (one client id each) and `--posters` concurrent
 *    closed-loop posters sending to random receivers for `--seconds`; prints messages delivered
 *    per second and the post-to-delivery latency p50/p99;
 * 2. fan-out: `--fanout` SSE connections subscribed to one client id, one message every 20 ms;
 *    prints the post-to-delivery latency p50/p99 over every (message, connection) pair.
 *
 * On PGlite (one server) and on PostgreSQL with two server processes (posts go to a child process,
 * the event streams are served by this one), so the PostgreSQL figures include LISTEN/NOTIFY.
 *
 *   npx tsx tooling/bench/suites/bridge.ts [--seconds 10] [--receivers 50] [--posters 16]
 *     [--fanout 200] [--messages 100] [--only pglite|postgres]
 */
import { parseArgs } from "node:util"
import { openSse, type SseConnection } from "../../../kernel/server/src/bridge/sseClient.ts"
import { spawnChildServer } from "../../../kernel/server/src/bridge/spawnChild.ts"
import { startServer } from "../../../kernel/server/src/server.ts"
import { startTestPostgres } from "../../../kernel/server/src/testing/postgres.ts"

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    receivers: { type: "string", default: "50" },
    posters: { type: "string", default: "16" },
    fanout: { type: "string", default: "200" },
    messages: { type: "string", default: "100" },
    only: { type: "string" },
  },
})
const SECONDS = Number(values.seconds)
const RECEIVERS = Number(values.receivers)
const POSTERS = Number(values.posters)
const FANOUT = Number(values.fanout)
const MESSAGES = Number(values.messages)

const limits = { messagesBurst: 1e9, messagesPerSecond: 1e9, maxConnectionsPerIp: 100_000, heartbeatMs: 60_000 }

const hex = (n: number) => n.toString(16).padStart(64, "0")
const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
const summary = (latencies: Array<number>) => {
  latencies.sort((a, b) => a - b)
  return `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${latencies.length} deliveries)`
}

const post = async (url: string, from: string, to: string, body: string) => {
  const response = await fetch(`${url}/bridge/message?client_id=${from}&to=${to}&ttl=300&topic=bench`, { method: "POST", body })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`post answered ${response.status}`)
}

/** `sent` holds each message's post start (performance.now) by its sequence number. */
const receive = (connection: SseConnection, sent: Map<number, number>, latencies: Array<number>, stop: () => boolean) =>
  (async () => {
    while (!stop()) {
      const event = await connection.next().catch(() => undefined)
      if (event === undefined) return
      const seq = Number(Buffer.from((JSON.parse(event.data) as { message: string }).message, "base64").toString())
      const start = sent.get(seq)
      if (start !== undefined) latencies.push(performance.now() - start)
    }
  })()

const run = async (label: string, postUrl: string, readUrl: string) => {
  // 1. throughput
  const sender = hex(1)
  const receivers = await Promise.all(Array.from({ length: RECEIVERS }, (_, i) => openSse(`${readUrl}/bridge/events?client_id=${hex(1000 + i)}`)))
  const sent = new Map<number, number>()
  const latencies: Array<number> = []
  let stopped = false
  const readers = receivers.map((connection) => receive(connection, sent, latencies, () => stopped))
  let seq = 0
  let posted = 0
  const deadline = performance.now() + SECONDS * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: POSTERS }, async () => {
      while (performance.now() < deadline) {
        const n = seq++
        sent.set(n, performance.now())
        await post(postUrl, sender, hex(1000 + (n % RECEIVERS)), Buffer.from(String(n)).toString("base64"))
        posted++
      }
    }),
  )
  // Let the last deliveries arrive (bounded wait).
  const settle = performance.now() + 5000
  while (latencies.length < posted && performance.now() < settle) await new Promise((resolve) => setTimeout(resolve, 20))
  const elapsed = (performance.now() - started) / 1000
  stopped = true
  for (const connection of receivers) connection.close()
  await Promise.all(readers)
  console.log(
    `${label} throughput: ${posted} posted, ${latencies.length} delivered in ${elapsed.toFixed(1)} s = ${(latencies.length / elapsed).toFixed(0)} msg/s delivered; ${summary(latencies)}`,
  )

  // 2. fan-out to many connections of one client id
  const target = hex(99_999)
  const fans = await Promise.all(Array.from({ length: FANOUT }, () => openSse(`${readUrl}/bridge/events?client_id=${target}`)))
  const fanSent = new Map<number, number>()
  const fanLatencies: Array<number> = []
  let fanStopped = false
  const fanReaders = fans.map((connection) => receive(connection, fanSent, fanLatencies, () => fanStopped))
  for (let i = 0; i < MESSAGES; i++) {
    fanSent.set(i, performance.now())
    await post(postUrl, sender, target, Buffer.from(String(i)).toString("base64"))
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const fanSettle = performance.now() + 5000
  while (fanLatencies.length < MESSAGES * FANOUT && performance.now() < fanSettle) await new Promise((resolve) => setTimeout(resolve, 20))
  fanStopped = true
  for (const connection of fans) connection.close()
  await Promise.all(fanReaders)
  console.log(`${label} fan-out to ${FANOUT} connections, ${MESSAGES} messages: ${summary(fanLatencies)} of ${MESSAGES * FANOUT} expected`)
}

console.log(`bridge bench: ${SECONDS} s throughput with ${RECEIVERS} receivers and ${POSTERS} posters; fan-out to ${FANOUT}`)

if (values.only !== "postgres") {
  const server = await startServer({ port: 0, database: { kind: "pglite" }, botToken: "123:bench", pluginConfig: { bridge: limits } })
  try {
    await run("pglite (one process)", server.url, server.url)
  } finally {
    await server.close()
  }
}

if (values.only !== "pglite") {
  const postgres = await startTestPostgres()
  try {
    const reader = await startServer({
      port: 0,
      database: { kind: "postgres", url: postgres.url, maxConnections: 8 },
      botToken: "123:bench",
      pluginConfig: { bridge: limits },
    })
    const child = await spawnChildServer(postgres.url, limits)
    try {
      await run("postgres (post to process A, SSE from process B)", child.url, reader.url)
    } finally {
      await child.stop()
      await reader.close()
    }
  } finally {
    await postgres.stop()
  }
}
process.exit(0)
