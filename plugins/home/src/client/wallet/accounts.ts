/**
 * Wallet main's data: the custody accounts and frozen balances in the user's fiat, through the
 * kernel's Http policy and checked with the kernel's Check mirror of the custody contract
 * (accountsCheck.ts), as one persisted query (decision 0320: assets stale after 60 s and kept forever,
 * no polling). The contract module and Effect Schema stay off the path to the first balance (0007).
 */
import { useQuery } from "@tanstack/react-query"
import { Effect } from "effect"
import { Http, isWalletGuardFailure, type Check } from "@wallet/kernel"
import type { QueryClient } from "@tanstack/react-query"
import { BALANCES_META, kernelQueryClient, noteBalances, runEffect, STALE_TIME, type Kernel } from "@wallet/kernel-react"
import type { AccountsData, FrozenBalance } from "@wallet/plugin-custody/api"
import { homeKeys } from "../queryKeys.ts"
import { AccountsDataCheck, CUSTODY_PREFIX, FrozenBalancesCheck } from "./accountsCheck.ts"

export interface MainData {
  readonly accounts: AccountsData
  readonly frozen: ReadonlyArray<FrozenBalance>
}

export const fetchMainData = async (kernel: Kernel, fiat: string): Promise<MainData> => {
  // Checked with the kernel's Check (accountsCheck.ts): the custody contract's Schema stays off this path (decision 0007).
  const base = `${window.location.origin}${CUSTODY_PREFIX}`
  const query = `?fiatCurrency=${encodeURIComponent(fiat)}`
  const get = <A>(check: Check.Check<A>, path: string) =>
    runEffect(
      kernel,
      Effect.flatMap(Http, (http) => http.json(check, `${base}${path}${query}`)),
    )
  const [accounts, frozen] = await Promise.all([
    get(AccountsDataCheck, "/accounts"),
    // Frozen rows are extra: main still shows the balances when they fail.
    get(FrozenBalancesCheck, "/frozen-balances").then(
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

/** When this page (visit) started: data updated before it came from the persisted cache of an earlier visit. */
const visitStartedAt = (): number => (typeof performance === "undefined" ? 0 : performance.timeOrigin)

/**
 * The accounts of `fiat` (null while the fiat is not known yet). A failed refetch keeps the last
 * data beside the error (main shows it as possibly old); `refetch` is the retry button.
 * `refreshing` (decision 0008): the data shown is an earlier visit's, restored from the persisted
 * cache, and its refresh has not answered yet (it goes when the fresh answer arrives or fails).
 */
export function useMainData(kernel: Kernel, fiat: string | null): { readonly entry: MainEntry; readonly refetch: () => void; readonly refreshing: boolean } {
  const query = useQuery({ ...mainDataQuery(kernel, fiat ?? ""), enabled: fiat !== null })
  const refreshing = fiat !== null && query.data !== undefined && query.status !== "error" && query.dataUpdatedAt < visitStartedAt()
  const entry: MainEntry =
    fiat === null || (query.data === undefined && (query.status !== "error" || query.isFetching))
      ? { status: "loading" }
      : query.status === "error"
        ? query.data === undefined
          ? { status: "error", guardFailure: isWalletGuardFailure(query.error) }
          : { status: "error", data: query.data, guardFailure: isWalletGuardFailure(query.error) }
        : { status: "ready", data: query.data! }
  return { entry, refetch: () => void query.refetch(), refreshing }
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
