// Custody on chain benchmark: the TON watcher's cost per deposit address (an idle scan), the time from
// a block of N deposits to all of them credited through the real server, and the time from N withdraw
// requests to all of them final (batched in one hot-wallet external).
// Run: npx tsx tooling/bench/suites/custody-chain.ts [--users 100] [--withdrawals 50] [--poll-ms 100]
import { randomUUID } from "node:crypto"
import os from "node:os"
import { parseArgs } from "node:util"
import { startDevnet } from "../../../host/devnet/src/index.ts"
import { DEV_BOT_TOKEN, startServer } from "../../../host/server/src/index.ts"
import { signInitData } from "../../../kernel/server/src/index.ts"
import { sinkAddress, timeTonScan } from "../../../plugins/custody/src/server/chain/bench-support.ts"

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "100" },
    withdrawals: { type: "string", default: "50" },
    "poll-ms": { type: "string", default: "100" },
  },
})
const USERS = Number(values.users)
const WITHDRAWALS = Math.min(Number(values.withdrawals), USERS)
const POLL_MS = Number(values["poll-ms"])
const TON = 1_000_000_000n

const dn = await startDevnet({ port: 0, blockMs: 0 })
process.env.CHAIN_API_URL = dn.url
process.env.CUSTODY_CHAIN_POLL_MS = String(POLL_MS)
// Many users sign in from one address (decision 0206: limits off for benchmarks).
const server = await startServer({ port: 0, dataDir: "memory", dev: true, enabledPlugins: ["custody"], chainApiUrl: dn.url, rateLimits: false })
console.log(`custody-chain bench on ${os.cpus().length} cpus, node ${process.version}: ${USERS} users, ${WITHDRAWALS} withdrawals, poll ${POLL_MS} ms`)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const call = async (method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await response.json()) as any
  if (response.status !== 200) throw new Error(`${method} ${path} -> ${response.status} ${JSON.stringify(json)}`)
  return json
}

// ---- users and their deposit addresses
const users: Array<{ id: number; token: string; address: string }> = []
for (let i = 0; i < USERS; i++) {
  const id = 9_700_000_000 + i
  const initData = signInitData(
    { user: { id, first_name: "Bench", username: `bench_${id}` }, authDate: new Date(), queryId: randomUUID(), chatType: "sender" },
    DEV_BOT_TOKEN,
  )
  const auth = (await (await fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })).json()) as {
    access_token: string
  }
  const wallet = await call("POST", "/api/custody/wallets/TON?network=ton", auth.access_token)
  users.push({ id, token: auth.access_token, address: wallet.addresses[0].address })
}

// ---- 1. an idle scan of every deposit address (what each watcher round costs when nothing happened)
const addresses = users.map((u) => u.address)
await timeTonScan(dn.url, addresses)
const scans: number[] = []
for (let i = 0; i < 5; i++) scans.push((await timeTonScan(dn.url, addresses)).ms)
const idle = Math.min(...scans)
console.log(`idle watcher scan: ${idle.toFixed(1)} ms for ${USERS} addresses = ${(idle / USERS).toFixed(2)} ms per address (best of 5)`)

// ---- 2. one block with a deposit to every user -> all credited
const credited = async () => Number((await server.sql("select count(*)::int as n from custody_chain_deposits"))[0]!.n)
for (const u of users) await dn.faucet({ address: u.address, ton: 3n * TON })
await dn.stepBlock()
const t1 = performance.now()
while ((await credited()) < USERS) await sleep(10)
const depositMs = performance.now() - t1
console.log(
  `deposits: ${USERS} in one block credited after ${depositMs.toFixed(0)} ms (${((USERS / depositMs) * 1000).toFixed(1)} deposits/s incl. up to one ${POLL_MS} ms poll wait)`,
)

// ---- 3. withdrawals: requests -> all final on chain (the hot wallet is funded by the dev faucet first)
const t2 = performance.now()
const ids: Array<{ token: string; id: string }> = []
for (let i = 0; i < WITHDRAWALS; i++) {
  const u = users[i]!
  const to = sinkAddress(i)
  const reply = await call("POST", "/api/custody/withdrawals", u.token, {
    amount: String(TON + BigInt(i)),
    currency: "TON",
    max_value: false,
    address: to,
    network: "ton",
    idempotency_key: randomUUID(),
  })
  ids.push({ token: u.token, id: reply.transaction.id })
}
const requestMs = performance.now() - t2
const done = async () => {
  let n = 0
  for (const w of ids) if ((await call("GET", `/api/custody/withdrawals/${w.id}`, w.token)).status === "success") n++
  return n
}
let blocks = 0
while ((await done()) < WITHDRAWALS) {
  await dn.stepBlock()
  blocks++
  await sleep(POLL_MS * 2)
}
const withdrawMs = performance.now() - t2
console.log(`withdraw requests: ${WITHDRAWALS} in ${requestMs.toFixed(0)} ms (${(requestMs / WITHDRAWALS).toFixed(1)} ms each: address check, holds)`)
console.log(`withdrawals final: ${WITHDRAWALS} after ${withdrawMs.toFixed(0)} ms and ${blocks} blocks (faucet funding, one batch external, posting)`)
const audit = await server.sql("select count(*)::int as n from custody_chain_withdrawals where status = 'success'")
console.log(`withdrawals posted: ${audit[0]!.n}`)

await server.close()
await dn.close()
