/** Express mode's calls and query keys (spec 3 §7.1; issue 21): pairs (stale 30 s), limits, the quote, the request. */
import type { Effect } from "effect"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { P2pApi, type ExpressCreateRequest, type ExpressLimitsRequest, type ExpressQuoteRequest } from "../api.ts"
import type { OfferType } from "../domain.ts"

const client = clientPerKernel(makeApiClient(P2pApi))
const api = async <A>(kernel: Kernel, call: (c: Awaited<ReturnType<typeof client>>) => Effect.Effect<A, unknown, any>): Promise<A> =>
  runEffect(kernel, call(await client(kernel)))

export const expressKeys = {
  all: ["p2p", "express"] as const,
  pairs: (side: OfferType) => ["p2p", "express", "pairs", side] as const,
  limits: (side: OfferType, crypto: string, fiat: string) => ["p2p", "express", "limits", side, crypto, fiat] as const,
  quote: (request: ExpressQuoteRequest) => ["p2p", "express", "quote", request] as const,
  current: ["p2p", "express", "current"] as const,
}

export const loadExpressPairs = (kernel: Kernel, offerType: OfferType) => api(kernel, (c) => c.p2p.expressPairs({ payload: { offerType } }))
export const loadExpressLimits = (kernel: Kernel, payload: ExpressLimitsRequest) => api(kernel, (c) => c.p2p.expressLimits({ payload }))
export const loadExpressQuote = (kernel: Kernel, payload: ExpressQuoteRequest) => api(kernel, (c) => c.p2p.expressQuote({ payload }))
export const createExpressRequest = (kernel: Kernel, payload: ExpressCreateRequest) => api(kernel, (c) => c.p2p.expressCreate({ payload }))
export const loadExpressCurrent = (kernel: Kernel) => api(kernel, (c) => c.p2p.expressCurrentRequest())
