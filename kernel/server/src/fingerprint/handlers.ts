/** Handlers of the device fingerprint endpoint and its dev page (docs/decisions/0390). */
import { Effect, Layer, Schema } from "effect"
import * as SchemaIssue from "effect/SchemaIssue"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession, InvalidRequest, PayloadTooLarge, type RequestIssue } from "@wallet/kernel/api"
import { decodeFingerprintBody, FINGERPRINT_MAX_BYTES } from "@wallet/kernel/fingerprint"
import { FingerprintApi, FingerprintDevApi, FingerprintPayloadJson } from "./api.ts"
import { renderFingerprintPage } from "./page.ts"
import { FingerprintStore } from "./store.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()
const decodePayload = Schema.decodeUnknownEffect(FingerprintPayloadJson)

const invalid = (message: string, issues: ReadonlyArray<RequestIssue> = [{ path: ["payload"], message }]) =>
  new InvalidRequest({ code: "invalid_request", message: `Invalid request: ${message}`, issues })

/** The body decoded under the caller's user id and checked, or the 400 / 413 the client sees. */
export const readFingerprint = (body: Uint8Array, userId: number) =>
  Effect.gen(function* () {
    if (body.length > FINGERPRINT_MAX_BYTES) {
      return yield* new PayloadTooLarge({
        code: "payload_too_large",
        message: `The fingerprint body is larger than ${FINGERPRINT_MAX_BYTES} bytes`,
        limitBytes: FINGERPRINT_MAX_BYTES,
      })
    }
    if (body.length === 0) return yield* invalid("the body is empty")
    const json = yield* Effect.try({
      try: () => decodeFingerprintBody(body, userId),
      catch: () => invalid("the body is not a fingerprint obfuscated with this user's id"),
    })
    return yield* decodePayload(json, { onExcessProperty: "error", errors: "all" }).pipe(
      Effect.mapError((error) => {
        const issues = formatIssues(error.issue).issues.map((issue) => ({
          path: [
            "payload",
            ...(issue.path ?? []).map((segment) => {
              const key = typeof segment === "object" && segment !== null && "key" in segment ? segment.key : segment
              return typeof key === "number" ? key : String(key)
            }),
          ],
          message: issue.message,
        }))
        return invalid(issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "), issues)
      }),
    )
  })

export const fingerprintHandlers = HttpApiBuilder.group(FingerprintApi, "fingerprint", (handlers) =>
  handlers.handle("send", ({ payload }) =>
    Effect.gen(function* () {
      const session = yield* CurrentSession
      const fingerprint = yield* readFingerprint(payload, session.userId)
      const store = yield* FingerprintStore
      yield* Effect.orDie(store.save(session.userId, fingerprint))
      return { status: "ok" as const }
    }),
  ),
).pipe(Layer.provide(FingerprintStore.layer))

export const fingerprintDevHandlers = HttpApiBuilder.group(FingerprintDevApi, "devFingerprints", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function* () {
        const store = yield* FingerprintStore
        const fingerprints = yield* Effect.orDie(store.latest({ limit: query.limit ?? 100, ...(query.userId ? { userId: query.userId } : {}) }))
        return { fingerprints }
      }),
    )
    .handle("page", ({ query }) =>
      Effect.gen(function* () {
        const store = yield* FingerprintStore
        return renderFingerprintPage(yield* Effect.orDie(store.latest({ limit: query.limit ?? 100, ...(query.userId ? { userId: query.userId } : {}) })))
      }),
    ),
).pipe(Layer.provide(FingerprintStore.layer))
