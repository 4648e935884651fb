// Devnet benchmark: transfers per second the devnet accepts and indexes, with the process CPU each transfer
// took, and event-list latency (p50/p99) for an account with 10,000 events. The throughput figures are the
// median of --runs (odd, default 3) runs, each on a fresh devnet.
// Run: npx tsx tooling/bench/suites/devnet.ts [--runs 3] [--wallets 50] [--rounds 4] [--events 10000] [--requests 300]
//   or npm run bench -- devnet --runs 5
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { parseArgs } from "node:util"
import { loadWallet, signedTransfer, startDevnet } from "../../../host/devnet/src/index.ts"

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    wallets: { type: "string", default: "50" },
    rounds: { type: "string", default: "4" },
    events: { type: "string", default: "10000" },
    requests: { type: "string", default: "300" },
  },
})
const RUNS = Number(values.runs)
const WALLETS = Number(values.wallets)
const ROUNDS = Number(values.rounds)
const EVENTS = Number(values.events)
const REQUESTS = Number(values.requests)
const TON = 1_000_000_000n
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS % 2 === 0)
  throw new Error(`--runs takes an odd whole number (a median of an even count is no run's figure), got ${values.runs}`)

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

/** CPU time of this process in ms (the devnet and the bench's HTTP client share it). */
const cpuMs = () => {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const newDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "devnet-bench-"))
console.log(
  `devnet bench on ${os.cpus().length} cpus, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
)

// ---- 1. throughput: W5R1 wallets each send one signed transfer per block; each run on a fresh devnet
interface Run {
  readonly sent: number
  /** transfers/s over the POSTs (each message checked against its contract before it is queued) */
  readonly accepted: number
  readonly acceptCpu: number
  /** transfers/s from the first POST to the end of the block that executed and indexed them */
  readonly indexed: number
  readonly indexedCpu: number
}
const throughputRun = async (): Promise<Run> => {
  const dir = newDataDir()
  const dn = await startDevnet({ dataDir: dir, blockMs: 0 })
  try {
    const wallets = Array.from({ length: WALLETS }, (_, i) => loadWallet(i))
    for (const w of wallets) await dn.faucet({ address: w.raw, ton: 100n * TON })
    await dn.stepBlock()
    const sink = loadWallet(100_000)
    let acceptMs = 0
    let totalMs = 0
    let acceptCpu = 0
    let totalCpu = 0
    let sent = 0
    for (let round = 0; round < ROUNDS; round++) {
      // signing is the wallets' work, not the devnet's: outside the timed window
      const bocs = wallets.map((w) => signedTransfer(w, sink.address, TON / 100n, `bench ${round}`))
      const c0 = cpuMs()
      const t0 = performance.now()
      await Promise.all(bocs.map((boc) => post(`${dn.url}/v2/blockchain/message`, { boc })))
      const t1 = performance.now()
      const c1 = cpuMs()
      await dn.stepBlock()
      const t2 = performance.now()
      const c2 = cpuMs()
      for (const w of wallets) w.seqno += 1
      acceptMs += t1 - t0
      totalMs += t2 - t0
      acceptCpu += c1 - c0
      totalCpu += c2 - c0
      sent += bocs.length
    }
    // every transfer must be indexed: the sink lists one event per transfer
    let listed = 0
    for (let page = await get(`${dn.url}/v2/accounts/${sink.raw}/events?limit=100`); ;) {
      listed += page.events.length
      if (!page.next_from) break
      page = await get(`${dn.url}/v2/accounts/${sink.raw}/events?limit=100&before_lt=${page.next_from}`)
    }
    if (listed !== sent) throw new Error(`the sink lists ${listed} events for ${sent} transfers`)
    return { sent, accepted: sent / (acceptMs / 1000), acceptCpu: acceptCpu / sent, indexed: sent / (totalMs / 1000), indexedCpu: totalCpu / sent }
  } finally {
    await dn.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
const rate = (perS: number, cpu: number) => `${perS.toFixed(1).padStart(6)} transfers/s  (${cpu.toFixed(2)} ms CPU/transfer)`
const runs: Run[] = []
for (let i = 0; i < RUNS; i++) {
  const r = await throughputRun()
  runs.push(r)
  console.log(`  run ${i + 1}/${RUNS}: accepted ${rate(r.accepted, r.acceptCpu)}, accepted + executed + indexed ${rate(r.indexed, r.indexedCpu)}`)
}
const mid = <K extends keyof Run>(k: K) => median(runs.map((r) => r[k]))
console.log(
  `transfers: ${runs[0]!.sent} signed W5R1 transfers from ${WALLETS} wallets in ${ROUNDS} blocks per run (first round deploys the wallets); median of ${RUNS} runs`,
)
console.log(`  accepted (POST /v2/blockchain/message incl. the contract's acceptance check): ${rate(mid("accepted"), mid("acceptCpu"))}`)
console.log(`  accepted + executed + indexed (block produced):                           ${rate(mid("indexed"), mid("indexedCpu"))}`)
console.log(`  (CPU: this process, devnet and the bench's HTTP client together, during the timed windows; target 200 indexed/s)`)

const dataDir = newDataDir()
const dn = await startDevnet({ dataDir, blockMs: 0 })

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
