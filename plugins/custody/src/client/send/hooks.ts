import { useCallback, useEffect, useState } from "react"
import { currencyInfo, NETWORK_DISPLAY_NAMES, type NetworkCode } from "../../currencies.ts"

export type Load<A> =
  | { readonly state: "loading" }
  | { readonly state: "ok"; readonly value: A }
  | { readonly state: "error"; readonly error: unknown }

/**
 * Loads a value while mounted; the latest call wins (an answer for old inputs is dropped, spec 2 §5:
 * "cancelled requests are ignored"). `run` returns `{ ok, value | error }`.
 */
export function useLoad<A>(run: () => Promise<{ ok: true; value: A } | { ok: false; error: unknown }>, deps: ReadonlyArray<unknown>, enabled = true) {
  const [load, setLoad] = useState<Load<A>>({ state: "loading" })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    if (!enabled) return
    let current = true
    setLoad({ state: "loading" })
    void run().then(
      (result) => {
        if (!current) return
        setLoad(result.ok ? { state: "ok", value: result.value } : { state: "error", error: result.error })
      },
      (error: unknown) => current && setLoad({ state: "error", error }),
    )
    return () => {
      current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick, enabled])
  const reload = useCallback(() => setTick((n) => n + 1), [])
  return { load, reload, setLoad }
}

/** The value after `ms` without changes. */
export function useDebounced<A>(value: A, ms: number): A {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

/** The network's display name (TRC20, ERC20, …); bitcoin has none and shows the currency's name. */
export const networkLabel = (network: NetworkCode, currency: string): string =>
  NETWORK_DISPLAY_NAMES[network] ?? currencyInfo(currency)?.name ?? network

/** Currencies that can leave the wallet on some network (stock tokens have none). */
export const sendableCurrencies = <C extends { readonly networks: ReadonlyArray<NetworkCode> }>(all: ReadonlyArray<C>): ReadonlyArray<C> =>
  all.filter((currency) => currency.networks.length > 0)
