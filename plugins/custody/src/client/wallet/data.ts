/**
 * The wallet screens' data access: the typed clients of the custody contracts (effect's
 * HttpApiClient over the kernel's Http policy), built once per kernel on first use, and the queries
 * several screens share (keys in `../queryKeys.ts`). These screens are lazy routes, so the HttpApi machinery stays off main.
 */
import { queryOptions, useQuery } from "@tanstack/react-query"
import type { Effect } from "effect"
import { PreferencesStore } from "@wallet/kernel"
import { BALANCES_META, kernelQueryClient, noteBalances, runEffect, STALE_TIME, type Kernel } from "@wallet/kernel-react"
import type { AccountsData } from "../../api.ts"
import { chainClient, custodyClient, type ChainClient, type CustodyClient } from "../send/clients.ts"
import { custodyKeys } from "../queryKeys.ts"

export type { ChainClient, CustodyClient }

export interface WalletClients {
  readonly custody: CustodyClient
  readonly chain: ChainClient
}

/** Both clients, the same ones the send screens use (one of each per kernel). */
export const walletClients = (kernel: Kernel): Promise<WalletClients> =>
  Promise.all([custodyClient(kernel), chainClient(kernel)]).then(([custody, chain]) => ({ custody, chain }))

/** Runs one call with the clients; a failure rejects with the contract's error (or HttpError). */
export const callWallet = <A, E>(kernel: Kernel, run: (clients: WalletClients) => Effect.Effect<A, E, any>): Promise<A> =>
  walletClients(kernel).then((c) => runEffect(kernel, run(c)))

/** The user's fiat (the device preference, USD by default). */
export const loadFiat = (kernel: Kernel): Promise<string> =>
  runEffect(kernel, kernel.storage.load(PreferencesStore)).then(
    (p) => p.fiatCurrency,
    () => "USD",
  )

export type { Loaded } from "../query.ts"

/** The user's fiat as a query (a local read, asked on every visit: settings may have changed it). */
export const useFiat = (kernel: Kernel) => useQuery({ queryKey: custodyKeys.fiat(), queryFn: () => loadFiat(kernel), gcTime: 0 })

/**
 * The accounts in `fiat` ("" for the server's default): custody's balances query, persisted, kept
 * forever and stale after 60 s (spec 1 §9), no polling. What it fetches is reported to the kernel,
 * so a deposit seen here makes wallet main's balances stale too (decision 0320).
 */
export const accountsQuery = (kernel: Kernel, fiat: string) =>
  queryOptions({
    queryKey: custodyKeys.accounts(fiat),
    queryFn: async (): Promise<AccountsData> => {
      const accounts = await callWallet(kernel, (c) => c.custody.custodyAccounts.accounts({ query: fiat === "" ? {} : { fiatCurrency: fiat } }))
      noteBalances(kernelQueryClient(kernel), custodyKeys.accounts(fiat), accounts.assets)
      return accounts
    },
    staleTime: STALE_TIME.assets,
    gcTime: Number.POSITIVE_INFINITY,
    meta: BALANCES_META,
  })

/** The error's `_tag` (contract errors are tagged), e.g. "CustodyForbidden". */
export const errorTag = (error: unknown): string | undefined =>
  error && typeof error === "object" && typeof (error as { _tag?: unknown })._tag === "string" ? (error as { _tag: string })._tag : undefined
