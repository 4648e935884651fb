/**
 * The error bodies every API endpoint can answer with. Each carries a machine-readable
 * `code` (spec 1 section 8 maps them to error screens) and a human `message`.
 * Browser-safe: imports only `effect`.
 */
import { Schema } from "effect"

/** Why a request was not authenticated (HTTP 401). */
export const UnauthorizedCode = Schema.Literals([
  "init_data_missing",
  "init_data_invalid",
  "init_data_expired",
  "init_data_replayed",
  "token_missing",
  "token_invalid",
  "token_expired",
  "session_revoked",
  "refresh_token_invalid",
  "refresh_token_expired",
  "refresh_token_reused",
  "user_not_found",
])
export type UnauthorizedCode = typeof UnauthorizedCode.Type

/** Extra facts for the client's error mapping (spec 1 section 8). */
export const ErrorDetail = Schema.Struct({
  /** e.g. "attach_receiver_invalid" for the attach-private-chats error page. */
  reason: Schema.optionalKey(Schema.String),
  /** When present with user_not_found the client follows it instead of showing init_failed. */
  redirect_link: Schema.optionalKey(Schema.String),
})
export type ErrorDetail = typeof ErrorDetail.Type

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { code: UnauthorizedCode, message: Schema.String, detail: Schema.optionalKey(ErrorDetail) },
  { httpApiStatus: 401, description: "Not authenticated; `code` says why" },
) {}

/** Why an authenticated request is refused (HTTP 403). */
export const ForbiddenCode = Schema.Literals(["content_unavailable", "online_user_limit_exceeded", "permission_denied"])
export type ForbiddenCode = typeof ForbiddenCode.Type

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { code: ForbiddenCode, message: Schema.String, permission: Schema.optionalKey(Schema.String) },
  { httpApiStatus: 403, description: "Authenticated but refused; `code` says why" },
) {}

export const NotFoundCode = Schema.Literals(["user_not_found", "not_found"])
export type NotFoundCode = typeof NotFoundCode.Type

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { code: NotFoundCode, message: Schema.String },
  { httpApiStatus: 404, description: "The resource does not exist (yet)" },
) {}

/** One schema issue: `path` starts with the request slot (payload, query, params, headers). */
export const RequestIssue = Schema.Struct({
  path: Schema.Array(Schema.Union([Schema.String, Schema.Int])),
  message: Schema.String,
})
export type RequestIssue = typeof RequestIssue.Type

/** A request whose body, query, params or headers fail their Schema (HTTP 400). */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()(
  "InvalidRequest",
  { code: Schema.Literal("invalid_request"), message: Schema.String, issues: Schema.Array(RequestIssue) },
  { httpApiStatus: 400, description: "The request failed validation; `issues` name the fields" },
) {}

/** The request body is above the server's limit (HTTP 413); `limitBytes` is the limit. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { code: Schema.Literal("payload_too_large"), message: Schema.String, limitBytes: Schema.optionalKey(Schema.Int) },
  { httpApiStatus: 413, description: "The request body is larger than the server accepts" },
) {}

/** The body's content type is not one the endpoint reads (HTTP 415); send `application/json`. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  { code: Schema.Literal("unsupported_media_type"), message: Schema.String },
  { httpApiStatus: 415, description: "The request body has a content type the endpoint does not read" },
) {}

/**
 * The server failed (HTTP 500): nothing about the cause, only the request id to quote (the
 * server logged the cause under it). Every response carries the id in `x-request-id`.
 */
export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  { code: Schema.Literal("internal_error"), message: Schema.String, requestId: Schema.String },
  { httpApiStatus: 500, description: "The server failed; quote `requestId`" },
) {}

/** The server is shutting down or cannot serve now (HTTP 503); retry later. */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()(
  "ServiceUnavailable",
  { code: Schema.Literal("service_unavailable"), message: Schema.String, requestId: Schema.String },
  { httpApiStatus: 503, description: "The server cannot answer now; retry later" },
) {}
