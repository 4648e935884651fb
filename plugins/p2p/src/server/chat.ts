/**
 * The order chat (issue 21): texts and images between the order's two sides, kept with the order for
 * an appeal; per-user read marks and unread counts; the appeal's receipts; the notification settings.
 * Only the buyer and the seller read or write (anyone else 403 `wrong_side`); a closed order's chat is
 * read-only (409 `chat_closed`). Files live in the kernel's `FileStore` under random keys and are served
 * only to the two sides (`no-store`) and to support (`/ops/p2p/file`). A new message tells the other
 * side through the bot, at most once a minute per order (a row per order and recipient, not memory).
 */
import { randomUUID } from "node:crypto"
import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { FileStore, readUpTo, ServerConfig, sniffFileType } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import {
  P2pConflict,
  P2pForbidden,
  P2pNotFound,
  P2pRefused,
  type ChatMessage,
  type ChatPage,
  type NotifySettingsPatch,
  type OrderFile,
  type PendingReceipts,
} from "../api.ts"
import {
  CHAT_IMAGE_TYPES,
  CHAT_PING_MS,
  chatPreview,
  chatWritable,
  MAX_CHAT_FILE_BYTES,
  MAX_CHAT_IMAGES_PER_SIDE,
  MAX_CHAT_MESSAGES,
  MAX_RECEIPTS,
  RECEIPT_TYPES,
  receiptsOpen,
} from "../chatRules.ts"
import type { OrderStatus } from "../domain.ts"
import { recipientOf } from "./notify.ts"

/** Receipts one side can add to one order in all (the pending ones are at most `MAX_RECEIPTS`). */
const MAX_RECEIPTS_PER_SIDE = 30

interface ChatOrder {
  readonly id: number
  readonly buyerId: number
  readonly sellerId: number
  readonly status: OrderStatus
  readonly side: "buyer" | "seller"
  readonly otherId: number
}

interface MessageRow {
  id: string
  author_id: string
  text: string | null
  file_key: string | null
  file_mime: string | null
  file_size: number | null
  created_at: Date
}

interface FileRow {
  id: string
  statement_id: string | null
  file_mime: string
  file_size: number
  file_name: string
}

const refuse = (code: P2pRefused["code"], message: string) => Effect.fail(new P2pRefused({ code, message }))

/** The order as its side sees it: unknown is 404, someone else's 403; `lock` takes the row for the caller's transaction. */
const partyOrder = (userId: number, orderId: number, lock = false) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<{ buyer_id: string; seller_id: string; status: OrderStatus }>(
      `select buyer_id::text as buyer_id, seller_id::text as seller_id, status from p2p_orders where id = $1${lock ? " for update" : ""}`,
      [orderId],
    )
    const row = rows[0]
    if (row === undefined) return yield* Effect.fail(new P2pNotFound({ code: "order_not_found", message: `No order ${orderId}` }))
    const buyerId = Number(row.buyer_id)
    const sellerId = Number(row.seller_id)
    if (userId !== buyerId && userId !== sellerId) {
      return yield* Effect.fail(new P2pForbidden({ code: "wrong_side", message: "Only the order's buyer and seller use its chat and files" }))
    }
    const side = userId === buyerId ? ("buyer" as const) : ("seller" as const)
    return { id: orderId, buyerId, sellerId, status: row.status, side, otherId: side === "buyer" ? sellerId : buyerId } satisfies ChatOrder
  })

const writable = (order: ChatOrder) =>
  chatWritable(order.status)
    ? Effect.void
    : Effect.fail(new P2pConflict({ code: "chat_closed", message: `The order is ${order.status}: its chat is read-only`, status: order.status }))

const MESSAGE_COLUMNS = "id::text as id, author_id::text as author_id, text, file_key, file_mime, file_size, created_at"

