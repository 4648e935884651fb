// Devnet benchmark: transfers per second the devnet accepts and indexes, and event-list latency (p50/p99)
// for an account with 10,000 events. Run: npx tsx tooling/bench/suites/devnet.ts [--wallets 50] [--rounds 4] [--events 10000]
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { parseArgs } from "node:util"
import { loadWallet, signedTransfer, startDevnet } from "../../../host/devnet/src/index.ts"

const { values } = parseArgs({
  options: {
    wallets: { type: "string", default: "50" },
    rounds: { type: "string", default: "4" },
    events: { type: "string", default: "10000" },
    requests: { type: "string", default: "300" },
  },
})
const WALLETS = Number(values.wallets)
const ROUNDS = Number(values.rounds)
const EVENTS = Number(values.events)
const REQUESTS = Number(values.requests)
const TON = 1_000_000_000n

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}
const ms = (n: number) => `${n.toFixed(2)} ms`
const post = async (url: string, body: unknown) => {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  if (r.status !== 200) throw new Error(`${url} -> ${r.status} ${await r.text()}`)
}
const get = async (url: string) => {
  // one retry: a keep-alive socket left idle through the long fill phase may have been closed by the server
  const r = await fetch(url).catch(() => fetch(url))
  if (r.status !== 200) throw new Error(`${url} -> ${r.status}`)
  return r.json() as Promise<{ events: Array<{ lt: number }>; next_from: number }>
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "devnet-bench-"))
const dn = await startDevnet({ dataDir, blockMs: 0 })
console.log(`devnet bench on ${os.cpus().length} cpus, node ${process.version}, data dir ${dataDir}`)

// ---- 1. throughput: W5R1 wallets each send one signed transfer per block
const wallets = Array.from({ length: WALLETS }, (_, i) => loadWallet(i))
for (const w of wallets) await dn.faucet({ address: w.raw, ton: 100n * TON })
await dn.stepBlock()
const sink = loadWallet(100_000)
let acceptMs = 0
let totalMs = 0
let sent = 0
for (let round = 0; round < ROUNDS; round++) {
  const bocs = wallets.map((w) => signedTransfer(w, sink.address, TON / 100n, `bench ${round}`))
  const t0 = performance.now()
  await Promise.all(bocs.map((boc) => post(`${dn.url}/v2/blockchain/message`, { boc })))
  const t1 = performance.now()
  await dn.stepBlock()
  const t2 = performance.now()
  for (const w of wallets) w.seqno += 1
  acceptMs += t1 - t0
  totalMs += t2 - t0
  sent += bocs.length
}
const indexed = await get(`${dn.url}/v2/accounts/${sink.raw}/events?limit=100`)
const sinkEvents = indexed.events.length + (indexed.next_from ? 1 : 0)
if (sinkEvents === 0) throw new Error("nothing was indexed")
console.log(`transfers: ${sent} signed W5R1 transfers from ${WALLETS} wallets in ${ROUNDS} blocks (first round deploys the wallets)`)
console.log(`  accepted (POST /v2/blockchain/message incl. emulation check): ${(sent / (acceptMs / 1000)).toFixed(1)} transfers/s`)
console.log(`  accepted + executed + indexed (block produced):               ${(sent / (totalMs / 1000)).toFixed(1)} transfers/s`)

// ---- 2. event-list latency on an account with EVENTS events (faucet transfers, one trace each)
const hot = loadWallet(200_000)
const tFill = performance.now()
const BATCH = 500
for (let done = 0; done < EVENTS;) {
  const n = Math.min(BATCH, EVENTS - done)
  for (let i = 0; i < n; i++) await dn.faucet({ address: hot.raw, ton: 1_000_000n })
  await dn.stepBlock()
  done += n
}
const fillS = (performance.now() - tFill) / 1000
console.log(`filled ${EVENTS} events for one account in ${fillS.toFixed(1)} s (${(EVENTS / fillS).toFixed(0)} faucet traces/s executed + indexed)`)

const first = await get(`${dn.url}/v2/accounts/${hot.raw}/events?limit=100`)
if (first.events.length !== 100) throw new Error("expected a full page")
const lts: number[] = []
{
  let cursor = 0
  let page = first
  while (true) {
    lts.push(...page.events.map((e) => e.lt))
    if (!page.next_from) break
    cursor = page.next_from
    page = await get(`${dn.url}/v2/accounts/${hot.raw}/events?limit=100&before_lt=${cursor}`)
  }
}
if (lts.length < EVENTS) throw new Error(`paged ${lts.length} events, expected ${EVENTS}`)

const measure = async (label: string, url: () => string) => {
  const xs: number[] = []
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now()
    await get(url())
    xs.push(performance.now() - t)
  }
  console.log(`  ${label.padEnd(44)} p50 ${ms(pct(xs, 50))}  p99 ${ms(pct(xs, 99))}`)
}
console.log(`event list latency, account with ${lts.length} events, ${REQUESTS} requests each:`)
await measure("newest page (limit=20)", () => `${dn.url}/v2/accounts/${hot.raw}/events?limit=20`)
await measure("newest page (limit=100)", () => `${dn.url}/v2/accounts/${hot.raw}/events?limit=100`)
await measure(
  "random page by before_lt (limit=20)",
  () => `${dn.url}/v2/accounts/${hot.raw}/events?limit=20&before_lt=${lts[Math.floor(Math.random() * lts.length)]}`,
)
await measure(
  "subject_only, random page (limit=20)",
  () => `${dn.url}/v2/accounts/${hot.raw}/events?limit=20&subject_only=true&before_lt=${lts[Math.floor(Math.random() * lts.length)]}`,
)

await dn.close()
fs.rmSync(dataDir, { recursive: true, force: true })
