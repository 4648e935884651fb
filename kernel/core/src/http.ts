import { Context, Data, Duration, Effect, Layer, Option, type Schema } from "effect"
import { isCheck, type Check } from "./check.ts"

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

/** The no-session tokens as a value (auth calls themselves carry no bearer token). */
export const noAuthTokens: AuthTokens["Service"] = {
  accessToken: Effect.succeed(Option.none()),
  markExpired: Effect.void,
  refresh: Effect.fail(new ReauthenticationRequired({ reason: "No refresh token" })),
  reauthenticate: () => Effect.void,
}

/** What the Http policy needs from the session (implemented by the kernel's Session service). */
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
  static readonly none = Layer.succeed(AuthTokens, noAuthTokens)
}

export interface HttpPolicyOptions {
  readonly timeoutMs?: number
}

export interface JsonRequest {
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  /** Sent as JSON. */
  readonly body?: unknown
}

export interface HttpShape {
  /** Sends a request under the policy; a non-2xx answer fails with its status and error body. */
  readonly execute: (request: Request) => Effect.Effect<Response, HttpError>
  /**
   * A JSON call decoded with `schema` (a body that does not match is ERR_BAD_RESPONSE): a kernel
   * `Check`, or an Effect Schema (effect's Schema module then loads on first use, off the first screen).
   */
  readonly json: <A>(schema: Check<A> | Schema.Codec<A, any, never, never>, url: string, init?: JsonRequest) => Effect.Effect<A, HttpError>
  /**
   * The policy as a `fetch` function, for adapters such as effect's HttpApiClient: retries and the
   * 401 refresh happen inside; the final answer is returned as a Response whatever its status.
   */
  readonly fetch: typeof globalThis.fetch
}

const isAbort = (cause: unknown) => cause instanceof Error && (cause.name === "AbortError" || /abort/i.test(cause.message))

const readBody = (response: Response) =>
  Effect.tryPromise(() => response.json() as Promise<unknown>).pipe(
    Effect.map(Option.some),
    Effect.catch(() => Effect.succeed(Option.none<unknown>())),
  )

const isRetryable = (error: HttpError) => error.timedOut === true || (error.status !== undefined && HTTP_RETRY_STATUSES.includes(error.status))

/**
 * The spec's HTTP policy over `fetch`: bearer token, timeout, the retry schedule, non-2xx as
 * `HttpError`, and on a 401 mark-expired + refresh + one retry; a second 401 forces
 * re-authentication. Aborts are never retried.
 */
export const makeHttp = (auth: AuthTokens["Service"], fetch: typeof globalThis.fetch, options: HttpPolicyOptions = {}): HttpShape => {
  const timeoutMs = options.timeoutMs ?? HTTP_DEFAULT_TIMEOUT_MS
  const once = (request: Request) =>
    Effect.gen(function* () {
      const token = yield* auth.accessToken
      const headers = new Headers(request.headers)
      if (Option.isSome(token)) headers.set("authorization", `Bearer ${token.value}`)
      const attempt = new Request(request.clone(), { headers })
      const response = yield* Effect.tryPromise({
        try: (signal) => fetch(new Request(attempt, { signal })),
        catch: (cause) =>
          isAbort(cause)
            ? new HttpError({ code: "ECONNABORTED", message: "Request aborted" })
            : new HttpError({ code: "ERR_NETWORK", message: "Network Error" }),
      }).pipe(
        Effect.timeoutOrElse({
          duration: Duration.millis(timeoutMs),
          orElse: () => Effect.fail(new HttpError({ code: "ECONNABORTED", message: `Request timed out after ${timeoutMs} ms`, timedOut: true })),
        }),
      )
      if (response.status >= 300) {
        const body = yield* readBody(response)
        return yield* Effect.fail(
          new HttpError({
            code: "UNKNOWN",
            message: `Unknown Error: ${response.status}`,
            status: response.status,
            statusClass: httpStatusClass(response.status),
            body: Option.getOrUndefined(body),
          }),
        )
      }
      return response
    })
  const withRetries = (request: Request, retry: number): Effect.Effect<Response, HttpError> =>
    once(request).pipe(
      Effect.catch((error: HttpError) =>
        retry < HTTP_MAX_RETRIES && isRetryable(error)
          ? Effect.sleep(Duration.millis(httpRetryDelayMs(retry + 1))).pipe(Effect.andThen(withRetries(request, retry + 1)))
          : Effect.fail(error),
      ),
    )
  const execute = (request: Request): Effect.Effect<Response, HttpError> =>
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
    )
  return {
    execute,
    json: (schema, url, init = {}) =>
      Effect.gen(function* () {
        const headers: Record<string, string> = { accept: "application/json", ...init.headers }
        if (init.body !== undefined) headers["content-type"] = "application/json"
        const request = new Request(url, { method: init.method ?? "GET", headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) })
        const response = yield* execute(request)
        const body = yield* Effect.tryPromise({
          try: () => response.json() as Promise<unknown>,
          catch: () => new HttpError({ code: "ERR_BAD_RESPONSE", message: "Bad response", status: response.status }),
        })
        const bad = () => new HttpError({ code: "ERR_BAD_RESPONSE", message: "Bad response", status: response.status, body })
        if (isCheck(schema)) {
          const result = schema.run(body)
          return result.ok ? result.value : yield* Effect.fail(bad())
        }
        const { decodeUnknownEffect } = yield* Effect.promise(() => import("effect/Schema"))
        return yield* decodeUnknownEffect(schema)(body).pipe(Effect.mapError(bad))
      }),
    fetch: (input, init) =>
      Effect.runPromise(
        execute(new Request(input, init)).pipe(
          Effect.catch((error: HttpError) =>
            error.status !== undefined
              ? Effect.succeed(new Response(JSON.stringify(error.body ?? null), { status: error.status, headers: { "content-type": "application/json" } }))
              : Effect.fail(error),
          ),
        ),
      ),
  }
}

/** The mini-app's HTTP client: fetch plus the policy, with the session's tokens. */
export class Http extends Context.Service<Http, HttpShape>()("wallet/Http") {
  /** `fetch`: the browser's by default; the app passes one that adopts the boot script's requests (decision 0010). */
  static readonly layer = (options: HttpPolicyOptions = {}, fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init)) =>
    Layer.effect(
      Http,
      Effect.map(AuthTokens, (auth) => makeHttp(auth, fetch, options)),
    )

  /** Test layer: the same policy over a scripted `fetch`. */
  static readonly layerTest = (fetch: typeof globalThis.fetch, options: HttpPolicyOptions = {}) =>
    Layer.effect(
      Http,
      Effect.map(AuthTokens, (auth) => makeHttp(auth, fetch, options)),
    )
}