const messageView = (row: MessageRow, viewer: number, buyerId: number): ChatMessage => ({
  id: Number(row.id),
  author: Number(row.author_id) === buyerId ? "buyer" : "seller",
  mine: Number(row.author_id) === viewer,
  text: row.text,
  image: row.file_key === null ? null : { id: Number(row.id), mime: row.file_mime ?? "application/octet-stream", size: Number(row.file_size ?? 0), name: null },
  createdAt: row.created_at.toISOString(),
})

/** Unread messages per order for `viewer` (the other side's after the viewer's read mark), in one query. */
export const unreadOf = (orderIds: ReadonlyArray<number>, viewer: number) =>
  Effect.gen(function* () {
    const out = new Map<number, number>()
    if (orderIds.length === 0) return out
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ order_id: string; n: number }>`
      select m.order_id::text as order_id, count(*)::int as n from p2p_messages m
        left join p2p_chat_reads r on r.order_id = m.order_id and r.user_id = ${viewer}
      where m.order_id = any(${orderIds as Array<number>}::bigint[]) and m.author_id <> ${viewer} and m.id > coalesce(r.last_read_id, 0)
      group by m.order_id`
    for (const row of rows) out.set(Number(row.order_id), Number(row.n))
    return out
  })

/** `chatList`: the messages after `afterId` (all without it), oldest first, with the unread count. */
export const listMessages = (userId: number, request: { readonly orderId: number; readonly afterId?: number | undefined }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const order = yield* partyOrder(userId, request.orderId)
    const rows = yield* sql.unsafe<MessageRow>(`select ${MESSAGE_COLUMNS} from p2p_messages where order_id = $1 and id > $2 order by id limit $3`, [
      order.id,
      request.afterId ?? 0,
      MAX_CHAT_MESSAGES,
    ])
    const unread = (yield* unreadOf([order.id], userId)).get(order.id) ?? 0
    return { messages: rows.map((row) => messageView(row, userId, order.buyerId)), unread, writable: chatWritable(order.status) } satisfies ChatPage
  })

const BOT_TEXT = {
  en: {
    text: (orderId: number, from: "buyer" | "seller", preview: string) =>
      `Order #${orderId}: a new message from the ${from}: «${preview}». Open the order's chat to reply.`,
    image: (orderId: number, from: "buyer" | "seller") => `Order #${orderId}: the ${from} sent a photo in the chat. Open the order's chat to see it.`,
  },
  ru: {
    text: (orderId: number, from: "buyer" | "seller", preview: string) =>
      `Сделка №${orderId}: новое сообщение от ${from === "buyer" ? "покупателя" : "продавца"}: «${preview}». Откройте чат сделки, чтобы ответить.`,
    image: (orderId: number, from: "buyer" | "seller") =>
      `Сделка №${orderId}: ${from === "buyer" ? "покупатель прислал" : "продавец прислал"} фото в чат. Откройте чат сделки, чтобы посмотреть.`,
  },
} as const

/**
 * Tells the other side about a new message (in the message's transaction) when they keep `chat` on and
 * were not told about this order in the last minute: the conditional upsert of their ping row decides,
 * so two messages at once send one bot message.
 */
const pingOther = (order: ChatOrder, message: { readonly text: string | null }, at: Date) =>
  Effect.gen(function* () {
    const recipient = yield* recipientOf(order.otherId)
    if (!recipient.settings.chat) return
    const sql = yield* SqlClient.SqlClient
    const due = yield* sql`insert into p2p_chat_pings (order_id, user_id, sent_at) values (${order.id}, ${order.otherId}, ${at})
      on conflict (order_id, user_id) do update set sent_at = excluded.sent_at
        where p2p_chat_pings.sent_at <= ${new Date(at.getTime() - CHAT_PING_MS)}
      returning order_id`
    if (due.length === 0) return
    const texts = BOT_TEXT[recipient.language]
    const body = message.text === null ? texts.image(order.id, order.side) : texts.text(order.id, order.side, chatPreview(message.text))
    yield* (yield* Outbox).enqueue({ channel: "telegram", recipient: String(order.otherId), subject: "p2p.chat.message", body })
  })

