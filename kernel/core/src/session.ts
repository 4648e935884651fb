import { Clock, Context, Data, Duration, Effect, Fiber, Layer, Option, Ref } from "effect"
import { AuthInitCheck, AuthSessionCheck, type AuthInitAnswer as AuthInitResponse, type AuthSessionAnswer as AuthSession } from "./auth-check.ts"
import { AuthTokens, HttpError, makeHttp, noAuthTokens, ReauthenticationRequired } from "./http.ts"

const readPersisted = (persist: SessionOptions["persist"], initData: string): PersistedSession | undefined => {
  try {
    const saved = JSON.parse(persist?.getItem(PERSIST_KEY) ?? "null") as PersistedSession | null
    return saved && saved.initData === initData ? saved : undefined
  } catch {
    return undefined
  }
}

/** The signed-in user as the app keeps it (spec 1 §3 "Session user"). */
export interface SessionUser {
  readonly id: number
  readonly isNew: boolean
  readonly localCurrency: string
  readonly countryAlpha2Code: string | null
  readonly countryPhoneAlpha2Code: string | null
  readonly restrictionCode: string | null
  readonly subdivisionStatus: string | null
  readonly isCustodyAvailable: boolean
  readonly botUsername: string
  readonly botIsBlocked: boolean
  readonly abTests: Readonly<Record<string, string>>
  readonly permissions: Readonly<Record<string, boolean>>
  readonly createdAt: string
}

/** Spec 1 §4: refresh one minute before expiry; nothing is scheduled if the wait would be under a minute. */
export const REFRESH_LEAD_MS = 60_000
export const refreshDelayMs = (expiresAtMs: number, nowMs: number): number | undefined => {
  const wait = expiresAtMs - REFRESH_LEAD_MS - nowMs
  return wait < REFRESH_LEAD_MS ? undefined : wait
}

/** Where a startup failure leads (spec 1 §8). */
export type StartupFailure =
  | { readonly to: "/error"; readonly code: "online_user_limit_exceeded" | "auth_failed" | "init_failed" }
  | { readonly to: "/unavailable" }
  | { readonly to: "/attach-private-chats-error" }

/** Maps an auth or init failure to its error screen (spec 1 §8 "Startup errors"). */
export const startupFailure = (error: HttpError, stage: "auth" | "init"): StartupFailure => {
  const detail = (error.body as { detail?: { reason?: string; redirect_link?: string } } | undefined)?.detail
  if (error.status === 403 && error.serverCode === "content_unavailable") return { to: "/unavailable" }
  if (error.status === 403 && error.serverCode === "online_user_limit_exceeded") return { to: "/error", code: "online_user_limit_exceeded" }
  if (error.serverCode === "user_not_found" && detail?.reason === "attach_receiver_invalid") return { to: "/attach-private-chats-error" }
  if (stage === "auth" && (error.status === 404 || (error.status ?? 0) >= 500)) return { to: "/error", code: "auth_failed" }
  if (error.code === "ECONNABORTED" || (error.status ?? 0) >= 500) return { to: "/error", code: "online_user_limit_exceeded" }
  return { to: "/error", code: "init_failed" }
}

/**
 * A failure of the wallet guard (the custodial area's first wallet call, main's accounts) that the
 * spec sends to `online_user_limit_exceeded` (spec 1 §8): a timeout or abort, a 5xx, or a 403 with
 * that code. Anything else (offline, a 4xx) is an ordinary load error.
 */
export const isWalletGuardFailure = (error: unknown): boolean => {
  if (!(error instanceof HttpError)) return false
  if (error.status === 403) return error.serverCode === "online_user_limit_exceeded"
  return error.timedOut === true || error.code === "ECONNABORTED" || (error.status ?? 0) >= 500
}

/** The call the re-activation auth check makes: any authenticated endpoint answers 401 for a revoked session. */
export const SESSION_CHECK_PATH = "/api/users/me"

/**
 * Spec 1 §4: the auth check repeated when the app is re-activated. One authenticated call through the
 * Http policy: a 401 marks the token expired and refreshes once; a refused refresh (a revoked or
 * logged-out session) ends the session, whose `expired` event shows the session-expired dialog.
 * "unreachable" (offline, 5xx) leaves the session alone.
 */
export const checkSession = (http: { readonly execute: (request: Request) => Effect.Effect<Response, HttpError> }, baseUrl: string) =>
  http.execute(new Request(`${baseUrl}${SESSION_CHECK_PATH}`, { headers: { accept: "application/json" } })).pipe(
    Effect.as("ok" as const),
    Effect.catch((error: HttpError) =>
      // 404: the session is fine, the user record is not created yet (spec 3 §7.4).
      Effect.succeed(error.status === 404 ? ("ok" as const) : error.status === 401 ? ("expired" as const) : ("unreachable" as const)),
    ),
  )

