/**
 * The trade screens' calls and query keys (spec 1 §7 "Coins", §9 stale times: coin catalog and coin
 * details 60 s, coin list 300000 ms). Custody's contract (its public `./api`) gives the access flags
 * of stocks and the price chart of a custodial coin.
 */
import { queryOptions } from "@tanstack/react-query"
import type { Effect } from "effect"
import { PreferencesStore } from "@wallet/kernel"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { CustodyApi, type ChartPeriod } from "@wallet/plugin-custody/api"
import { TradeApi } from "../api.ts"
import type { Ranking } from "../rules.ts"

const tradeClient = clientPerKernel(makeApiClient(TradeApi))
const custodyClient = clientPerKernel(makeApiClient(CustodyApi))

const trade = async <A>(kernel: Kernel, call: (c: Awaited<ReturnType<typeof tradeClient>>) => Effect.Effect<A, unknown, any>): Promise<A> =>
  runEffect(kernel, call(await tradeClient(kernel)))
const custody = async <A>(kernel: Kernel, call: (c: Awaited<ReturnType<typeof custodyClient>>) => Effect.Effect<A, unknown, any>): Promise<A> =>
  runEffect(kernel, call(await custodyClient(kernel)))

export const CATALOG_STALE_MS = 60_000
export const COIN_DETAILS_STALE_MS = 60_000
export const COIN_LIST_STALE_MS = 300_000

export const tradeKeys = {
  fiat: () => ["trade", "fiat"] as const,
  catalog: (fiat: string) => ["trade", "catalog", fiat] as const,
  list: (fiat: string, ranking: Ranking) => ["trade", "list", fiat, ranking] as const,
  search: (fiat: string, query: string) => ["trade", "search", fiat, query] as const,
  coin: (symbol: string, fiat: string, lang: string) => ["trade", "coin", symbol, fiat, lang] as const,
  trending: (fiat: string) => ["trade", "trending", fiat] as const,
  chart: (symbol: string, fiat: string, period: ChartPeriod) => ["trade", "chart", symbol, fiat, period] as const,
  access: () => ["trade", "access"] as const,
}

/** The user's fiat (the device preference, USD by default), asked on every visit: settings may change it. */
export const fiatQuery = (kernel: Kernel) =>
  queryOptions({
    queryKey: tradeKeys.fiat(),
    queryFn: () =>
      runEffect(kernel, kernel.storage.load(PreferencesStore)).then(
        (p) => p.fiatCurrency,
        () => "USD",
      ),
    gcTime: 0,
  })

export const catalogQuery = (kernel: Kernel, fiat: string) =>
  queryOptions({
    queryKey: tradeKeys.catalog(fiat),
    queryFn: () => trade(kernel, (c) => c.trade.catalog({ params: { fiat } })),
    staleTime: CATALOG_STALE_MS,
  })

export const listQuery = (kernel: Kernel, fiat: string, ranking: Ranking) =>
  queryOptions({
    queryKey: tradeKeys.list(fiat, ranking),
    queryFn: () => trade(kernel, (c) => c.trade.coins({ query: { fiat, ranking } })),
    staleTime: COIN_LIST_STALE_MS,
  })

/** Search asks the server (every coin of the catalog, not only the ranking shown). */
export const searchQuery = (kernel: Kernel, fiat: string, query: string) =>
  queryOptions({
    queryKey: tradeKeys.search(fiat, query),
    queryFn: () => trade(kernel, (c) => c.trade.coins({ query: { fiat, search: query } })),
    staleTime: COIN_LIST_STALE_MS,
  })

export const coinQuery = (kernel: Kernel, symbol: string, fiat: string, lang: string) =>
  queryOptions({
    queryKey: tradeKeys.coin(symbol, fiat, lang),
    queryFn: () => trade(kernel, (c) => c.trade.coin({ params: { symbol, fiat }, query: { lang } })),
    staleTime: COIN_DETAILS_STALE_MS,
  })

export const chartQuery = (kernel: Kernel, symbol: string, fiat: string, period: ChartPeriod) =>
  queryOptions({
    queryKey: tradeKeys.chart(symbol, fiat, period),
    queryFn: () => custody(kernel, (c) => c.custodyRates.chart({ params: { crypto: symbol, fiat }, query: { period } })),
    staleTime: COIN_DETAILS_STALE_MS,
  })

/** Custody's access flags (spec 1 §3): charts, exchanges and the two stock flags. */
export const accessQuery = (kernel: Kernel) =>
  queryOptions({
    queryKey: tradeKeys.access(),
    queryFn: () => custody(kernel, (c) => c.custodyAccounts.accounts({ query: {} })).then((accounts) => accounts.accessFlags),
    staleTime: 60_000,
  })

/** The error's `_tag` (contract errors are tagged), e.g. "TradeNotFound". */
export const errorTag = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error ? String((error as { _tag: unknown })._tag) : undefined