/** One message written: the order locked (a move cannot close it meanwhile), the caps checked, the row and the bot message. */
const insertMessage = (
  userId: number,
  orderId: number,
  content: { readonly text: string | null; readonly file?: { key: string; mime: string; size: number } },
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const at = new Date(config.now())
        const order = yield* partyOrder(userId, orderId, true)
        yield* writable(order)
        const [counts] = yield* sql<{ total: number; images: number }>`
          select count(*)::int as total, (count(*) filter (where author_id = ${userId} and file_key is not null))::int as images
            from p2p_messages where order_id = ${orderId}`
        if (Number(counts!.total) >= MAX_CHAT_MESSAGES) return yield* refuse("too_many_messages", `An order's chat holds at most ${MAX_CHAT_MESSAGES} messages`)
        if (content.file !== undefined && Number(counts!.images) >= MAX_CHAT_IMAGES_PER_SIDE) {
          return yield* refuse("too_many_files", `Each side sends at most ${MAX_CHAT_IMAGES_PER_SIDE} images in an order's chat`)
        }
        const [row] = yield* sql.unsafe<MessageRow>(
          `insert into p2p_messages (order_id, author_id, text, file_key, file_mime, file_size, created_at) values ($1, $2, $3, $4, $5, $6, $7)
           returning ${MESSAGE_COLUMNS}`,
          [orderId, userId, content.text, content.file?.key ?? null, content.file?.mime ?? null, content.file?.size ?? null, at],
        )
        yield* pingOther(order, content, at)
        return messageView(row!, userId, order.buyerId)
      }),
    )
  })

/** `chatSend`: a text message. */
export const sendText = (userId: number, request: { readonly orderId: number; readonly text: string }) =>
  insertMessage(userId, request.orderId, { text: request.text.trim() })

/**
 * Reads an uploaded file (at most 5 MB, its type from its bytes, one of `types`) and stores it under a
 * random key; the key is removed again when `use` fails, so a refused upload leaves nothing behind.
 */
const storeUpload = <A, E, R>(
  prefix: string,
  body: Stream.Stream<Uint8Array, unknown>,
  types: ReadonlyArray<string>,
  use: (file: { key: string; mime: string; size: number }) => Effect.Effect<A, E, R>,
) =>
  Effect.gen(function* () {
    const files = yield* FileStore
    const bytes = yield* readUpTo(body, MAX_CHAT_FILE_BYTES)
    if (bytes === undefined) return yield* refuse("file_too_large", "A file is at most 5 MB")
    const mime = sniffFileType(bytes)
    if (bytes.byteLength === 0 || mime === undefined || !types.includes(mime)) {
      return yield* refuse("file_invalid", types.includes("application/pdf") ? "Send a JPEG, PNG or WebP photo, or a PDF" : "Send a JPEG, PNG or WebP photo")
    }
    const key = `${prefix}/${randomUUID()}`
    const stored = yield* files.put(key, bytes, mime).pipe(Effect.orDie)
    return yield* use({ key, mime, size: stored.size }).pipe(Effect.onError(() => files.remove(key).pipe(Effect.ignore)))
  })

/** `chatImage`: an image message (JPEG, PNG or WebP). The order is checked before the body is read. */
export const sendImage = (userId: number, orderId: number, body: Stream.Stream<Uint8Array, unknown>) =>
  Effect.gen(function* () {
    yield* writable(yield* partyOrder(userId, orderId))
    return yield* storeUpload(`p2p/chat/${orderId}`, body, CHAT_IMAGE_TYPES, (file) => insertMessage(userId, orderId, { text: null, file }))
  })

/** `chatRead`: the requester read up to `lastId` (a mark never moves back, nor past the last message). */
export const markRead = (userId: number, request: { readonly orderId: number; readonly lastId: number }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const order = yield* partyOrder(userId, request.orderId)
    yield* sql`insert into p2p_chat_reads (order_id, user_id, last_read_id)
      select ${order.id}, ${userId}, least(${request.lastId}, coalesce(max(id), 0)) from p2p_messages where order_id = ${order.id}
      on conflict (order_id, user_id) do update set last_read_id = greatest(p2p_chat_reads.last_read_id, excluded.last_read_id)`
    return { unread: (yield* unreadOf([order.id], userId)).get(order.id) ?? 0 }
  })

