/** The wallet main's data: account, jettons, events, and the pending watcher (every 5 s). */
import { useEffect, useRef } from "react"
import { Effect } from "effect"
import { Chain, type AccountEvent, type ChainShape } from "@wallet/kernel/chain"
import { useKernel } from "@wallet/kernel-react"
import { HISTORY_PAGE_SIZE } from "../core/history.ts"
import { applyObservation, observe, PENDING_CHECK_INTERVAL_MS } from "../core/pending.ts"
import { chainFor, useLoad, useWallet } from "./hooks.ts"

export const loadAccount = (chain: ChainShape, raw: string) =>
  chain.getAccount(raw).pipe(
    Effect.catchIf(
      (e) => e.status === 404,
      () => Effect.succeed({ address: raw, balance: 0n, status: "nonexist" as const, last_activity: 0, get_methods: [], is_wallet: true }),
    ),
  )

export function useWalletData(raw: string | undefined) {
  const kernel = useKernel()
  const [state] = useWallet()
  const chain = chainFor(kernel, state.walletNetwork)
  const key = raw ? `${state.walletNetwork}:${raw}` : null
  const account = useLoad(key, () => loadAccount(chain, raw!))
  const jettons = useLoad(key, () => chain.getJettonBalances(raw!, { currencies: ["ton", "usd"] }))
  const events = useLoad(key, () => chain.getEvents(raw!, { limit: HISTORY_PAGE_SIZE }).pipe(Effect.map((r): ReadonlyArray<AccountEvent> => r.events)))
  return { account, jettons, events }
}

/** Checks each pending item every 5 s; after a finalization calls `onFinalized` (the refresh). */
export function usePendingWatcher(onFinalized: () => void) {
  const kernel = useKernel()
  const [state, update] = useWallet()
  const callback = useRef(onFinalized)
  useEffect(() => {
    callback.current = onFinalized
  })
  const hasPending = state.pending.pending.length > 0
  const network = state.walletNetwork
  useEffect(() => {
    if (!hasPending) return
    const chain = chainFor(kernel, network)
    let running = false
    const tick = async () => {
      if (running) return
      running = true
      try {
        for (const tx of update((s) => s).pending.pending) {
          const observation = await Effect.runPromise(observe(tx).pipe(Effect.provideService(Chain, chain)))
          let refresh = false
          update((s) => {
            const transition = applyObservation(s.pending, tx.key, observation, Date.now())
            refresh = transition.refresh
            return { ...s, pending: transition.state }
          })
          if (refresh) callback.current()
        }
      } finally {
        running = false
      }
    }
    const first = setTimeout(() => void tick(), 1_000)
    const timer = setInterval(() => void tick(), PENDING_CHECK_INTERVAL_MS)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [kernel, hasPending, network, update])
}
