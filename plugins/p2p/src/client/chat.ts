/**
 * Pure helpers of the order chat, the receipts and the notification settings screens (issue 21):
 * merging polled messages, the read mark, a picked file's check before upload, times and badges.
 * No React, no I/O.
 */
import type { ChatMessage, OrderFile } from "../api.ts"
import { CHAT_IMAGE_TYPES, MAX_CHAT_FILE_BYTES, NOTIFY_GROUPS, RECEIPT_TYPES, type NotifyGroup, type NotifySettings } from "../chatRules.ts"
import { errorKey } from "./market.ts"

/** The chat as the screen keeps it between polls. */
export interface ChatState {
  readonly messages: ReadonlyArray<ChatMessage>
  readonly unread: number
  readonly writable: boolean
  /**
   * The newest id a poll returned: the next poll asks for what came after it. Not the newest shown,
   * since a message sent here may get a newer id than one of the other side's not polled yet.
   */
  readonly cursor: number
}

/** The state after a poll answered `page` (asked after `state.cursor`). */
export const afterPoll = (state: ChatState | undefined, page: Omit<ChatState, "cursor">): ChatState => ({
  messages: mergeMessages(state?.messages ?? [], page.messages),
  unread: page.unread,
  writable: page.writable,
  cursor: Math.max(state?.cursor ?? 0, lastIdOf(page.messages) ?? 0),
})

/** The state with a message sent here (the cursor stays: the next poll still fetches what came before it). */
export const withSent = (state: ChatState | undefined, message: ChatMessage): ChatState | undefined =>
  state === undefined ? state : { ...state, messages: mergeMessages(state.messages, [message]) }

/** Messages already shown plus new ones (a poll, a sent message): each once, oldest first. */
export const mergeMessages = (current: ReadonlyArray<ChatMessage>, incoming: ReadonlyArray<ChatMessage>): ReadonlyArray<ChatMessage> => {
  if (incoming.length === 0) return current
  const byId = new Map<number, ChatMessage>()
  for (const message of current) byId.set(message.id, message)
  for (const message of incoming) byId.set(message.id, message)
  return [...byId.values()].sort((a, b) => a.id - b.id)
}

/** The newest message's id (the next poll asks for what came after it); undefined before any. */
export const lastIdOf = (messages: ReadonlyArray<ChatMessage>): number | undefined => messages.at(-1)?.id

/** The other side's newest message: reading up to it clears the unread count. */
export const lastTheirsOf = (messages: ReadonlyArray<ChatMessage>): number | undefined => {
  for (let index = messages.length - 1; index >= 0; index--) if (!messages[index]!.mine) return messages[index]!.id
  return undefined
}

export type FileProblem = "file_invalid" | "file_too_large"

/**
 * A picked file checked before it is sent (the server reads the type from the bytes again): a chat
 * image is a JPEG, PNG or WebP; a receipt may also be a PDF; either at most 5 MB.
 */
export const fileProblem = (file: { readonly type: string; readonly size: number }, kind: "image" | "receipt"): FileProblem | null => {
  const types: ReadonlyArray<string> = kind === "image" ? CHAT_IMAGE_TYPES : RECEIPT_TYPES
  if (file.size === 0 || (file.type !== "" && !types.includes(file.type))) return "file_invalid"
  if (file.size > MAX_CHAT_FILE_BYTES) return "file_too_large"
  return null
}

/** A message's time: the clock today, the day and the clock before. */
export const messageTime = (iso: string, now: number, locale: string, timeZone?: string): string => {
  const at = new Date(iso)
  const zone = timeZone === undefined ? {} : { timeZone }
  const day = (date: Date) => new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", ...zone }).format(date)
  const clock = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", ...zone })
  if (day(at) === day(new Date(now))) return clock.format(at)
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", ...zone }).format(at)
}

/** An unread count on a badge: "99+" past 99; null for none. */
export const badgeText = (count: number): string | null => (count <= 0 ? null : count > 99 ? "99+" : String(count))

/** A file's size for people ("12 kB", "1.5 MB"). */
export const sizeText = (bytes: number): string =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.ceil(bytes / 1024))} kB` : `${(Math.round((bytes / (1024 * 1024)) * 10) / 10).toString()} MB`

export const isImage = (file: Pick<OrderFile, "mime">): boolean => file.mime.startsWith("image/")

/** The codes the chat, receipt and settings screens explain themselves; the rest as the market does. */
export const CHAT_ERRORS = [
  "chat_closed",
  "file_invalid",
  "file_too_large",
  "too_many_files",
  "too_many_messages",
  "invalid_receipts",
  "file_not_found",
] as const

/** The i18n key of a refusal on these screens. */
export const chatErrorKey = (code: string | undefined): string =>
  code !== undefined && (CHAT_ERRORS as ReadonlyArray<string>).includes(code) ? `chat.errors.${code}` : errorKey(code)

/** The settings with one group switched (the optimistic value the screen shows while it saves). */
export const withGroup = (settings: NotifySettings, group: NotifyGroup, on: boolean): NotifySettings =>
  Object.fromEntries(NOTIFY_GROUPS.map((name) => [name, name === group ? on : settings[name]])) as unknown as NotifySettings
