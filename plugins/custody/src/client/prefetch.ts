/**
 * Start-time prefetch of what custody's next screens need (decision 0320; spec 1 §9: 1000 ms after
 * load): the accounts that "Receive" (choose asset) and the asset pages open with. Wallet main hands
 * over the accounts it already holds, so this costs no request; without them they are fetched.
 */
import type { QueryClient } from "@tanstack/react-query"
import { BALANCES_META, STALE_TIME, type Kernel } from "@wallet/kernel-react"
import type { AccountsData } from "../api.ts"
import { custodyKeys } from "./queryKeys.ts"

export interface AccountsSeed {
  readonly fiat: string
  readonly accounts: AccountsData
  /** When the accounts were fetched (their age decides when they are stale). */
  readonly updatedAt: number
}

export const prefetchCustody = async (kernel: Kernel, client: QueryClient, seed?: AccountsSeed): Promise<void> => {
  const user = kernel.user()
  if (!user || user.isCustodyAvailable === false) return
  // A seeded query is a balances query from the start (persisted, refreshed when money moves).
  client.setQueryDefaults(["custody", "accounts"], { meta: BALANCES_META, gcTime: Number.POSITIVE_INFINITY, staleTime: STALE_TIME.assets })
  if (seed) {
    if (client.getQueryData(custodyKeys.accounts(seed.fiat)) === undefined)
      client.setQueryData(custodyKeys.accounts(seed.fiat), seed.accounts, { updatedAt: seed.updatedAt })
    return
  }
  const { accountsQuery, loadFiat } = await import("./wallet/data.ts")
  await client.prefetchQuery(accountsQuery(kernel, await loadFiat(kernel)))
}
