/** The ramp screens' calls and query keys (issue 23). Balances come from custody's accounts endpoint. */
import type { Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { HttpError } from "@wallet/kernel"
import { ApiId } from "@wallet/kernel/api"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { AccountsGroup } from "@wallet/plugin-custody/api"
import {
  RampApi,
  type BuyRequest,
  type PaymentMethodsView,
  type Quote,
  type QuoteRequest,
  type RampOptions,
  type RampRoutingAnswer,
  type RampTransaction,
  type SellRequest,
  type Started,
} from "../api.ts"
import type { Direction } from "../domain.ts"

const client = clientPerKernel(makeApiClient(RampApi))
const accounts = clientPerKernel(makeApiClient(HttpApi.make(ApiId).add(AccountsGroup)))
const api = async <A>(kernel: Kernel, call: (c: Awaited<ReturnType<typeof client>>) => Effect.Effect<A, unknown, any>): Promise<A> =>
  runEffect(kernel, call(await client(kernel)))

/** Spec 1 §9 stale times: ramp routing 5 min, payment methods 60 s. */
export const ROUTING_STALE_MS = 300_000
export const METHODS_STALE_MS = 60_000

export const rampKeys = {
  routing: ["ramp", "routing"] as const,
  options: ["ramp", "options"] as const,
  methods: (direction: Direction, fiat: string) => ["ramp", "methods", direction, fiat] as const,
  quote: (request: QuoteRequest) => ["ramp", "quote", request] as const,
  transaction: (id: string) => ["ramp", "transaction", id] as const,
  balances: ["ramp", "balances"] as const,
}

export const loadRouting = (kernel: Kernel): Promise<RampRoutingAnswer> => api(kernel, (c) => c.ramp.routing())
export const loadOptions = (kernel: Kernel): Promise<RampOptions> => api(kernel, (c) => c.ramp.options())
/** Spec 1 §5: an `unsupported_fiat_currency` answer is an empty list. */
export const loadMethods = async (kernel: Kernel, direction: Direction, fiatCurrency: string): Promise<PaymentMethodsView["methods"]> => {
  try {
    return (await api(kernel, (c) => c.ramp.paymentMethods({ query: { direction, fiatCurrency } }))).methods
  } catch (error) {
    if (errorCode(error) === "unsupported_fiat_currency") return []
    throw error
  }
}
export const requestQuote = (kernel: Kernel, payload: QuoteRequest): Promise<Quote> => api(kernel, (c) => c.ramp.quote({ payload }))
export const startBuy = (kernel: Kernel, payload: BuyRequest): Promise<Started> => api(kernel, (c) => c.ramp.buy({ payload }))
export const startSell = (kernel: Kernel, payload: SellRequest): Promise<Started> => api(kernel, (c) => c.ramp.sell({ payload }))
export const loadTransaction = (kernel: Kernel, id: string): Promise<RampTransaction> => api(kernel, (c) => c.ramp.transaction({ query: { id } }))

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

/** The mini-app's status page URL the provider sends the user back to (the server appends the transaction's search). */
export const returnUrlOf = (): string | undefined => {
  if (typeof window === "undefined" || !/^https?:$/.test(window.location.protocol)) return undefined
  return `${window.location.origin}/assets/ramp/asterium-trx-status`
}
