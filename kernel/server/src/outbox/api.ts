/**
 * Dev-only outbox endpoints (served only by a dev server): what the server "sent", so a newcomer
 * can read an email code without a mail server. Not part of the mini-app's contract.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, userText, validated } from "@wallet/kernel/api"

export const OutboxMessageJson = Schema.Struct({
  id: Schema.Int,
  channel: Schema.Literals(["email", "telegram"]),
  recipient: Schema.String,
  subject: Schema.String,
  body: Schema.String,
  status: Schema.Literals(["pending", "sent", "failed"]),
  /** ISO 8601 */
  created_at: Schema.String,
  sent_at: Schema.NullOr(Schema.String),
})
export type OutboxMessageJson = typeof OutboxMessageJson.Type

const IntFromString = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))

export const OutboxQuery = Schema.Struct({
  /** Only messages to this address / chat (case-insensitive). */
  recipient: Schema.optionalKey(userText({ maxLength: 320 })),
  /** 1..200, default 50. */
  limit: Schema.optionalKey(IntFromString),
})

export const OutboxDevGroup = validated(
  HttpApiGroup.make("devOutbox").add(
    HttpApiEndpoint.get("list", "/api/dev/outbox", {
      query: OutboxQuery,
      success: Schema.Struct({ messages: Schema.Array(OutboxMessageJson) }),
    }),
    HttpApiEndpoint.get("page", "/api/dev/outbox.html", {
      query: OutboxQuery,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" })),
    }),
  ),
)

export const OutboxDevApi = HttpApi.make(ApiId).add(OutboxDevGroup)
