/** Shared client plumbing of the TON space: the wallet state, the Chain client, small data hooks. */
import { useCallback, useSyncExternalStore } from "react"
import { useQuery, type QueryKey } from "@tanstack/react-query"
import { Effect } from "effect"
import { makeChainClient, type ChainError, type ChainShape } from "@wallet/kernel/chain"
import { useKernel, type Kernel } from "@wallet/kernel-react"
import type { Network } from "../core/assets.ts"
import { tonSpaceConfig } from "../config.ts"
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
  const config = tonSpaceConfig(kernel)
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
 * One chain read as a query of the kernel's client (decision 0320), under `queryKey` (from
 * queryKeys.ts; null: nothing to load). While reloading the same key, and when that reload fails,
 * the last data of that key stays; data of another key never shows under this one. Not persisted.
 */
export function useChainQuery<A>(queryKey: QueryKey | null, load: () => Effect.Effect<A, ChainError | Error>): Loaded<A> {
  const query = useQuery<A, ChainError | Error>({
    queryKey: queryKey ?? ["tonSpace", "idle"],
    queryFn: () => Effect.runPromise(Effect.result(load())).then((outcome) => (outcome._tag === "Success" ? outcome.success : Promise.reject(outcome.failure))),
    enabled: queryKey !== null,
  })
  const refetch = query.refetch
  const reload = useCallback(() => void refetch(), [refetch])
  if (queryKey === null) return { data: undefined, error: undefined, loading: false, reload }
  return { data: query.data, error: query.error ?? undefined, loading: query.isFetching || query.isPending, reload }
}
