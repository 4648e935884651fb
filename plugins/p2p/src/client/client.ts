/**
 * The P2P screens' calls and query keys (spec 3 §7.1, §9). Every screen goes through these: the
 * order read is cached 3,500 ms and retried 5 times; the active orders are polled every 5 s.
 */
import type { Effect } from "effect"
import { HttpError } from "@wallet/kernel"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import {
  P2pApi,
  type CreateOfferRequest,
  type HistoryRequest,
  type MoveRequest,
  type OpenAppealRequest,
  type StatementRequest,
  type Offer,
  type OfferForm,
  type OfferListRequest,
  type Order,
  type P2pSettings,
  type P2pSettingsPatch,
  type P2pUser,
  type PaymentDetails,
  type SavePaymentDetails,
  type TakeOfferRequest,
} from "../api.ts"
import { ORDER_CACHE_MS, ORDER_RETRIES, STRIP_PAGE, STRIP_POLL_MS, type OfferType } from "../domain.ts"

const client = clientPerKernel(makeApiClient(P2pApi))
const api = async <A>(kernel: Kernel, call: (c: Awaited<ReturnType<typeof client>>) => Effect.Effect<A, unknown, any>): Promise<A> =>
  runEffect(kernel, call(await client(kernel)))

export const keys = {
  all: ["p2p"] as const,
  user: ["p2p", "user"] as const,
  settings: ["p2p", "settings"] as const,
  offerSettings: ["p2p", "offer-settings"] as const,
  currencies: ["p2p", "currencies"] as const,
  pair: (fiat: string) => ["p2p", "pair", fiat] as const,
  price: (crypto: string, fiat: string) => ["p2p", "price", crypto, fiat] as const,
  methods: (fiat: string) => ["p2p", "methods", fiat] as const,
  payments: ["p2p", "payments"] as const,
  offers: (request: OfferListRequest) => ["p2p", "offers", request] as const,
  myOffers: ["p2p", "my-offers"] as const,
  offer: (id: number) => ["p2p", "offer", id] as const,
  order: (id: number) => ["p2p", "order", id] as const,
  history: (status: HistoryRequest["filter"]["status"]) => ["p2p", "history", status] as const,
  active: ["p2p", "active-orders"] as const,
}

/** Spec 3 §7.1 / §9 query timings. */
export const STALE = { user: 300_000, currencies: 300_000, pair: 60_000, order: ORDER_CACHE_MS, active: STRIP_POLL_MS } as const
export const ORDER_QUERY = { staleTime: ORDER_CACHE_MS, retry: ORDER_RETRIES } as const
export const ACTIVE_ORDERS = { page: STRIP_PAGE, pollMs: STRIP_POLL_MS } as const

export const loadUser = (kernel: Kernel): Promise<P2pUser> => api(kernel, (c) => c.p2p.user())
export const initUser = (kernel: Kernel): Promise<P2pUser> => api(kernel, (c) => c.p2p.initUser())
export const loadSettings = (kernel: Kernel): Promise<P2pSettings> => api(kernel, (c) => c.p2p.settings())
export const updateSettings = (kernel: Kernel, patch: P2pSettingsPatch): Promise<P2pSettings> => api(kernel, (c) => c.p2p.updateSettings({ payload: patch }))
export const loadOfferSettings = (kernel: Kernel) => api(kernel, (c) => c.p2p.offerSettings())
export const loadCurrencies = (kernel: Kernel) => api(kernel, (c) => c.p2p.currencies())
export const loadPairAvailability = (kernel: Kernel, fiat: string) => api(kernel, (c) => c.p2p.pairAvailability({ query: { fiat } }))
export const loadMarketPrice = (kernel: Kernel, crypto: string, fiat: string) =>
  api(kernel, (c) => c.p2p.marketPrice({ query: { crypto: crypto as never, fiat } }))
export const loadMethods = (kernel: Kernel, fiat: string) => api(kernel, (c) => c.p2p.methods({ query: { fiat } }))

