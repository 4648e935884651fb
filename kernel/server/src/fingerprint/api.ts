/**
 * The device fingerprint's contract (docs/decisions/0390): `POST /api/users/me/fingerprint`,
 * authenticated, the body `application/octet-stream` (the payload's UTF-8 JSON XORed with the
 * caller's user id, `@wallet/kernel/fingerprint`), at most `FINGERPRINT_MAX_BYTES`; answers
 * `{ status: "ok" }`. A body that does not decode under the caller's id, or whose JSON fails
 * `FingerprintPayloadJson`, is a 400 `InvalidRequest`; a larger body a 413 `PayloadTooLarge`.
 * Dev only: `GET /api/dev/fingerprints` (+ `.html`), the latest stored fingerprints.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, authenticated, InvalidRequest, PayloadTooLarge, userTextProblem, validated } from "@wallet/kernel/api"
import { FINGERPRINT_COMPONENTS, FINGERPRINT_MEDIA_TYPE, FINGERPRINT_PATH } from "@wallet/kernel/fingerprint"

export const MAX_COMPONENT_DEPTH = 6
export const MAX_COMPONENT_ITEMS = 500
export const MAX_COMPONENT_STRING = 2000
export const MAX_COMPONENT_KEY = 100

/** Why a component's value cannot be stored, or undefined: bounded JSON, safe text. */
export const componentProblem = (value: unknown): string | undefined => {
  const walk = (node: unknown, depth: number): string | undefined => {
    if (node === null || typeof node === "boolean") return undefined
    if (typeof node === "number") return Number.isFinite(node) ? undefined : "numbers must be finite"
    if (typeof node === "string")
      return node.length > MAX_COMPONENT_STRING ? `strings must be at most ${MAX_COMPONENT_STRING} characters` : userTextProblem(node)
    if (depth >= MAX_COMPONENT_DEPTH) return `values nest at most ${MAX_COMPONENT_DEPTH} levels deep`
    const entries = Array.isArray(node) ? node.map((item, i) => [String(i), item] as const) : typeof node === "object" ? Object.entries(node) : undefined
    if (entries === undefined) return "only JSON values"
    if (entries.length > MAX_COMPONENT_ITEMS) return `objects and arrays hold at most ${MAX_COMPONENT_ITEMS} entries`
    for (const [key, inner] of entries) {
      if (key.length > MAX_COMPONENT_KEY) return `keys are at most ${MAX_COMPONENT_KEY} characters`
      const problem = userTextProblem(key) ?? walk(inner, depth + 1)
      if (problem) return problem
    }
    return undefined
  }
  return walk(value, 0)
}

const Component = Schema.Unknown.check(Schema.makeFilter<unknown>((value) => componentProblem(value), { expected: "a bounded JSON value" }))

/** The spec's components (ThumbmarkJS names), each optional (a component that failed is left out); no others. */
export const FingerprintComponents = Schema.Struct(
  Object.fromEntries(FINGERPRINT_COMPONENTS.map((name) => [name, Schema.optionalKey(Component)])) as {
    readonly [K in (typeof FINGERPRINT_COMPONENTS)[number]]: Schema.optionalKey<typeof Component>
  },
)

/** The library's hashes: 32 lower-case hex digits (stored as sent: nothing else fits). */
const Hash = Schema.String.check(Schema.isPattern(/^[0-9a-f]{32}$/))
const LibraryVersion = Schema.String.check(Schema.isPattern(/^\d{1,4}\.\d{1,4}\.\d{1,4}(?:-[0-9a-z.]{1,16})?$/))
/** 36 characters, uuid v4. */
export const DeviceUuid = Schema.String.check(Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/))

/** Spec 3 §3 "Fingerprint payload": what the body decodes to. */
export const FingerprintPayloadJson = Schema.Struct({
  fingerprint: Schema.Struct({ thumbmark: Hash, version: LibraryVersion, components: FingerprintComponents }),
  deviceUuid: DeviceUuid,
  visitorId: Hash,
})
export type FingerprintPayloadJson = typeof FingerprintPayloadJson.Type

/** The body as sent: XOR-obfuscated bytes. */
export const FingerprintBody = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: FINGERPRINT_MEDIA_TYPE }))

export const FingerprintGroup = authenticated(
  HttpApiGroup.make("fingerprint").add(
    HttpApiEndpoint.post("send", FINGERPRINT_PATH, {
      payload: FingerprintBody,
      success: Schema.Struct({ status: Schema.Literal("ok") }),
      error: [InvalidRequest, PayloadTooLarge],
    }),
  ),
)

export const StoredFingerprintJson = Schema.Struct({
  id: Schema.Int,
  userId: Schema.String,
  deviceUuid: Schema.String,
  visitorId: Schema.String,
  thumbmark: Schema.String,
  version: Schema.String,
  components: Schema.Unknown,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  /** How many times this device sent its fingerprint for this user. */
  sends: Schema.Int,
})
export type StoredFingerprintJson = typeof StoredFingerprintJson.Type

const LimitFromString = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 500 }))
export const DevFingerprintsQuery = Schema.Struct({
  limit: Schema.optionalKey(LimitFromString),
  userId: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{1,20}$/))),
})

export const FingerprintDevGroup = validated(
  HttpApiGroup.make("devFingerprints").add(
    HttpApiEndpoint.get("list", "/api/dev/fingerprints", {
      query: DevFingerprintsQuery,
      success: Schema.Struct({ fingerprints: Schema.Array(StoredFingerprintJson) }),
    }),
    HttpApiEndpoint.get("page", "/api/dev/fingerprints.html", {
      query: DevFingerprintsQuery,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" })),
    }),
  ),
)

export const FingerprintApi = HttpApi.make(ApiId).add(FingerprintGroup)
export const FingerprintDevApi = HttpApi.make(ApiId).add(FingerprintDevGroup)
