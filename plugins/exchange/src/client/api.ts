/** The exchange screens' calls and query keys (decision 1100). Balances come from custody's accounts endpoint. */
import type { Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { HttpError } from "@wallet/kernel"
import { ApiId } from "@wallet/kernel/api"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { AccountsGroup } from "@wallet/plugin-custody/api"
import { ExchangeApi, type Executed, type ExchangeSettings, type Quote, type QuoteRequest } from "../api.ts"

const client = clientPerKernel(makeApiClient(ExchangeApi))
const accounts = clientPerKernel(makeApiClient(HttpApi.make(ApiId).add(AccountsGroup)))
const api = async <A>(kernel: Kernel, call: (c: Awaited<ReturnType<typeof client>>) => Effect.Effect<A, unknown, any>): Promise<A> =>
  runEffect(kernel, call(await client(kernel)))

export const exchangeKeys = {
  settings: ["exchange", "settings"] as const,
  balances: ["exchange", "balances"] as const,
  quote: (request: QuoteRequest) => ["exchange", "quote", request] as const,
  byUid: (uid: string) => ["exchange", "quote-uid", uid] as const,
}

export const loadSettings = (kernel: Kernel): Promise<ExchangeSettings> => api(kernel, (c) => c.exchange.settings())
export const requestQuote = (kernel: Kernel, payload: QuoteRequest): Promise<Quote> => api(kernel, (c) => c.exchange.quote({ payload }))
export const loadQuote = (kernel: Kernel, uid: string): Promise<Quote> => api(kernel, (c) => c.exchange.getQuote({ payload: { uid } }))
export const confirmQuote = (kernel: Kernel, uid: string, platform: string): Promise<Executed> =>
  api(kernel, (c) => c.exchange.confirm({ payload: { uid, platform } }))

/** The user's available balance per currency (decimal strings), from custody's accounts data. */
export const loadBalances = async (kernel: Kernel): Promise<ReadonlyMap<string, string>> => {
  const data = await runEffect(kernel, (await accounts(kernel)).custodyAccounts.accounts({ query: {} }))
  return new Map(data.assets.map((asset) => [asset.currency, asset.balance]))
}

/** The refusal's body: the declared error itself, or the JSON an HttpError carried. */
export const errorBody = (error: unknown): Record<string, unknown> => {
  if (error instanceof HttpError) return (error.body ?? {}) as Record<string, unknown>
  return error !== null && typeof error === "object" ? (error as Record<string, unknown>) : {}
}
export const errorCode = (error: unknown): string | undefined => {
  const code = errorBody(error).code ?? (error instanceof HttpError ? error.code : undefined)
  return typeof code === "string" ? code : undefined
}