export const loadPayments = (kernel: Kernel): Promise<ReadonlyArray<PaymentDetails>> => api(kernel, (c) => c.p2p.myPayments()).then((r) => r.items)
export const createPayment = (kernel: Kernel, payload: SavePaymentDetails): Promise<PaymentDetails> => api(kernel, (c) => c.p2p.createPayment({ payload }))
export const updatePayment = (kernel: Kernel, id: number, payload: SavePaymentDetails): Promise<PaymentDetails> =>
  api(kernel, (c) => c.p2p.updatePayment({ payload: { id, ...payload } }))
export const deletePayment = (kernel: Kernel, id: number) => api(kernel, (c) => c.p2p.deletePayment({ payload: { id } })).then((r) => r.items)

export const listOffers = (kernel: Kernel, request: OfferListRequest): Promise<ReadonlyArray<Offer>> =>
  api(kernel, (c) => c.p2p.listOffers({ payload: request })).then((r) => r.items)
export const myOffers = (kernel: Kernel, type?: OfferType): Promise<ReadonlyArray<Offer>> =>
  api(kernel, (c) => c.p2p.myOffers({ payload: type === undefined ? {} : { type } })).then((r) => r.items)
export const loadOffer = (kernel: Kernel, offerId: number): Promise<Offer> => api(kernel, (c) => c.p2p.getOffer({ payload: { offerId } }))
export const createOffer = (kernel: Kernel, payload: CreateOfferRequest): Promise<Offer> => api(kernel, (c) => c.p2p.createOffer({ payload }))
export const updateOffer = (kernel: Kernel, id: number, form: OfferForm): Promise<Offer> => api(kernel, (c) => c.p2p.updateOffer({ payload: { id, ...form } }))
export const setOfferStatus = (kernel: Kernel, id: number, status: "ACTIVE" | "INACTIVE"): Promise<Offer> =>
  api(kernel, (c) => c.p2p.setOfferStatus({ payload: { id, status } }))

export const takeOffer = (kernel: Kernel, payload: TakeOfferRequest): Promise<Order> => api(kernel, (c) => c.p2p.takeOffer({ payload }))
export const loadOrder = (kernel: Kernel, orderId: number): Promise<Order> => api(kernel, (c) => c.p2p.getOrder({ payload: { orderId } }))
export const moveOrder = (kernel: Kernel, payload: MoveRequest): Promise<Order> => api(kernel, (c) => c.p2p.moveOrder({ payload }))
export const loadHistory = (kernel: Kernel, request: HistoryRequest): Promise<ReadonlyArray<Order>> =>
  api(kernel, (c) => c.p2p.history({ payload: request })).then((r) => r.items)
/** Issue 21: ask support about a paid order; add to the appeal. */
export const openAppeal = (kernel: Kernel, payload: OpenAppealRequest): Promise<Order> => api(kernel, (c) => c.p2p.openAppeal({ payload }))
export const addStatement = (kernel: Kernel, payload: StatementRequest): Promise<Order> => api(kernel, (c) => c.p2p.addStatement({ payload }))
/** The strip's read (spec 3 §7.1): the first 20 active orders. */
export const loadActiveOrders = (kernel: Kernel) => loadHistory(kernel, { offset: 0, limit: STRIP_PAGE, filter: { status: "ALL_ACTIVE" } })

/** The server's code of a refusal (`price_moved`, `amount_out_of_limits`, `order_state_changed` ...). */
export const errorCode = (error: unknown): string | undefined => {
  if (error instanceof HttpError) return error.serverCode ?? error.code
  const code = error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined
  return typeof code === "string" ? code : undefined
}

/** The refusal's extra fields (`priceCents` of price_moved, `reason` of offer_unavailable, `status`). */
export const errorField = (error: unknown, field: "priceCents" | "reason" | "status" | "why"): string | undefined => {
  const value = error !== null && typeof error === "object" ? (error as Record<string, unknown>)[field] : undefined
  return typeof value === "string" ? value : undefined
}
