/**
 * The analytics gateway's contract (docs/decisions/0350): `POST /api/analytics/events` (a batch of
 * one stream) and `POST /api/analytics/meters`, unauthenticated (a beacon cannot send headers),
 * limited per client address; dev only: `GET /api/dev/analytics` (+ `.html`), the latest events.
 *
 * Limits, all refused with the kernel's 400 `InvalidRequest` naming the field:
 * - at most `MAX_BATCH_EVENTS` events / meters per batch (and the server's body limit, 1 MiB);
 * - names `^[a-z][a-z0-9_.-]{0,63}$`, ids (clientId, traceId, idempotencyKey) UUIDs, version a semver;
 * - `eventProperties`: a JSON object, nesting at most `MAX_DEPTH` deep, at most `MAX_KEYS` keys per
 *   object and items per array, keys `PROPERTY_KEY` (identifiers up to 40 characters), strings at most `MAX_STRING` characters,
 *   numbers finite, and at most `MAX_PROPERTIES_CHARS` characters of JSON in all.
 * Bodies are read as `application/json` or `text/plain` (JSON text: what a cross-origin beacon sends).
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, RateLimitedResponse, userText, userTextProblem, validated } from "@wallet/kernel/api"

export const MAX_BATCH_EVENTS = 100
export const MAX_DEPTH = 4
export const MAX_KEYS = 64
export const MAX_STRING = 1000
export const MAX_PROPERTIES_CHARS = 8000
/** Property keys are short identifiers (a key is stored as sent, after the scrubber). */
export const PROPERTY_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/

/** Why a property value cannot be stored, or undefined. */
export const propertiesProblem = (value: unknown): string | undefined => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "eventProperties must be a JSON object"
  const walk = (node: unknown, depth: number): string | undefined => {
    if (node === null || typeof node === "boolean") return undefined
    if (typeof node === "number") return Number.isFinite(node) ? undefined : "numbers must be finite"
    if (typeof node === "string") {
      if (node.length > MAX_STRING) return `strings must be at most ${MAX_STRING} characters`
      return userTextProblem(node)
    }
    if (depth >= MAX_DEPTH) return `values nest at most ${MAX_DEPTH} levels deep`
    if (Array.isArray(node)) {
      if (node.length > MAX_KEYS) return `arrays hold at most ${MAX_KEYS} items`
      for (const item of node) {
        const problem = walk(item, depth + 1)
        if (problem) return problem
      }
      return undefined
    }
    if (typeof node === "object") {
      const entries = Object.entries(node)
      if (entries.length > MAX_KEYS) return `objects hold at most ${MAX_KEYS} keys`
      for (const [key, inner] of entries) {
        if (!PROPERTY_KEY.test(key)) return `keys match ${PROPERTY_KEY.source}`
        const problem = walk(inner, depth + 1)
        if (problem) return problem
      }
      return undefined
    }
    return "only JSON values"
  }
  const problem = walk(value, 0)
  if (problem) return problem
  return JSON.stringify(value).length > MAX_PROPERTIES_CHARS ? `eventProperties must be at most ${MAX_PROPERTIES_CHARS} characters of JSON` : undefined
}

const EventProperties = Schema.Record(Schema.String, Schema.Unknown).check(
  Schema.makeFilter<Record<string, unknown>>((value) => propertiesProblem(value), { expected: "a small JSON object of analytics properties" }),
)

const EventName = Schema.String.check(Schema.isPattern(/^[a-z][a-z0-9_.-]{0,63}$/))
/** Ids are UUIDs (a free-form id could carry a secret past the scrubber: ids are stored as sent). */
const Id = Schema.String.check(Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i))
const IsoTime = userText({ maxLength: 40 }).check(Schema.makeFilter<string>((text) => (Number.isNaN(Date.parse(text)) ? "an ISO 8601 time" : undefined)))
export const AnalyticsStream = Schema.Literals(["custodial", "scw"])
/** The app's version: semver with a short pre-release tag (free text could carry a secret). */
const Version = Schema.String.check(Schema.isPattern(/^\d{1,4}\.\d{1,4}\.\d{1,4}(?:-[0-9a-z.]{1,16})?$/))

export const AnalyticsEventJson = Schema.Struct({
  clientId: Id,
  traceId: Id,
  idempotencyKey: Id,
  clientTime: IsoTime,
  version: Version,
  userId: Schema.NullOr(Schema.String.check(Schema.isPattern(/^\d{1,20}$/))),
  name: EventName,
  stream: AnalyticsStream,
  eventProperties: EventProperties,
  isPostoponed: Schema.optionalKey(Schema.Boolean),
})
export type AnalyticsEventJson = typeof AnalyticsEventJson.Type

export const EventsBatch = Schema.Struct({
  stream: AnalyticsStream,
  events: Schema.Array(AnalyticsEventJson).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_BATCH_EVENTS)),
})
export type EventsBatch = typeof EventsBatch.Type

export const MeterJson = Schema.Struct({
  name: EventName,
  value: Schema.Finite,
  clientId: Id,
  clientTime: IsoTime,
  version: Version,
})
export const MetersBatch = Schema.Struct({
  meters: Schema.Array(MeterJson).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_BATCH_EVENTS)),
})
export type MetersBatch = typeof MetersBatch.Type

const Accepted = Schema.Struct({ stored: Schema.Int, duplicates: Schema.Int })

export const AnalyticsGroup = validated(
  HttpApiGroup.make("analytics").add(
    HttpApiEndpoint.post("events", "/api/analytics/events", {
      payload: [EventsBatch, Schema.fromJsonString(EventsBatch).pipe(HttpApiSchema.asText())],
      success: Accepted,
      error: RateLimitedResponse,
    }),
    HttpApiEndpoint.post("meters", "/api/analytics/meters", {
      payload: [MetersBatch, Schema.fromJsonString(MetersBatch).pipe(HttpApiSchema.asText())],
      success: Accepted,
      error: RateLimitedResponse,
    }),
  ),
)

export const StoredEventJson = Schema.Struct({
  id: Schema.Int,
  idempotencyKey: Schema.String,
  stream: Schema.String,
  name: Schema.String,
  clientId: Schema.String,
  traceId: Schema.String,
  userId: Schema.NullOr(Schema.String),
  clientTime: Schema.String,
  receivedAt: Schema.String,
  version: Schema.String,
  isPostponed: Schema.Boolean,
  eventProperties: Schema.Unknown,
})
export type StoredEventJson = typeof StoredEventJson.Type

const LimitFromString = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 500 }))
export const DevEventsQuery = Schema.Struct({
  /** 1..500, default 100. */
  limit: Schema.optionalKey(LimitFromString),
  /** Only this user's events. */
  userId: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{1,20}$/))),
})

export const AnalyticsDevGroup = validated(
  HttpApiGroup.make("devAnalytics").add(
    HttpApiEndpoint.get("list", "/api/dev/analytics", {
      query: DevEventsQuery,
      success: Schema.Struct({
        events: Schema.Array(StoredEventJson),
        meters: Schema.Array(Schema.Struct({ id: Schema.Int, name: Schema.String, value: Schema.Number, clientTime: Schema.String })),
      }),
    }),
    HttpApiEndpoint.get("page", "/api/dev/analytics.html", {
      query: DevEventsQuery,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" })),
    }),
  ),
)

export const AnalyticsApi = HttpApi.make(ApiId).add(AnalyticsGroup)
export const AnalyticsDevApi = HttpApi.make(ApiId).add(AnalyticsDevGroup)
