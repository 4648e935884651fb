/**
 * One error shape for every answer of the JSON API, a request id on every answer, and every 5xx
 * logged (docs/decisions/0205).
 *
 * effect/http answers some refusals before or outside the HttpApi handlers, each in its own form:
 * a body above `MaxBodySize` is an empty 413, a content type the endpoint does not read is a 415
 * text, a body that cannot be read an empty 400, a defect an empty 500, a server going down an
 * empty 503. This global router middleware registers a pre-response handler, which sees the final
 * response of every request whatever produced it, and for `/api` paths replaces any 4xx that is not
 * JSON and every 5xx with the API's error shape (`{ _tag, code, message, ... }`). A 5xx body says
 * nothing about its cause, only the request id; the cause goes to the log with the method, the
 * path (without its query) and the request id, by default (not only with `logRequests`). Request
 * bodies and headers are never logged: they carry tokens and passcodes.
 *
 * Bodies declared (Content-Length) above the limit are refused before routing, so an endpoint
 * without a payload does not quietly accept 2 MB either. The limit is per request: the server's,
 * or for a declared upload route (exactly its method and path) that route's own. The same limit is
 * set as the request's `MaxBodySize`, so a body sent without a length (chunked) cannot be read past
 * it either.
 */
import { randomUUID } from "node:crypto"
import { ByteSize, Cause, Effect } from "effect"
import { HttpEffect, HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { UploadRoute } from "../plugin.ts"

export const REQUEST_ID_HEADER = "x-request-id"

/** An incoming request id is kept only when it is a short token of safe characters. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/

/** The incoming `x-request-id` when it is safe to echo and log, else a new one. */
export const requestIdFor = (incoming: string | undefined): string => (incoming !== undefined && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID())

const API_PREFIX = "/api"
const isApiPath = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`)
const pathOf = (url: string) => {
  const end = url.search(/[?#]/)
  return end < 0 ? url : url.slice(0, end)
}

const contentTypeOf = (response: HttpServerResponse.HttpServerResponse): string => {
  const header = response.headers["content-type"]
  if (header !== undefined) return header
  const body = response.body as { readonly contentType?: string | undefined }
  return body.contentType ?? ""
}
const isJson = (response: HttpServerResponse.HttpServerResponse) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentTypeOf(response))

const mib = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`)

/** The API's error body for a status the framework answered without one. */
export const errorBodyFor = (status: number, requestId: string, maxBodyBytes: number): Record<string, unknown> => {
  switch (status) {
    case 400:
      return { _tag: "InvalidRequest", code: "invalid_request", message: "The request could not be read", issues: [] }
    case 404:
      return { _tag: "NotFound", code: "not_found", message: "No such API endpoint" }
    case 405:
      return { _tag: "MethodNotAllowed", code: "method_not_allowed", message: "This method is not allowed here" }
    case 413:
      return { _tag: "PayloadTooLarge", code: "payload_too_large", message: `The request body is larger than ${mib(maxBodyBytes)}`, limitBytes: maxBodyBytes }
    case 415:
      return { _tag: "UnsupportedMediaType", code: "unsupported_media_type", message: "Send the request body as application/json" }
    case 503:
      return { _tag: "ServiceUnavailable", code: "service_unavailable", message: "The server cannot answer now; retry later", requestId }
    default:
      return status >= 500
        ? { _tag: "InternalError", code: "internal_error", message: "The server failed; quote the request id when you report it", requestId }
        : { _tag: "HttpError", code: "http_error", message: `The request was refused (HTTP ${status})` }
  }
}

/** Keeps the response's own headers (e.g. `connection: close` after an unread body) but its body. */
const reshape = (response: HttpServerResponse.HttpServerResponse, body: Record<string, unknown>) => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (name !== "content-type" && name !== "content-length") headers[name] = value
  }
  return HttpServerResponse.jsonUnsafe(body, { status: response.status, headers })
}

const declaredLength = (request: HttpServerRequest.HttpServerRequest): number => {
  const raw = request.headers["content-length"]
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return 0
  return Number(raw.trim())
}

/** The status a failure becomes (what effect/http would answer), without running it. */
const statusOfCause = (cause: Cause.Cause<unknown>) => Effect.map(HttpServerError.causeResponse(cause), ([response]) => response.status)

const logFailure = (status: number, cause: Cause.Cause<unknown> | undefined) =>
  cause === undefined ? Effect.logError(`HTTP ${status}`) : Effect.logError(`HTTP ${status}`, cause)

export interface ApiErrorsOptions {
  /** The server's body limit, named in the 413 answer. */
  readonly maxBodyBytes: number
  /** Routes with a limit of their own (the modules' `uploads`). */
  readonly uploads?: ReadonlyArray<UploadRoute>
}

/** The body limit of a request: its upload route's, else the server's. */
const limitFor = (uploads: ReadonlyMap<string, number>, fallback: number, method: string, path: string) => uploads.get(`${method} ${path}`) ?? fallback

/**
 * The global middleware (see the module header). It also sets each request's `MaxBodySize` (the
 * server's limit, or its upload route's).
 */
export const apiErrorsLayer = (options: ApiErrorsOptions) => {
  const uploads = new Map<string, number>()
  for (const upload of options.uploads ?? []) {
    const key = `${upload.method} ${upload.path}`
    // Two modules declaring one route: the smaller limit holds.
    uploads.set(key, Math.min(uploads.get(key) ?? upload.maxBytes, upload.maxBytes))
  }
  return HttpRouter.middleware(
    (app) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const requestId = requestIdFor(request.headers[REQUEST_ID_HEADER])
        const api = isApiPath(request.url)
        const path = pathOf(request.url)
        const maxBodyBytes = limitFor(uploads, options.maxBodyBytes, request.method, path)
        const annotations = { requestId, method: request.method, path }
        let logged = false
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.gen(function* () {
            let out = response
            if (response.status >= 500 && !logged) {
              logged = true
              yield* logFailure(response.status, undefined).pipe(Effect.annotateLogs({ ...annotations, status: response.status }))
            }
            if (api && response.status >= 400 && (response.status >= 500 || !isJson(response))) {
              out = reshape(response, errorBodyFor(response.status, requestId, maxBodyBytes))
            }
            return HttpServerResponse.setHeader(out, REQUEST_ID_HEADER, requestId)
          }),
        )
        if (api && declaredLength(request) > maxBodyBytes) {
          // Not read: the connection closes after the answer instead of draining the body.
          return HttpServerResponse.empty({ status: 413, headers: { connection: "close" } })
        }
        return yield* app.pipe(
          Effect.tapCause((cause) =>
            Effect.gen(function* () {
              const status = yield* statusOfCause(cause)
              // 499: the client went away; nothing failed on our side.
              if (status < 500 || logged) return
              logged = true
              yield* logFailure(status, cause).pipe(Effect.annotateLogs({ ...annotations, status }))
            }),
          ),
          Effect.annotateLogs({ requestId }),
          // Unbounded by default in effect/http: cap what this request may make us buffer.
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
        )
      }),
    { global: true },
  )
}
