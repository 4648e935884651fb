/** Handlers of the dev outbox endpoints. */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { OutboxDevApi, type OutboxMessageJson } from "./api.ts"
import { Outbox, type OutboxMessage } from "./Outbox.ts"
import { renderOutboxPage } from "./page.ts"

const toJson = (message: OutboxMessage): OutboxMessageJson => ({
  id: message.id,
  channel: message.channel,
  recipient: message.recipient,
  subject: message.subject,
  body: message.body,
  status: message.status,
  created_at: message.createdAt.toISOString(),
  sent_at: message.sentAt?.toISOString() ?? null,
})

export const outboxDevHandlers = HttpApiBuilder.group(OutboxDevApi, "devOutbox", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function* () {
        const outbox = yield* Outbox
        const messages = yield* Effect.orDie(outbox.list({ ...query, status: "sent" }))
        return { messages: messages.map(toJson) }
      }),
    )
    .handle("page", ({ query }) =>
      Effect.gen(function* () {
        const outbox = yield* Outbox
        const messages = yield* Effect.orDie(outbox.list({ ...query, status: "sent" }))
        return renderOutboxPage(messages, query.recipient)
      }),
    ),
).pipe(Layer.provide(Outbox.layer))
