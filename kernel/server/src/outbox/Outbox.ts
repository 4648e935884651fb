/**
 * The Outbox: every message the server sends to a person (email codes, Telegram notices) is first
 * stored in `outbox_messages`, then handed to the configured `OutboxSender`. The dev sender only
 * marks the message sent (it stays readable at `GET /api/dev/outbox`); a real sender (SMTP, the
 * bot) replaces it in production. Without one, messages stay `pending` for a delivery worker.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { Int8Number } from "../db/Db.ts"
import type { Migration } from "../db/migrations.ts"
import { ServerConfig } from "../services.ts"

export const OutboxChannel = Schema.Literals(["email", "telegram"])
export type OutboxChannel = typeof OutboxChannel.Type
export const OutboxStatus = Schema.Literals(["pending", "sent", "failed"])
export type OutboxStatus = typeof OutboxStatus.Type

export interface OutboxDraft {
  readonly channel: OutboxChannel
  /** An email address or a Telegram user id (as a string). */
  readonly recipient: string
  readonly subject: string
  readonly body: string
}

export interface OutboxMessage extends OutboxDraft {
  readonly id: number
  readonly status: OutboxStatus
  readonly createdAt: Date
  readonly sentAt: Date | undefined
}

export class OutboxSendError extends Schema.TaggedError<OutboxSendError>()("OutboxSendError", { message: Schema.String }) {}

/** Delivers one stored message; the Outbox records the outcome. */
export interface OutboxSenderShape {
  /** "dev" keeps messages readable on the dev outbox page; "none" leaves them pending. */
  readonly name: string
  readonly deliver: (message: OutboxMessage) => Effect.Effect<"sent" | "pending", OutboxSendError>
}

export class OutboxSender extends Context.Service<OutboxSender, OutboxSenderShape>()("wallet/server/OutboxSender") {
  /** Dev: nothing leaves the machine; the message is marked sent and stays in the table. */
  static readonly dev: OutboxSenderShape = { name: "dev", deliver: () => Effect.succeed("sent") }
  /** No transport configured: messages wait as `pending` for a delivery worker. */
  static readonly none: OutboxSenderShape = { name: "none", deliver: () => Effect.succeed("pending") }
}

export interface OutboxShape {
  /** Stores the message and hands it to the sender; resolves with the stored message. */
  readonly enqueue: (draft: OutboxDraft) => Effect.Effect<OutboxMessage, SqlError>
  /** Newest first; `recipient` filters exactly (case-insensitive for emails). */
  readonly list: (options?: {
    readonly recipient?: string
    readonly status?: OutboxStatus
    readonly limit?: number
  }) => Effect.Effect<ReadonlyArray<OutboxMessage>, SqlError>
}

const Row = Schema.Struct({
  id: Int8Number,
  channel: OutboxChannel,
  recipient: Schema.String,
  subject: Schema.String,
  body: Schema.String,
  status: OutboxStatus,
  created_at: Schema.Date,
  sent_at: Schema.NullOr(Schema.Date),
})
const decodeRow = Schema.decodeUnknownSync(Row)
const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)))
const toMessage = (raw: Record<string, unknown>): OutboxMessage => {
  const row = decodeRow({ ...raw, created_at: toDate(raw.created_at), sent_at: raw.sent_at === null ? null : toDate(raw.sent_at) })
  return {
    id: row.id,
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    status: row.status,
    createdAt: row.created_at,
    sentAt: row.sent_at ?? undefined,
  }
}

const MAX_LIST = 200

export const makeOutbox = (sender: OutboxSenderShape) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig

    const enqueue = (draft: OutboxDraft) =>
      Effect.gen(function* () {
        const now = new Date(config.now())
        const recipient = draft.channel === "email" ? draft.recipient.trim().toLowerCase() : draft.recipient
        const [inserted] = yield* sql<Record<string, unknown>>`
          insert into outbox_messages (channel, recipient, subject, body, status, created_at)
          values (${draft.channel}, ${recipient}, ${draft.subject}, ${draft.body}, 'pending', ${now})
          returning *`
        const message = toMessage(inserted!)
        const outcome = yield* Effect.result(sender.deliver(message))
        if (outcome._tag === "Success" && outcome.success === "pending") return message
        const status: OutboxStatus = outcome._tag === "Success" ? "sent" : "failed"
        const sentAt = status === "sent" ? new Date(config.now()) : null
        const [updated] = yield* sql<Record<string, unknown>>`
          update outbox_messages set status = ${status}, sent_at = ${sentAt} where id = ${message.id} returning *`
        return toMessage(updated!)
      })

    const list: OutboxShape["list"] = (options = {}) =>
      Effect.gen(function* () {
        const limit = Math.max(1, Math.min(options.limit ?? 50, MAX_LIST))
        const recipient = options.recipient?.trim().toLowerCase()
        const rows = yield* sql<Record<string, unknown>>`
          select * from outbox_messages
          where (${recipient ?? null}::text is null or lower(recipient) = ${recipient ?? null}::text)
            and (${options.status ?? null}::text is null or status = ${options.status ?? null}::text)
          order by id desc limit ${limit}`
        return rows.map(toMessage)
      })

    return { enqueue, list } satisfies OutboxShape
  })

export class Outbox extends Context.Service<Outbox, OutboxShape>()("wallet/server/Outbox") {
  /**
   * The Outbox on the server's database. The sender is the `OutboxSender` in context when one is
   * provided, else the dev sender in a dev server and "none" (pending) otherwise.
   */
  static readonly layer = Layer.effect(
    Outbox,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const provided = yield* Effect.serviceOption(OutboxSender)
      const sender = provided._tag === "Some" ? provided.value : config.dev ? OutboxSender.dev : OutboxSender.none
      return yield* makeOutbox(sender)
    }),
  )
}

/** The outbox module's table (`outbox_` prefix). */
export const outboxMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "outbox messages",
    up: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`create table outbox_messages (
        id bigserial primary key,
        channel text not null check (channel in ('email', 'telegram')),
        recipient text not null,
        subject text not null,
        body text not null,
        status text not null check (status in ('pending', 'sent', 'failed')),
        created_at timestamptz not null,
        sent_at timestamptz
      )`)
      yield* sql.unsafe(`create index outbox_messages_recipient on outbox_messages (lower(recipient), id desc)`)
      yield* sql.unsafe(`create index outbox_messages_pending on outbox_messages (id) where status = 'pending'`)
    }),
  },
]
