/**
 * The P2P screens' calls and query keys (spec 3 §7.1, §9). Every screen goes through these: the
 * order read is cached 3,500 ms and retried 5 times; the active orders are polled every 5 s.
 */
import type { Effect } from "effect"
import { HttpError } from "@wallet/kernel"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, uploadWithSession, type Kernel } from "@wallet/kernel-react"
import type { ChatMessage, ChatPage, NotifySettings, NotifySettingsPatch, PendingReceipts } from "../api.ts"
import { CHAT_IMAGE_TYPES, RECEIPT_TYPES } from "../chatRules.ts"
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
  type ExportLink,
  type ExportRequest,
  type MerchantStatus,
  type Order,
  type OrderFeedback,
  type RateOrderRequest,
  type Reputation,
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
  merchant: ["p2p", "merchant"] as const,
  reputation: (userId: number) => ["p2p", "reputation", userId] as const,
  feedback: (orderId: number) => ["p2p", "feedback", orderId] as const,
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
/** Issue 21 reputation: a user's record; an order's ratings; rate the other side of a completed order. */
export const loadReputation = (kernel: Kernel, userId: number): Promise<Reputation> => api(kernel, (c) => c.p2p.reputation({ payload: { userId } }))
export const loadFeedback = (kernel: Kernel, orderId: number): Promise<OrderFeedback> => api(kernel, (c) => c.p2p.orderFeedback({ payload: { orderId } }))
export const rateOrder = (kernel: Kernel, payload: RateOrderRequest): Promise<OrderFeedback> => api(kernel, (c) => c.p2p.rateOrder({ payload }))
/** Issue 21 merchant: the trusted-merchant criteria and application; apply; an order-history export link. */
export const loadMerchantStatus = (kernel: Kernel): Promise<MerchantStatus> => api(kernel, (c) => c.p2p.merchantStatus())
export const applyMerchant = (kernel: Kernel): Promise<MerchantStatus> => api(kernel, (c) => c.p2p.merchantApply())
export const exportOrders = (kernel: Kernel, payload: ExportRequest): Promise<ExportLink> => api(kernel, (c) => c.p2p.exportOrders({ payload }))
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

// --- chat, receipts, notification settings (issue 21) ----------------------------------------------

export const chatKeys = {
  messages: (orderId: number) => ["p2p", "chat", orderId] as const,
  file: (orderId: number, kind: "chat" | "receipt", id: number) => ["p2p", "file", orderId, kind, id] as const,
  receipts: (orderId: number) => ["p2p", "receipts", orderId] as const,
  notify: ["p2p", "notify-settings"] as const,
}

/** A chat or receipt upload's timeout (spec 1 §7: the upload helper's; a photo of 5 MB on a slow line). */
export const FILE_UPLOAD_TIMEOUT_MS = 120_000

export const loadChat = (kernel: Kernel, orderId: number, afterId?: number): Promise<ChatPage> =>
  api(kernel, (c) => c.p2p.chatList({ payload: afterId === undefined ? { orderId } : { orderId, afterId } }))
export const sendChatText = (kernel: Kernel, orderId: number, text: string): Promise<ChatMessage> =>
  api(kernel, (c) => c.p2p.chatSend({ payload: { orderId, text } }))
export const markChatRead = (kernel: Kernel, orderId: number, lastId: number): Promise<{ readonly unread: number }> =>
  api(kernel, (c) => c.p2p.chatRead({ payload: { orderId, lastId } }))
/** A file's bytes (the parties only; sent with the session's token, so an <img> shows them through an object URL). */
export const loadOrderFile = (kernel: Kernel, orderId: number, kind: "chat" | "receipt", id: number): Promise<Uint8Array> =>
  api(kernel, (c) => c.p2p.orderFile({ query: { orderId: String(orderId), kind, id: String(id) } }))
export const loadPendingReceipts = (kernel: Kernel, orderId: number): Promise<PendingReceipts> =>
  api(kernel, (c) => c.p2p.pendingReceipts({ payload: { orderId } }))
export const removeReceipt = (kernel: Kernel, orderId: number, fileId: number): Promise<PendingReceipts> =>
  api(kernel, (c) => c.p2p.removeReceipt({ payload: { orderId, fileId } }))
export const loadNotifySettings = (kernel: Kernel): Promise<NotifySettings> => api(kernel, (c) => c.p2p.notifySettings())
export const updateNotifySettings = (kernel: Kernel, patch: NotifySettingsPatch): Promise<NotifySettings> =>
  api(kernel, (c) => c.p2p.updateNotifySettings({ payload: patch }))

const uploadTo = async (kernel: Kernel, url: string, file: Blob, types: ReadonlyArray<string>, onProgress: (percent: number) => void) =>
  (
    await uploadWithSession(kernel, {
      url,
      body: file,
      contentType: types.includes(file.type) ? file.type : "application/octet-stream",
      timeoutMs: FILE_UPLOAD_TIMEOUT_MS,
      onProgress: (loaded, total) => onProgress(total > 0 ? Math.round((loaded / total) * 100) : 0),
    })
  ).body

/** An image into the order's chat, with its progress in percent. */
export const uploadChatImage = async (kernel: Kernel, orderId: number, file: Blob, onProgress: (percent: number) => void): Promise<ChatMessage> =>
  (await uploadTo(kernel, `/api/p2p/chat/image?orderId=${orderId}`, file, CHAT_IMAGE_TYPES, onProgress)) as ChatMessage

/** A receipt for the next appeal statement; the answer is every receipt waiting for it. */
export const uploadReceipt = async (kernel: Kernel, orderId: number, file: File, onProgress: (percent: number) => void): Promise<PendingReceipts> => {
  const query = new URLSearchParams({ orderId: String(orderId), name: file.name.slice(0, 120) || "receipt" })
  return (await uploadTo(kernel, `/api/p2p/orders/appeal/receipt?${query}`, file, RECEIPT_TYPES, onProgress)) as PendingReceipts
}
