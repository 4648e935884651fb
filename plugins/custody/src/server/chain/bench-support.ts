/** Benchmark helpers (tooling/bench/suites/custody-chain.ts): plain async wrappers over the TON adapter. */
import { Address } from "@ton/core"
import { Effect, Redacted } from "effect"
import { makeChainClient } from "@wallet/kernel/chain"
import { DEFAULT_FEES, DEV_MASTER_SEED, type ChainSettingsShape } from "./config.ts"
import { makeTonAdapter } from "./ton.ts"

const devSettings = (devnetUrl: string): ChainSettingsShape => ({
  enabled: true,
  masterSeed: Redacted.make(new TextEncoder().encode(DEV_MASTER_SEED)),
  pollMs: 1000,
  globalId: -239,
  devnetUrl,
  devFaucet: false,
  fees: DEFAULT_FEES,
  withdrawalsSuspended: [],
  tonJettons: { USDT: "usdt.ton" },
  expiryGraceSeconds: 30,
})

/** One full TON watcher scan of `addresses` from scratch; resolves with its duration in ms and the deposits found. */
export const timeTonScan = async (devnetUrl: string, addresses: ReadonlyArray<string>): Promise<{ readonly ms: number; readonly deposits: number }> => {
  const adapter = makeTonAdapter(makeChainClient({ baseUrl: devnetUrl }), devSettings(devnetUrl))
  const started = performance.now()
  const result = await Effect.runPromise(adapter.watchDeposits({ addresses: addresses.map((address) => ({ address, cursor: null })), cursor: null }))
  return { ms: performance.now() - started, deposits: result.deposits.length }
}

/** A non-bounceable address nobody holds (withdrawal sinks). */
export const sinkAddress = (n: number): string => new Address(0, Buffer.alloc(32, (n % 250) + 1)).toString({ bounceable: false })
