import { useEffect, useState } from "react"
import { currencyInfo, NETWORK_DISPLAY_NAMES, type NetworkCode } from "../../currencies.ts"

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
export const networkLabel = (network: NetworkCode, currency: string): string => NETWORK_DISPLAY_NAMES[network] ?? currencyInfo(currency)?.name ?? network

/** Currencies that can leave the wallet on some network (stock tokens have none). */
export const sendableCurrencies = <C extends { readonly networks: ReadonlyArray<NetworkCode> }>(all: ReadonlyArray<C>): ReadonlyArray<C> =>
  all.filter((currency) => currency.networks.length > 0)
