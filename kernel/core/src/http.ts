import { Context, Data, Duration, Effect, Layer, Option } from "effect"
import { FetchHttpClient, HttpClient, HttpClientError, HttpClientRequest, type HttpClientResponse } from "effect/http"

/** Spec 1 §8: default retry is 2 times on statuses 429, 500, 503, 504 or timeouts. */
export const HTTP_RETRY_STATUSES: ReadonlyArray<number> = [429, 500, 503, 504]
export const HTTP_MAX_RETRIES = 2
/** Spec 1 §8: delay 1 s for the first retry, then min(2^(n-1) * 5 s, 30 s). */
export const httpRetryDelayMs = (retry: number): number => (retry <= 1 ? 1000 : Math.min(2 ** (retry - 1) * 5000, 30_000))
export const HTTP_DEFAULT_TIMEOUT_MS = 30_000

export type HttpStatusClass = "success" | "redirect" | "client-error" | "server-error"
/** Spec 1 §7: 100-299 success, 400-499 client error, 500+ server error. */
export const httpStatusClass = (status: number): HttpStatusClass =>
  status < 300 ? "success" : status < 400 ? "redirect" : status < 500 ? "client-error" : "server-error"

export type HttpErrorCode = "ERR_NETWORK" | "ECONNABORTED" | "ERR_BAD_RESPONSE" | "UNKNOWN"

/** The one error the client's calls fail with (spec 1 §8 error classes). */
export class HttpError extends Data.TaggedError("HttpError")<{
  readonly code: HttpErrorCode
  readonly message: string
  readonly status?: number
  readonly statusClass?: HttpStatusClass
  /** The decoded JSON error body, when the server sent one (e.g. `{ code: "user_not_found" }`). */
  readonly body?: unknown
  readonly timedOut?: boolean
}> {
  /** The server's error code in the body, if any. */
  get serverCode(): string | undefined {
    const body = this.body as { code?: unknown; error_code?: unknown } | undefined
    const code = body?.code ?? body?.error_code
    return typeof code === "string" ? code : undefined
  }
}

/** A 401 survived the refresh: the user must authenticate again. */
export class ReauthenticationRequired extends Data.TaggedError("ReauthenticationRequired")<{ readonly reason: string }> {}

/** What the Http policy needs from the session (implemented by the kernel's Auth client service). */
export class AuthTokens extends Context.Service<
  AuthTokens,
  {
    readonly accessToken: Effect.Effect<Option.Option<string>>
    readonly markExpired: Effect.Effect<void>
    readonly refresh: Effect.Effect<void, ReauthenticationRequired>
    readonly reauthenticate: (reason: string) => Effect.Effect<void>
  }
>()("wallet/AuthTokens") {
  /** No session: calls go out without a token and a 401 is final. */
  static readonly none = Layer.succeed(AuthTokens, {
    accessToken: Effect.succeed(Option.none()),
    markExpired: Effect.void,
    refresh: Effect.fail(new ReauthenticationRequired({ reason: "No refresh token" })),
    reauthenticate: () => Effect.void,
  })
}

const readBody = (response: HttpClientResponse.HttpClientResponse) =>
  response.json.pipe(
    Effect.map(Option.some),
    Effect.catch(() => Effect.succeed(Option.none<unknown>())),
  )

const isAbort = (error: HttpClientError.HttpClientError) => {
  const cause = "cause" in error.reason ? error.reason.cause : undefined
  return cause instanceof Error && (cause.name === "AbortError" || /abort/i.test(cause.message))
}

/** Maps a transport or decoding failure of effect/http to the spec's error classes. */
export const toHttpError = (error: unknown): HttpError => {
  if (error instanceof HttpError) return error
  if (HttpClientError.isHttpClientError(error)) {
    switch (error.reason._tag) {
      case "TransportError":
        return isAbort(error)
          ? new HttpError({ code: "ECONNABORTED", message: "Request aborted" })
          : new HttpError({ code: "ERR_NETWORK", message: "Network Error" })
      case "DecodeError":
      case "EmptyBodyError":
        return new HttpError({ code: "ERR_BAD_RESPONSE", message: "Bad response", status: error.response?.status })
      default: {
        const status = error.response?.status
        return new HttpError({ code: "UNKNOWN", message: `Unknown Error: ${status ?? "none"}`, status, statusClass: status ? httpStatusClass(status) : undefined })
      }
    }
  }
  return new HttpError({ code: "UNKNOWN", message: `Unknown Error: ${String(error)}` })
}

