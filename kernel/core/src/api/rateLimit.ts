/**
 * The rate-limit error every limited endpoint answers with (docs/decisions/0206): HTTP 429, the
 * API's JSON error shape plus `retryAfterSeconds`, and the same seconds in a `Retry-After` header.
 * Browser-safe: imports only `effect`.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** Too many requests of one kind from one user or one address; retry after `retryAfterSeconds`. */
export class RateLimited extends Schema.TaggedError<RateLimited>()(
  "RateLimited",
  { code: Schema.Literal("rate_limit_exceeded"), message: Schema.String, retryAfterSeconds: Schema.Int },
  { httpApiStatus: 429, description: "Too many requests; retry after `retryAfterSeconds` (also the `Retry-After` header)" },
) {}

const RateLimitedBody = Schema.Struct({
  _tag: Schema.tag("RateLimited"),
  code: Schema.Literal("rate_limit_exceeded"),
  message: Schema.String,
  retryAfterSeconds: Schema.Int,
}).annotate({ httpApiStatus: 429, description: "Too many requests; retry after `retryAfterSeconds` (also the `Retry-After` header)" })

/**
 * `RateLimited` as endpoints declare it (`error: [..., RateLimitedResponse]`): handlers fail with
 * `RateLimited`; the response is its JSON body with status 429 and `Retry-After: <seconds>`.
 */
export const RateLimitedResponse = RateLimited.pipe(
  HttpApiSchema.encodeToWithHeaders(
    // Optional when decoding: a cross-origin client may not see the header; the body has the same seconds.
    { body: RateLimitedBody, headers: { "retry-after": Schema.optionalKey(Schema.String) } },
    {
      decode: ({ body }) => new RateLimited({ code: body.code, message: body.message, retryAfterSeconds: body.retryAfterSeconds }),
      encode: (error) => ({
        body: { _tag: "RateLimited" as const, code: error.code, message: error.message, retryAfterSeconds: error.retryAfterSeconds },
        headers: { "retry-after": String(error.retryAfterSeconds) },
      }),
    },
  ),
)