export class StartupError extends Data.TaggedError("StartupError")<{ readonly failure: unknown; readonly message: string }> {}

const toUser = (r: AuthInitResponse): SessionUser => ({
  id: r.user_id,
  isNew: r.is_new_user,
  localCurrency: r.local_currency,
  countryAlpha2Code: r.country_alpha2_ip,
  countryPhoneAlpha2Code: r.country_alpha2_phone,
  restrictionCode: r.restriction_code,
  subdivisionStatus: r.subdivision_status,
  isCustodyAvailable: r.is_custody_available,
  botUsername: r.bot_username,
  botIsBlocked: r.bot_is_blocked,
  abTests: r.ab_tests,
  permissions: r.permissions,
  createdAt: r.created_at,
})

interface Tokens {
  readonly sessionId: string
  readonly accessToken: string
  readonly refreshToken: string
  readonly expiresAtMs: number
  readonly expired: boolean
}

export interface SessionOptions {
  readonly baseUrl: string
  /** Default: the global fetch. */
  readonly fetch?: typeof globalThis.fetch
  /**
   * Where the session survives a page reload (sessionStorage in the app). Telegram hands a reloaded
   * page the same initData, which the server refuses as a replay, so a reload resumes the session.
   */
  readonly persist?: {
    readonly getItem: (key: string) => string | null
    readonly setItem: (key: string, value: string) => void
    readonly removeItem: (key: string) => void
  }
}

const PERSIST_KEY = "wallet:session"

interface PersistedSession {
  readonly initData: string
  readonly sessionId: string
  readonly refreshToken: string
  readonly user: SessionUser
}

export type SessionEvent = { readonly type: "expired"; readonly reason: string } | { readonly type: "refreshed" }

/**
 * The session: exchanges Telegram initData for tokens, keeps them in memory only, refreshes one
 * minute before expiry (rotating the refresh token), and reports when the user must sign in again.
 */
export class Session extends Context.Service<
  Session,
  {
    readonly signIn: (initDataRaw: string) => Effect.Effect<SessionUser, HttpError>
    readonly user: Effect.Effect<Option.Option<SessionUser>>
    readonly tokens: AuthTokens["Service"]
    readonly refresh: Effect.Effect<void, ReauthenticationRequired>
    /** Logout: revokes the session on the server (`POST /api/auth/logout`), then forgets it here. */
    readonly signOut: Effect.Effect<void>
    readonly onEvent: (listener: (event: SessionEvent) => void) => () => void
  }