// --- files ---------------------------------------------------------------------------------------

/**
 * A file of the order: a chat image, or a receipt (the other side's once a statement carries it, one's
 * own from the upload on). Undefined when there is none.
 */
export const fileOf = (orderId: number, kind: "chat" | "receipt", id: number, viewer: number | "support") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const files = yield* FileStore
    const rows =
      kind === "chat"
        ? yield* sql<{ file_key: string; file_mime: string }>`
            select file_key, file_mime from p2p_messages where id = ${id} and order_id = ${orderId} and file_key is not null`
        : yield* sql<{ file_key: string; file_mime: string }>`
            select file_key, file_mime from p2p_appeal_files
            where id = ${id} and order_id = ${orderId} and (statement_id is not null or user_id = ${viewer === "support" ? 0 : viewer})`
    const row = rows[0]
    if (row === undefined) return undefined
    const stored = yield* files.get(row.file_key).pipe(Effect.orDie)
    return stored === undefined ? undefined : { contentType: row.file_mime, bytes: stored.bytes }
  })

/** `orderFile`: the bytes to one of the order's sides, never cached, shown inline only as the type read at upload. */
export const orderFile = (userId: number, query: { readonly orderId: string; readonly kind: "chat" | "receipt"; readonly id: string }) =>
  Effect.gen(function* () {
    const order = yield* partyOrder(userId, Number(query.orderId))
    const file = yield* fileOf(order.id, query.kind, Number(query.id), userId)
    if (file === undefined) return yield* Effect.fail(new P2pNotFound({ code: "file_not_found", message: "No such file in this order" }))
    return HttpServerResponse.uint8Array(file.bytes, {
      contentType: file.contentType,
      headers: { "cache-control": "no-store", "x-content-type-options": "nosniff", "content-disposition": "inline" },
    })
  })

const fileView = (row: FileRow): OrderFile => ({ id: Number(row.id), mime: row.file_mime, size: Number(row.file_size), name: row.file_name })

/** `pendingReceipts`: the requester's receipts of the order that no statement carries yet. */
export const pendingReceipts = (userId: number, orderId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const order = yield* partyOrder(userId, orderId)
    const rows = yield* sql<FileRow>`select id::text as id, statement_id::text as statement_id, file_mime, file_size, file_name from p2p_appeal_files
      where order_id = ${order.id} and user_id = ${userId} and statement_id is null order by id`
    return { files: rows.map(fileView) } satisfies PendingReceipts
  })

/** `uploadReceipt`: a receipt (image or PDF) for the next statement, while the order is paid or appealed; at most 3 wait. */
export const uploadReceipt = (userId: number, query: { readonly orderId: string; readonly name: string }, body: Stream.Stream<Uint8Array, unknown>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const orderId = Number(query.orderId)
    const seen = yield* partyOrder(userId, orderId)
    if (!receiptsOpen(seen.status)) {
      return yield* Effect.fail(
        new P2pConflict({ code: "order_state_changed", message: `Receipts go with an appeal; the order is ${seen.status}`, status: seen.status }),
      )
    }
    yield* storeUpload(`p2p/receipts/${orderId}`, body, RECEIPT_TYPES, (file) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const order = yield* partyOrder(userId, orderId, true)
          if (!receiptsOpen(order.status)) {
            return yield* Effect.fail(new P2pConflict({ code: "order_state_changed", message: `The order is ${order.status} now`, status: order.status }))
          }
          const [counts] = yield* sql<{ pending: number; total: number }>`
            select (count(*) filter (where statement_id is null))::int as pending, count(*)::int as total
              from p2p_appeal_files where order_id = ${orderId} and user_id = ${userId}`
          if (Number(counts!.pending) >= MAX_RECEIPTS) return yield* refuse("too_many_files", `A statement carries at most ${MAX_RECEIPTS} files`)
          if (Number(counts!.total) >= MAX_RECEIPTS_PER_SIDE) return yield* refuse("too_many_files", `Each side adds at most ${MAX_RECEIPTS_PER_SIDE} files`)
          yield* sql`insert into p2p_appeal_files (order_id, user_id, file_key, file_mime, file_size, file_name, created_at)
            values (${orderId}, ${userId}, ${file.key}, ${file.mime}, ${file.size}, ${query.name.trim() || "receipt"}, ${new Date(config.now())})`
        }),
      ),
    )
    return yield* pendingReceipts(userId, orderId)
  })

