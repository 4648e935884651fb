/** Shared client plumbing of the TON space: the wallet state, the Chain client, small data hooks. */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react"
import { Effect } from "effect"
import { makeChainClient, type ChainError, type ChainShape } from "@wallet/kernel/chain"
import { useKernel, type Kernel } from "@wallet/kernel-react"
import type { Network } from "../core/assets.ts"
import type { TonSpaceConfig } from "../manifest.ts"
import { createWalletStateStore, type WalletState, type WalletStateStore } from "./store.ts"

export const NS = "tonSpace"

let store: WalletStateStore | undefined
export const walletStore = (kernel: Kernel): WalletStateStore => (store ??= createWalletStateStore(kernel.storage))

export function useWallet(): [WalletState, WalletStateStore["update"]] {
  const kernel = useKernel()
  const s = walletStore(kernel)
  const state = useSyncExternalStore(s.subscribe, s.get, s.get)
  return [state, s.update]
}

const clients = new Map<string, ChainShape>()
/** The tonapi-compatible chain API of a network (region config; the same origin's /v2 by default, the devnet in dev). */
export const chainFor = (kernel: Kernel, network: Network): ChainShape => {
  const config = kernel.composition.pluginConfig.get("ton-space") as TonSpaceConfig | undefined
  const baseUrl = (network === "testnet" ? config?.testnetChainApiUrl : config?.chainApiUrl) ?? window.location.origin
  let client = clients.get(baseUrl)
  if (!client) {
    client = makeChainClient({ baseUrl })
    clients.set(baseUrl, client)
  }
  return client
}

export function useChain(): ChainShape {
  const kernel = useKernel()
  const [state] = useWallet()
  return chainFor(kernel, state.walletNetwork)
}

export interface Loaded<A> {
  readonly data: A | undefined
  readonly error: ChainError | Error | undefined
  readonly loading: boolean
  readonly reload: () => void
}

/**
 * Runs `load` when `key` changes (and on reload). While reloading the same key, and when that reload
 * fails, the last data of that key stays; data of another key never shows under this one.
 */
export function useLoad<A>(key: string | null, load: () => Effect.Effect<A, ChainError | Error>): Loaded<A> {
  const [result, setResult] = useState<{ readonly key: string; readonly request: string; readonly data?: A; readonly error?: ChainError | Error } | undefined>(undefined)
  const [tick, setTick] = useState(0)
  const loadRef = useRef(load)
  useEffect(() => {
    loadRef.current = load
  })
  const request = key === null ? null : `${key}#${tick}`
  useEffect(() => {
    if (key === null || request === null) return
    let alive = true
    void Effect.runPromise(Effect.result(loadRef.current())).then((outcome) => {
      if (!alive) return
      setResult((previous) => {
        if (outcome._tag === "Success") return { key, request, data: outcome.success }
        const kept = previous?.key === key ? previous.data : undefined
        return { key, request, error: outcome.failure, ...(kept !== undefined ? { data: kept } : {}) }
      })
    })
    return () => {
      alive = false
    }
  }, [key, request])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  const current = result !== undefined && result.key === key ? result : undefined
  return { data: current?.data, error: current?.error, loading: request !== null && result?.request !== request, reload }
}