const statusError = (status: number, body: Option.Option<unknown>) =>
  new HttpError({ code: "UNKNOWN", message: `Unknown Error: ${status}`, status, statusClass: httpStatusClass(status), body: Option.getOrUndefined(body) })

const isRetryable = (error: HttpError) =>
  error.timedOut === true || (error.status !== undefined && HTTP_RETRY_STATUSES.includes(error.status))

export interface HttpPolicyOptions {
  readonly timeoutMs?: number
}

/**
 * The spec's HTTP policy as an effect/http client transformer: bearer token, timeout, the retry
 * schedule, non-2xx as `HttpError`, and on a 401 mark-expired + refresh + one retry; a second 401
 * forces re-authentication. Aborts are never retried.
 */
export const withHttpPolicy =
  (auth: AuthTokens["Service"], options: HttpPolicyOptions = {}) =>
  (client: HttpClient.HttpClient): HttpClient.HttpClient => {
    const timeout = Duration.millis(options.timeoutMs ?? HTTP_DEFAULT_TIMEOUT_MS)
    const once = (request: HttpClientRequest.HttpClientRequest) =>
      Effect.gen(function* () {
        const token = yield* auth.accessToken
        const authorised = Option.isSome(token) ? HttpClientRequest.bearerToken(request, token.value) : request
        const response = yield* client.execute(authorised).pipe(
          Effect.timeoutOrElse({
            duration: timeout,
            orElse: () => Effect.fail(new HttpError({ code: "ECONNABORTED", message: `Request timed out after ${Duration.toMillis(timeout)} ms`, timedOut: true })),
          }),
          Effect.mapError(toHttpError),
        )
        if (response.status >= 300) return yield* Effect.fail(statusError(response.status, yield* readBody(response)))
        return response
      })
    const withRetries = (request: HttpClientRequest.HttpClientRequest, retry: number): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpError> =>
      once(request).pipe(
        Effect.catch((error: HttpError) =>
          retry < HTTP_MAX_RETRIES && isRetryable(error)
            ? Effect.sleep(Duration.millis(httpRetryDelayMs(retry + 1))).pipe(Effect.andThen(withRetries(request, retry + 1)))
            : Effect.fail(error),
        ),
      )
    return HttpClient.make((request) =>
      withRetries(request, 0).pipe(
        Effect.catch((error: HttpError) => {
          if (error.status !== 401) return Effect.fail(error)
          return auth.markExpired.pipe(
            Effect.andThen(auth.refresh),
            Effect.andThen(withRetries(request, 0)),
            Effect.catch((second: HttpError | ReauthenticationRequired) =>
              second._tag === "ReauthenticationRequired" || second.status === 401
                ? auth.reauthenticate(second._tag === "ReauthenticationRequired" ? second.reason : "second 401").pipe(Effect.andThen(Effect.fail(error)))
                : Effect.fail(second),
            ),
          )
        }),
        Effect.mapError((e) => new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause: e, description: e.message }) })),
      ),
    )
  }

/** Recovers the spec's HttpError from what a policy client failed with. */
export const httpErrorOf = (error: unknown): HttpError => {
  if (HttpClientError.isHttpClientError(error) && "cause" in error.reason && error.reason.cause instanceof HttpError) return error.reason.cause
  return toHttpError(error)
}

/** The mini-app's HTTP client: fetch plus the policy, with the session's tokens. */
export class Http extends Context.Service<Http, HttpClient.HttpClient>()("wallet/Http") {
  static readonly layer = (options: HttpPolicyOptions = {}) =>
    Layer.effect(
      Http,
      Effect.gen(function* () {
        const auth = yield* AuthTokens
        const client = yield* HttpClient.HttpClient
        return withHttpPolicy(auth, options)(client)
      }),
    ).pipe(Layer.provide(FetchHttpClient.layer))

  /** Test layer: the same policy over a scripted `fetch`. */
  static readonly layerTest = (fetch: typeof globalThis.fetch, options: HttpPolicyOptions = {}) =>
    Layer.effect(
      Http,
      Effect.gen(function* () {
        const auth = yield* AuthTokens
        const client = yield* HttpClient.HttpClient
        return withHttpPolicy(auth, options)(client)
      }),
    ).pipe(Layer.provide(FetchHttpClient.layer), Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch)))
}
