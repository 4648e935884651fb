/**
 * The wallet side played in Node by the tonconnect plugin's engine, with promises instead of
 * Effects: the browser test uses it to prove the demo dApp page against the real bridge and the
 * devnet without the mini-app (its screens drive the same engine).
 */
import { Effect } from "effect"
import { makeChainClient } from "../../../kernel/core/src/chain/index.ts"
import { keyPairSigner, makeEngine, memoryStore, parseConnectLink, type PendingRequest } from "../../../plugins/tonconnect/src/engine/index.ts"
import { testWallet } from "./test-wallet.ts"

export interface EngineWalletOptions {
  readonly bridgeUrl: string
  /** The chain API (the devnet's URL). */
  readonly chainUrl: string
  readonly seed: Buffer
}

export const startEngineWallet = async (options: EngineWalletOptions) => {
  const wallet = testWallet(options.seed)
  const queue: Array<PendingRequest> = []
  const waiters: Array<(request: PendingRequest) => void> = []
  const engine = makeEngine({
    signer: keyPairSigner({ secretKey: wallet.secretKey, address: wallet.raw, stateInit: wallet.stateInit, network: "-239" }),
    storage: memoryStore(),
    bridgeUrl: options.bridgeUrl,
    chain: makeChainClient({ baseUrl: options.chainUrl }),
    device: { platform: "iphone", appName: "wallet", appVersion: "6.4.0" },
    onRequest: (request) => {
      const waiter = waiters.shift()
      if (waiter) waiter(request)
      else queue.push(request)
    },
    reconnectDelaysMs: [100],
  })
  await Effect.runPromise(engine.start())
  return {
    wallet,
    /** Parses the link the dApp opened (universal, tg://, startapp) and approves the connection. */
    connect: async (link: string) => {
      const proposal = await Effect.runPromise(engine.prepareConnect(await Effect.runPromise(parseConnectLink(link))))
      await Effect.runPromise(engine.approveConnect(proposal))
      return proposal
    },
    nextRequest: (): Promise<PendingRequest> => {
      const item = queue.shift()
      return item ? Promise.resolve(item) : new Promise((resolve) => waiters.push(resolve))
    },
    approve: (request: PendingRequest) =>
      request.kind === "sendTransaction" ? Effect.runPromise(engine.approveTransaction(request)) : Effect.runPromise(engine.approveSignData(request)),
    stop: () => engine.stop(),
  }
}