>()("wallet/Session") {
  static readonly make = (options: SessionOptions) =>
    Effect.gen(function* () {
      // Auth calls carry no bearer token and never trigger the refresh loop.
      const plain = makeHttp(noAuthTokens, options.fetch ?? ((input, init) => globalThis.fetch(input, init)))
      const url = (path: string) => `${options.baseUrl}${path}`
      const tokens = yield* Ref.make(Option.none<Tokens>())
      const user = yield* Ref.make(Option.none<SessionUser>())
      const listeners = new Set<(event: SessionEvent) => void>()
      const emit = (event: SessionEvent) => listeners.forEach((l) => l(event))
      const scheduled = yield* Ref.make(Option.none<Fiber.Fiber<void, never>>())
      const scope = yield* Effect.scope

      const expire = (reason: string) =>
        Effect.gen(function* () {
          const had = yield* Ref.getAndSet(tokens, Option.none())
          options.persist?.removeItem(PERSIST_KEY)
          yield* cancelScheduled
          // Once per session: a refused refresh and the Http policy's re-authentication both end here
          // for the same 401, and the dialog must not open twice.
          if (Option.isSome(had)) emit({ type: "expired", reason })
        })
      const cancelScheduled = Ref.getAndSet(scheduled, Option.none()).pipe(
        Effect.flatMap((fiber) => (Option.isSome(fiber) ? Fiber.interrupt(fiber.value) : Effect.void)),
      )
      let initDataOfSession: string | undefined
      const persist = (session: AuthSession) =>
        Effect.gen(function* () {
          const current = Option.getOrUndefined(yield* Ref.get(user))
          if (!options.persist || !current || initDataOfSession === undefined) return
          const saved: PersistedSession = { initData: initDataOfSession, sessionId: session.session_id, refreshToken: session.refresh_token, user: current }
          options.persist.setItem(PERSIST_KEY, JSON.stringify(saved))
        })
      const store = (session: AuthSession) =>
        Ref.set(
          tokens,
          Option.some({
            sessionId: session.session_id,
            accessToken: session.access_token,
            refreshToken: session.refresh_token,
            expiresAtMs: Date.parse(session.access_token_expires_at),
            expired: false,
          }),
        )

      const refresh: Effect.Effect<void, ReauthenticationRequired> = Effect.gen(function* () {
        const current = yield* Ref.get(tokens)
        if (Option.isNone(current)) return yield* Effect.fail(new ReauthenticationRequired({ reason: "No refresh token" }))
        const next = yield* plain
          .json(AuthSessionCheck, url("/api/auth/refresh"), {
            method: "POST",
            body: { session_id: current.value.sessionId, refresh_token: current.value.refreshToken },
          })
          .pipe(
            Effect.catch((error: HttpError) =>
              expire(error.status === 400 ? "logged out" : "failed to refresh token").pipe(
                Effect.andThen(Effect.fail(new ReauthenticationRequired({ reason: "failed to refresh token" }))),
              ),
            ),
          )
        yield* store(next)
        yield* persist(next)
        yield* schedule
        emit({ type: "refreshed" })
      })

      const schedule: Effect.Effect<void> = Effect.gen(function* () {
        yield* cancelScheduled
        const current = yield* Ref.get(tokens)
        if (Option.isNone(current)) return
        const now = yield* Clock.currentTimeMillis
        const delay = refreshDelayMs(current.value.expiresAtMs, now)
        if (delay === undefined) return
        const fiber = yield* Effect.sleep(Duration.millis(delay)).pipe(
          // Forget this fiber first: refresh re-schedules and must not interrupt the fiber it runs on.
          Effect.andThen(Ref.set(scheduled, Option.none())),
          Effect.andThen(Effect.suspend(() => refresh)),
          Effect.ignore,
          Effect.forkIn(scope),
        )
        yield* Ref.set(scheduled, Option.some(fiber))
      })

      const authTokens: AuthTokens["Service"] = {
        accessToken: Ref.get(tokens).pipe(Effect.map(Option.map((t) => t.accessToken))),
        markExpired: Ref.update(
          tokens,
          Option.map((t) => ({ ...t, expired: true })),
        ),
        refresh,
        reauthenticate: (reason) => expire(reason),
      }

      return Session.of({
        signIn: (initDataRaw) =>
          Effect.gen(function* () {
            initDataOfSession = initDataRaw
            const saved = readPersisted(options.persist, initDataRaw)
            if (saved) {
              // A reload: resume with the rotated refresh token instead of replaying initData.
              yield* Ref.set(
                tokens,
                Option.some({ sessionId: saved.sessionId, accessToken: "", refreshToken: saved.refreshToken, expiresAtMs: 0, expired: true }),
              )
              yield* Ref.set(user, Option.some(saved.user))
              const resumed = yield* Effect.result(refresh)
              if (resumed._tag === "Success") return saved.user
              yield* Ref.set(user, Option.none())
            }
            // initData goes to the server unmodified (PROTOCOLS.md: `Authorization: tma <initData>`).
            const response = yield* plain.json(AuthInitCheck, url("/api/auth/init"), { method: "POST", headers: { authorization: `tma ${initDataRaw}` } })
            yield* store(response)
            const signedIn = toUser(response)
            yield* Ref.set(user, Option.some(signedIn))
            yield* persist(response)
            yield* schedule
            return signedIn
          }),
        user: Ref.get(user),
        tokens: authTokens,
        refresh,
        signOut: Effect.gen(function* () {
          // The server revokes the session first (decision 0207): a copy of the tokens left in memory,
          // storage or a proxy log is dead too. An expired access token is refreshed for the call;
          // a server that cannot be reached does not keep the user signed in here.
          const current = yield* Ref.get(tokens)
          if (Option.isSome(current)) {
            const now = yield* Clock.currentTimeMillis
            if (current.value.expired || current.value.accessToken === "" || current.value.expiresAtMs <= now) yield* Effect.ignore(refresh)
            const live = yield* Ref.get(tokens)
            if (Option.isSome(live)) {
              yield* plain
                .execute(new Request(url("/api/auth/logout"), { method: "POST", headers: { authorization: `Bearer ${live.value.accessToken}` } }))
                .pipe(Effect.ignore)
            }
          }
          yield* Ref.set(user, Option.none())
          yield* expire("signed out")
        }),
        onEvent: (listener) => {
          listeners.add(listener)
          return () => void listeners.delete(listener)
        },
      })
    })

  static readonly layer = (options: SessionOptions) => Layer.effect(Session, Session.make(options))

  /** AuthTokens backed by the session, for the Http service. */
  static readonly tokensLayer = Layer.effect(
    AuthTokens,
    Effect.map(Session, (s) => s.tokens),
  )
}
