// Public entry of @wallet/devnet: start a devnet in-process (tests, other packages) or from main.ts.
import type { AddressInfo } from "node:net"
import { Devnet, type GlobalId } from "./devnet.ts"
import { createServer } from "./server.ts"
import { SimNetworks, type SimNetwork } from "./sim.ts"

export { Devnet, DEMO_EXTRA_CURRENCIES, DEMO_JETTONS, TON_PRICE_USD, type GlobalId } from "./devnet.ts"
export { classifyTrace } from "./classify.ts"
export { SIM_ASSETS, SIM_FAUCETS, SIM_NETWORKS, SimNetworks, type SimNetwork, type SimTransfer } from "./sim.ts"

export interface StartDevnetOptions {
  readonly port?: number
  readonly host?: string
  /** where chain state and indexes live; omit for an in-memory devnet */
  readonly dataDir?: string
  readonly reset?: boolean
  /** block interval in ms; 0 = manual blocks through stepBlock() */
  readonly blockMs?: number
  readonly globalId?: GlobalId
}

export interface FaucetRequest {
  /** raw, friendly or a known .ton name */
  readonly address: string
  /** nanotons */
  readonly ton?: bigint
  /** demo jetton key ("usdt", "dvc", "scam") or master address */
  readonly jetton?: string
  /** jetton minor units (default 1000 whole tokens) */
  readonly amount?: bigint
  /** mint one NFT of the demo collection */
  readonly nft?: boolean
  /** display name of the minted NFT */
  readonly name?: string
  /** mint an extra currency (any uint32 id above 0; 100 "DXC" and 239 "FMS" have names) and send it in a plain message */
  readonly extraCurrency?: { readonly id: number; readonly amount: bigint }
}

export interface SimFaucetRequest {
  readonly network: SimNetwork
  readonly address: string
  /** asset symbol (default: the network's native coin) */
  readonly asset?: string
  /** minor units (default 1000 whole units) */
  readonly amount?: bigint
}

export interface RunningDevnet {
  readonly url: string
  readonly port: number
  readonly devnet: Devnet
  /** produce one block now: pending messages execute and get indexed */
  stepBlock(): Promise<void>
  /** queue a faucet transfer (lands at the next block); returns the message hash and the NFT address if one was minted */
  faucet(req: FaucetRequest): Promise<{ message_hash: string; nft?: string }>
  /** the simulated networks (tron, ethereum, solana, bitcoin); their blocks follow stepBlock() */
  readonly sim: SimNetworks
  /** queue a faucet transfer on a simulated network (confirms at the next block); returns the transfer id */
  simFaucet(req: SimFaucetRequest): { id: string }
  /** jetton master address of a demo jetton */
  jetton(key: "usdt" | "dvc" | "scam"): string
  close(): Promise<void>
}

export const startDevnet = async (options: StartDevnetOptions = {}): Promise<RunningDevnet> => {
  const devnet = await Devnet.open({
    ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
    ...(options.reset !== undefined ? { reset: options.reset } : {}),
    ...(options.globalId !== undefined ? { globalId: options.globalId } : {}),
  })
  const sim = SimNetworks.open(options.dataDir)
  const server = createServer(devnet, sim)
  const step = async () => {
    sim.step()
    await devnet.stepBlock()
  }
  const host = options.host ?? "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const blockMs = options.blockMs ?? 2000
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const loop = () => {
    if (stopped) return
    step()
      .catch((e: unknown) => console.error("devnet: block failed", e))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, blockMs)
      })
  }
  if (blockMs > 0) timer = setTimeout(loop, blockMs)
  return {
    url: `http://${host}:${port}`,
    port,
    devnet,
    sim,
    stepBlock: step,
    faucet: (req) => devnet.faucet(req),
    simFaucet: (req) => ({ id: sim.faucet(req.network, req.address, req.asset, req.amount).id }),
    jetton: (key) => {
      const a = devnet.jettonByKey(key)
      if (!a) throw new Error(`no demo jetton ${key}`)
      return a
    },
    close: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      sim.flush()
      await devnet.close()
    },
  }
}
export { loadWallet, signedTransfer, type LoadWallet } from "./load.ts"
