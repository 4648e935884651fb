/**
 * Wallet main's data: the custody accounts and frozen balances in the user's fiat, through the
 * kernel's Http policy and decoded with the custody contract's schemas, as one persisted query
 * (decision 0320: assets stale after 60 s and kept forever, no polling). The contract module (and
 * its HttpApi definitions) loads lazily, after the first paint, so it stays off the first screen.
 */
import { useQuery } from "@tanstack/react-query"
import { Effect, type Schema } from "effect"
import { Http, isWalletGuardFailure } from "@wallet/kernel"
import type { QueryClient } from "@tanstack/react-query"
import { BALANCES_META, kernelQueryClient, noteBalances, runEffect, STALE_TIME, type Kernel } from "@wallet/kernel-react"
import type { AccountsData, FrozenBalance } from "@wallet/plugin-custody/api"
import { homeKeys } from "../queryKeys.ts"

export interface MainData {
  readonly accounts: AccountsData
  readonly frozen: ReadonlyArray<FrozenBalance>
}

export const fetchMainData = async (kernel: Kernel, fiat: string): Promise<MainData> => {
  const contract = await import("@wallet/plugin-custody/api")
  const base = `${window.location.origin}${contract.CUSTODY_API_PREFIX}`
  const query = `?fiatCurrency=${encodeURIComponent(fiat)}`
  const get = <A>(schema: Schema.Codec<A, any, never, never>, path: string) =>
    runEffect(
      kernel,
      Effect.flatMap(Http, (http) => http.json(schema, `${base}${path}${query}`)),
    )
  const [accounts, frozen] = await Promise.all([
    get(contract.AccountsData, "/accounts"),
    // Frozen rows are extra: main still shows the balances when they fail.
    get(contract.FrozenBalances, "/frozen-balances").then(
      (answer) => answer.items,
      (): ReadonlyArray<FrozenBalance> => [],
    ),
  ])
  // Money seen moving here (a deposit) makes custody's balances stale too, and the other way round.
  noteBalances(kernelQueryClient(kernel), homeKeys.main(fiat), accounts.assets)
  return { accounts, frozen }
}

/** The options of main's query: persisted, balances (refreshed after money moves), kept forever. */
export const mainDataQuery = (kernel: Kernel, fiat: string) => ({
  queryKey: homeKeys.main(fiat),
  queryFn: () => fetchMainData(kernel, fiat),
  staleTime: STALE_TIME.assets,
  gcTime: Number.POSITIVE_INFINITY,
  meta: BALANCES_META,
})

export type MainEntry =
  | { readonly status: "loading"; readonly data?: undefined }
  /**
   * `guardFailure`: the accounts (the wallet guard's call) timed out or met a 5xx or a 403
   * online_user_limit_exceeded: spec 1 §8's `online_user_limit_exceeded`, shown on main (decision 0380).
   */
  | { readonly status: "error"; readonly data?: MainData; readonly guardFailure: boolean }
  | { readonly status: "ready"; readonly data: MainData }

/**
 * The accounts of `fiat` (null while the fiat is not known yet). A failed refetch keeps the last
 * data beside the error (main shows it as possibly old); `refetch` is the retry button.
 */
export function useMainData(kernel: Kernel, fiat: string | null): { readonly entry: MainEntry; readonly refetch: () => void } {
  const query = useQuery({ ...mainDataQuery(kernel, fiat ?? ""), enabled: fiat !== null })
  const entry: MainEntry =
    fiat === null || (query.data === undefined && (query.status !== "error" || query.isFetching))
      ? { status: "loading" }
      : query.status === "error"
        ? query.data === undefined
          ? { status: "error", guardFailure: isWalletGuardFailure(query.error) }
          : { status: "error", data: query.data, guardFailure: isWalletGuardFailure(query.error) }
        : { status: "ready", data: query.data! }
  return { entry, refetch: () => void query.refetch() }
}

/**
 * The start-time prefetch of main's next screens (registered by main, run 1000 ms after load): custody
 * gets the accounts main already holds, so "Receive" and the asset pages open without a request.
 */
export const prefetchNextScreens = (kernel: Kernel, client: QueryClient): Promise<void> => {
  const [held] = client
    .getQueryCache()
    .findAll({ queryKey: [...homeKeys.all, "main"] })
    .filter((query) => query.state.data !== undefined)
  const seed = held && { fiat: String(held.queryKey[2]), accounts: (held.state.data as MainData).accounts, updatedAt: held.state.dataUpdatedAt }
  return import("@wallet/plugin-custody/prefetch").then((custody) => custody.prefetchCustody(kernel, client, seed))
}

/**
 * What main shows around the balance (spec 1 §2 "Error screen", decision 0380):
 * - `high-demand`: the wallet guard failed and nothing is cached: the high-demand message under the balance;
 * - `technical-issue`: it failed with a balance cached from an earlier start (the persisted query cache):
 *   that balance "as of your last login" and the technical-issue note, the cached assets below;
 * - `error` / `stale`: an ordinary load error (offline, a 4xx) without or with cached data.
 */
export type MainView = "loading" | "ready" | "stale" | "error" | "high-demand" | "technical-issue"
export const mainView = (entry: MainEntry): MainView => {
  if (entry.status !== "error") return entry.status
  if (entry.guardFailure) return entry.data === undefined ? "high-demand" : "technical-issue"
  return entry.data === undefined ? "error" : "stale"
}
