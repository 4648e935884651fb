/**
 * Wallet main's data: the custody accounts and frozen balances in the user's fiat, through the
 * kernel's Http policy and decoded with the custody contract's schemas. The contract module (and
 * its HttpApi definitions) loads lazily, after the first paint, so it stays off the first screen.
 */
import { useEffect, useSyncExternalStore } from "react"
import { Effect, type Schema } from "effect"
import { Http } from "@wallet/kernel"
import { runEffect, type Kernel } from "@wallet/kernel-react"
import type { AccountsData, FrozenBalance } from "@wallet/plugin-custody/api"
import { ACCOUNTS_STALE_MS, makeQueryCache, type Entry, type QueryCache } from "./cache.ts"

export interface MainData {
  readonly accounts: AccountsData
  readonly frozen: ReadonlyArray<FrozenBalance>
}

const fetchMainData = async (kernel: Kernel, fiat: string): Promise<MainData> => {
  const contract = await import("@wallet/plugin-custody/api")
  const base = `${window.location.origin}${contract.CUSTODY_API_PREFIX}`
  const query = `?fiatCurrency=${encodeURIComponent(fiat)}`
  const get = <A,>(schema: Schema.Codec<A, any, never, never>, path: string) => runEffect(kernel, Effect.flatMap(Http, (http) => http.json(schema, `${base}${path}${query}`)))
  const [accounts, frozen] = await Promise.all([
    get(contract.AccountsData, "/accounts"),
    // Frozen rows are extra: main still shows the balances when they fail.
    get(contract.FrozenBalances, "/frozen-balances").then(
      (answer) => answer.items,
      (): ReadonlyArray<FrozenBalance> => [],
    ),
  ])
  return { accounts, frozen }
}

let cache: QueryCache<MainData> | undefined
let cacheKernel: Kernel | undefined
/** One cache per app (per kernel), kept while the app lives: going back to main shows data at once. */
const cacheFor = (kernel: Kernel): QueryCache<MainData> => {
  if (!cache || cacheKernel !== kernel) {
    cache = makeQueryCache((fiat) => fetchMainData(kernel, fiat), { staleMs: ACCOUNTS_STALE_MS })
    cacheKernel = kernel
  }
  return cache
}

/**
 * The accounts of `fiat` (null while the fiat is not known yet): loads when stale, polls every 60 s
 * while mounted, never on window focus. `refetch` forces a request (the retry button).
 */
export function useMainData(kernel: Kernel, fiat: string | null): { readonly entry: Entry<MainData>; readonly refetch: () => void } {
  const queries = cacheFor(kernel)
  const entry = useSyncExternalStore(queries.subscribe, () => (fiat ? queries.get(fiat) : LOADING))
  useEffect(() => {
    if (!fiat) return
    void queries.ensure(fiat)
    const timer = setInterval(() => void queries.ensure(fiat), ACCOUNTS_STALE_MS)
    return () => clearInterval(timer)
  }, [queries, fiat])
  return { entry, refetch: () => void (fiat && queries.ensure(fiat, true)) }
}

const LOADING: Entry<MainData> = { status: "loading" }