/** `removeReceipt`: one of the requester's receipts that no statement carries yet (its stored file goes too). */
export const removeReceipt = (userId: number, request: { readonly orderId: number; readonly fileId: number }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const files = yield* FileStore
    const order = yield* partyOrder(userId, request.orderId)
    const removed = yield* sql<{ file_key: string }>`delete from p2p_appeal_files
      where id = ${request.fileId} and order_id = ${order.id} and user_id = ${userId} and statement_id is null returning file_key`
    if (removed[0] === undefined) return yield* Effect.fail(new P2pNotFound({ code: "file_not_found", message: "No such receipt waiting for a statement" }))
    yield* files.remove(removed[0].file_key).pipe(Effect.orDie)
    return yield* pendingReceipts(userId, order.id)
  })

/** A statement carries these receipts of its author (in the statement's transaction): each one theirs, of this order, not carried yet. */
export const attachReceipts = (orderId: number, userId: number, statementId: number, ids: ReadonlyArray<number> | undefined) =>
  Effect.gen(function* () {
    const unique = [...new Set(ids ?? [])]
    if (unique.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const attached = yield* sql`update p2p_appeal_files set statement_id = ${statementId}
      where id = any(${unique}::bigint[]) and order_id = ${orderId} and user_id = ${userId} and statement_id is null returning id`
    if (attached.length !== unique.length) return yield* refuse("invalid_receipts", "A receipt is not one of yours waiting for this order's statement")
  })

/** The receipts each statement carries, by statement id. */
export const receiptsOf = (statementIds: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const out = new Map<number, Array<OrderFile>>()
    if (statementIds.length === 0) return out
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<FileRow>`select id::text as id, statement_id::text as statement_id, file_mime, file_size, file_name from p2p_appeal_files
      where statement_id = any(${statementIds as Array<number>}::bigint[]) order by id`
    for (const row of rows) {
      const list = out.get(Number(row.statement_id)) ?? []
      list.push(fileView(row))
      out.set(Number(row.statement_id), list)
    }
    return out
  })

/** Every message of an order for support, oldest first. */
export const transcriptOf = (orderId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.unsafe<MessageRow>(`select ${MESSAGE_COLUMNS} from p2p_messages where order_id = $1 order by id`, [orderId])
  })

// --- notification settings -----------------------------------------------------------------------

/** `notifySettings`: the user's groups (every one on until turned off). */
export const notifySettingsOf = (userId: number) => Effect.map(recipientOf(userId), (recipient) => recipient.settings)

/** `updateNotifySettings`: the groups in the patch change, the rest stay. */
export const updateNotifySettings = (userId: number, patch: NotifySettingsPatch) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const orders = patch.orders ?? null
    const chat = patch.chat ?? null
    const appeals = patch.appeals ?? null
    yield* sql`insert into p2p_notify_settings (user_id, orders, chat, appeals, updated_at)
      values (${userId}, coalesce(${orders}::boolean, true), coalesce(${chat}::boolean, true), coalesce(${appeals}::boolean, true), ${new Date(config.now())})
      on conflict (user_id) do update set orders = coalesce(${orders}::boolean, p2p_notify_settings.orders),
        chat = coalesce(${chat}::boolean, p2p_notify_settings.chat), appeals = coalesce(${appeals}::boolean, p2p_notify_settings.appeals),
        updated_at = excluded.updated_at`
    return yield* notifySettingsOf(userId)
  })
