/**
 * TonConnect engine timings (run through `npx tsx tooling/bench/suites/tonconnect.ts [--requests n]`):
 * CPU costs of the wallet side, and the request-to-answer latency of signData through the real bridge.
 */
import { beginCell, storeStateInit } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import { SessionCrypto } from "@tonconnect/protocol"
import type { ChainShape } from "@wallet/kernel/chain"
import { startServer } from "@wallet/kernel-server"
import { Effect } from "effect"
import nacl from "tweetnacl"
import { Base64 } from "@tonconnect/protocol"
import {
  buildSignedTransfer,
  decodeTransaction,
  decryptFrom,
  encryptFor,
  keyPairSigner,
  makeBridgeClient,
  makeEngine,
  memoryStore,
  newSessionKeys,
  type PendingRequest,
  tonProofDigest,
} from "../src/engine/index.ts"

const toBase64 = (bytes: Uint8Array): string => Base64.encode(bytes)
const fromBase64 = (text: string): Uint8Array => Base64.decode(text).toUint8Array()

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
/** Wall time and this process's CPU time per run (CPU time is the steadier figure on a loaded machine). */
const time = async (label: string, n: number, run: () => Promise<unknown> | unknown) => {
  for (let i = 0; i < Math.min(20, n); i++) await run()
  const cpu = process.cpuUsage()
  const start = performance.now()
  for (let i = 0; i < n; i++) await run()
  const ms = (performance.now() - start) / n
  const used = process.cpuUsage(cpu)
  const cpuMs = (used.user + used.system) / 1000 / n
  console.log(`${label}: ${ms.toFixed(3)} ms wall, ${cpuMs.toFixed(3)} ms CPU each (${(1000 / cpuMs).toFixed(0)}/s of CPU)`)
}

export const runTonConnectBench = async (requests = 200): Promise<void> => {
  const keys = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(1))
  const contract = WalletContractV5R1.create({ workchain: 0, publicKey: Buffer.from(keys.publicKey), walletId: { networkGlobalId: -239 } })
  const stateInit = beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64")
  const signer = keyPairSigner({ secretKey: keys.secretKey, address: contract.address.toRawString(), stateInit, network: "-239" })
  const now = Math.floor(Date.now() / 1000)

  console.log("-- CPU")
  await time("ton_proof digest + ed25519 signature", 300, async () =>
    Effect.runPromise(signer.signRaw(await tonProofDigest({ address: signer.address, domain: "dapp.example", timestamp: now, payload: "nonce" }))),
  )
  const to = contract.address.toString()
  const payload255 = JSON.stringify({
    valid_until: now + 300,
    messages: Array.from({ length: 255 }, (_, i) => ({
      address: to,
      amount: String(1000 + i),
      payload: beginCell().storeUint(0, 32).storeStringTail(`m${i}`).endCell().toBoc().toString("base64"),
    })),
  })
  const payload1 = JSON.stringify({ valid_until: now + 300, messages: [{ address: to, amount: "1000" }] })
  const wallet = { address: signer.address, network: "-239" as const }
  await time("decode + validate sendTransaction, 255 messages", 50, () => Effect.runPromise(decodeTransaction(payload255, wallet, now)))
  const request1 = Effect.runSync(decodeTransaction(payload1, wallet, now))
  const request255 = Effect.runSync(decodeTransaction(payload255, wallet, now))
  await time("build + sign W5R1 external, 1 message", 300, () =>
    Effect.runPromise(buildSignedTransfer({ signer, seqno: 1, deploy: false, request: request1, nowSeconds: now })),
  )
  await time("build + sign W5R1 external, 255 messages", 20, () =>
    Effect.runPromise(buildSignedTransfer({ signer, seqno: 1, deploy: false, request: request255, nowSeconds: now })),
  )
  const a = newSessionKeys()
  const b = newSessionKeys()
  const text = JSON.stringify({ method: "signData", params: ["x".repeat(500)], id: "1" })
  await time("session encrypt + decrypt, 0.5 kB", 500, () => decryptFrom(b, a.id, encryptFor(a, b.id, text)))

  console.log(`-- end to end: ${requests} signData requests through the bridge (PGlite)`)
  const server = await startServer({
    port: 0,
    database: { kind: "pglite" },
    botToken: "123:bench",
    pluginConfig: { bridge: { messagesBurst: 1e9, messagesPerSecond: 1e9 } },
  })
  const site = `${server.url}/bench-manifest`
  const manifestFetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === site
      ? new Response(JSON.stringify({ url: "https://dapp.example", name: "Bench", iconUrl: "https://dapp.example/i.png" }))
      : fetch(input, init)) as typeof fetch
  let engineRef: ReturnType<typeof makeEngine> | undefined
  const engine = makeEngine({
    signer,
    storage: memoryStore(),
    bridgeUrl: `${server.url}/bridge`,
    chain: {} as ChainShape,
    device: { platform: "linux", appName: "bench", appVersion: "1.0.0" },
    fetch: manifestFetch,
    onRequest: (pending: PendingRequest) => {
      if (pending.kind === "signData") void Effect.runPromise(engineRef!.approveSignData(pending))
    },
  })
  engineRef = engine
  await Effect.runPromise(engine.start())
  const dapp = new SessionCrypto()
  const inbox: Array<string> = []
  const waiters: Array<() => void> = []
  const listener = makeBridgeClient({ url: `${server.url}/bridge` }).listen([dapp.sessionId], undefined, async (event) => {
    inbox.push(event.data)
    for (const waiter of waiters.splice(0)) waiter()
  })
  const nextData = async (): Promise<string> => {
    while (inbox.length === 0) await new Promise<void>((resolve) => waiters.push(resolve))
    return inbox.shift()!
  }
  const proposal = await Effect.runPromise(
    engine.prepareConnect({ version: 2, clientId: dapp.sessionId, request: { manifestUrl: site, items: [{ name: "ton_addr" }] }, ret: "back" }),
  )
  const session = await Effect.runPromise(engine.approveConnect(proposal))
  await nextData()
  await new Promise((resolve) => setTimeout(resolve, 300))
  const latencies: Array<number> = []
  for (let i = 0; i < requests; i++) {
    const message = JSON.stringify({ method: "signData", params: [JSON.stringify({ type: "text", text: `bench ${i}` })], id: String(i + 1) })
    const body = toBase64(dapp.encrypt(message, Buffer.from(session.id, "hex")))
    const start = performance.now()
    const response = await fetch(`${server.url}/bridge/message?client_id=${dapp.sessionId}&to=${session.id}&ttl=300`, { method: "POST", body })
    await response.arrayBuffer()
    const event = JSON.parse(await nextData()) as { from: string; message: string }
    const answer = JSON.parse(dapp.decrypt(fromBase64(event.message), Buffer.from(event.from, "hex"))) as { id: string }
    if (answer.id !== String(i + 1)) throw new Error(`answer ${answer.id} for request ${i + 1}`)
    latencies.push(performance.now() - start)
  }
  latencies.sort((x, y) => x - y)
  console.log(`signData request -> signed answer: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`)
  engine.stop()
  listener.close()
  await server.close()
}
