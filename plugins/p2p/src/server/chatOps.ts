/**
 * Support's view of an order's chat and receipts on `/ops/p2p` (issue 21): the whole chat, images as
 * thumbnails that open full size, each statement's receipts; the files come only through
 * `/ops/p2p/file` to a signed-in operator (the console's file route: `no-store`, `nosniff`, inert CSP).
 */
import { Effect } from "effect"
import { escapeHtml, type OperatorFile } from "@wallet/kernel-server/operator"
import type { OrderFile } from "../api.ts"
import { fileOf, transcriptOf } from "./chat.ts"

const idOf = (raw: string | null): number | undefined => (raw !== null && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : undefined)
const when = (date: Date) => date.toISOString().replace("T", " ").slice(0, 19)
const kb = (size: number) => `${Math.max(1, Math.ceil(size / 1024))} kB`
const isImage = (file: OrderFile) => file.mime.startsWith("image/")
const fileHref = (orderId: number, kind: "chat" | "receipt", id: number) => `/ops/p2p/file?order=${orderId}&amp;kind=${kind}&amp;id=${id}`

/** An image as a thumbnail linking to itself; a PDF as a link. */
const filePreview = (orderId: number, kind: "chat" | "receipt", file: OrderFile, alt: string) =>
  isImage(file)
    ? `<a href="${fileHref(orderId, kind, file.id)}" target="_blank" rel="noopener"><img src="${fileHref(orderId, kind, file.id)}" alt="${escapeHtml(alt)}" width="160"></a>`
    : `<a href="${fileHref(orderId, kind, file.id)}" target="_blank" rel="noopener">${escapeHtml(file.name ?? "file")} (PDF, ${kb(file.size)})</a>`

/** A statement's receipts, or nothing. */
export const receiptsHtml = (orderId: number, author: string, files: ReadonlyArray<OrderFile>) =>
  files.length === 0
    ? ""
    : `<div data-receipts>${files
        .map(
          (file) =>
            `<figure data-receipt="${file.id}">${filePreview(orderId, "receipt", file, `Receipt from the ${author}: ${file.name ?? ""}`)}${
              isImage(file) ? `<figcaption>${escapeHtml(file.name ?? "")} · ${kb(file.size)}</figcaption>` : ""
            }</figure>`,
        )
        .join("")}</div>`

/** The order's chat, oldest first, each message with its side and time. */
export const chatSection = (orderId: number, buyerId: number) =>
  Effect.gen(function* () {
    const rows = yield* transcriptOf(orderId)
    if (rows.length === 0) return `<h2>Chat</h2>\n<p class="muted">No messages</p>`
    const items = rows.map((row) => {
      const author = Number(row.author_id) === buyerId ? "buyer" : "seller"
      const body =
        row.file_key === null
          ? escapeHtml(row.text ?? "")
          : filePreview(
              orderId,
              "chat",
              { id: Number(row.id), mime: row.file_mime ?? "", size: Number(row.file_size ?? 0), name: null },
              `Image from the ${author}`,
            )
      return `<li data-chat-author="${author}"><strong>${author}</strong> (${when(row.created_at)}): ${body}</li>`
    })
    return `<h2>Chat</h2>\n<ol data-chat>${items.join("")}</ol>`
  })

/** `/ops/p2p/file?order=…&kind=chat|receipt&id=…`: a chat image or a receipt a statement carries. */
export const chatOperatorFile: OperatorFile = {
  path: "/file",
  serve: ({ query }) =>
    Effect.gen(function* () {
      const orderId = idOf(query.get("order"))
      const id = idOf(query.get("id"))
      const kind = query.get("kind")
      if (orderId === undefined || id === undefined || (kind !== "chat" && kind !== "receipt")) return yield* Effect.fail({ message: "No such file" })
      const file = yield* fileOf(orderId, kind, id, "support").pipe(Effect.orDie)
      if (file === undefined) return yield* Effect.fail({ message: "No such file" })
      return file
    }),
}
