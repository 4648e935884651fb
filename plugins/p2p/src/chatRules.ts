/**
 * The order chat's, the appeal receipts' and the notification settings' rules (issue 21), shared by
 * the server and the screens. Pure: no I/O.
 */
import type { OrderStatus } from "./domain.ts"

/** A chat message's text, in UTF-16 units (as the text field counts). */
export const MAX_CHAT_TEXT = 2_000
/** An image in the chat, and a receipt of an appeal. */
export const MAX_CHAT_FILE_BYTES = 5 * 1024 * 1024
export const CHAT_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const
export const RECEIPT_TYPES = [...CHAT_IMAGE_TYPES, "application/pdf"] as const
export type ChatImageType = (typeof CHAT_IMAGE_TYPES)[number]
export type ReceiptType = (typeof RECEIPT_TYPES)[number]
/** Receipts one statement carries. */
export const MAX_RECEIPTS = 3
/** An order's chat holds at most this many messages (one page of the first read), images at most this many per side. */
export const MAX_CHAT_MESSAGES = 500
export const MAX_CHAT_IMAGES_PER_SIDE = 30
/** The open chat asks for new messages this often (short poll). */
export const CHAT_POLL_MS = 3_000
/** At most one bot message about new chat messages per order and recipient in this time. */
export const CHAT_PING_MS = 60_000
/** A chat message's text in the bot message, at most. */
export const CHAT_PREVIEW = 120

/** The chat takes messages while the order is open; a closed order's chat is kept for the record, read-only. */
export const CHAT_WRITABLE: ReadonlyArray<OrderStatus> = ["REQUESTED", "ACCEPTED", "PAID", "IN_APPEAL"]
export const chatWritable = (status: OrderStatus): boolean => CHAT_WRITABLE.includes(status)

/** Receipts can be added while support can still read them: a paid order (before its appeal) and an appealed one. */
export const receiptsOpen = (status: OrderStatus): boolean => status === "PAID" || status === "IN_APPEAL"

/** The groups of bot messages a user can turn off (every one on by default). */
export const NOTIFY_GROUPS = ["orders", "chat", "appeals"] as const
export type NotifyGroup = (typeof NOTIFY_GROUPS)[number]
export type NotifySettings = Readonly<Record<NotifyGroup, boolean>>
export const DEFAULT_NOTIFY: NotifySettings = { orders: true, chat: true, appeals: true }

/** A chat text as the bot quotes it: one line, at most `CHAT_PREVIEW` characters (never half a surrogate pair). */
export const chatPreview = (text: string): string => {
  const line = text.replace(/\s+/g, " ").trim()
  const chars = Array.from(line)
  return chars.length <= CHAT_PREVIEW ? line : `${chars.slice(0, CHAT_PREVIEW - 1).join("")}…`
}
