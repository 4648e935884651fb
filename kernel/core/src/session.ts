import { Clock, Context, Data, Duration, Effect, Fiber, Layer, Option, Ref } from "effect"
import { AuthInitCheck, AuthSessionCheck, type AuthInitAnswer as AuthInitResponse, type AuthSessionAnswer as AuthSession } from "./auth-check.ts"
import * as Check from "./check.ts"
import { AuthTokens, HttpError, makeHttp, noAuthTokens, ReauthenticationRequired } from "./http.ts"

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
   * The tab's copy of the session (sessionStorage in the app). Telegram hands a reloaded page the
   * same initData, which the server refuses as a replay, so a reload resumes the session.
   */
  readonly persist?: SessionStorageLike
  /**
   * The device's copy of the session (localStorage in the app), from which a NEW tab or webview of the
   * same Telegram user resumes without signing in again (decision 0008). Written with the tab's copy.
   */
  readonly shared?: SessionStorageLike
  /**
   * Serialises refreshes across tabs (they share one refresh token; a second use of a rotated token
   * revokes the session). Default: the Web Locks API when the browser has it.
   */
  readonly locks?: SessionLocks
}

export interface SessionStorageLike {
  readonly getItem: (key: string) => string | null
  readonly setItem: (key: string, value: string) => void
  readonly removeItem: (key: string) => void
}

/** The part of the Web Locks API the session uses. */
export interface SessionLocks {
  readonly request: (name: string, options: { readonly signal?: AbortSignal }, callback: () => Promise<void>) => Promise<unknown>
}

export const SESSION_STORAGE_KEY = "wallet:session"
const REFRESH_LOCK = "wallet:session-refresh"

/**
 * How long the user snapshot (is_new_user, restriction code, permissions, ab tests) of a stored
 * session may open a NEW launch without init (decision 0008). A reload of the same launch always
 * resumes (its initData would be refused as a replay). The same 12 hours as the persisted query cache.
 */
export const SESSION_SNAPSHOT_MAX_AGE_MS = 12 * 60 * 60 * 1000

const SessionUserCheck: Check.Check<SessionUser> = Check.struct({
  id: Check.int,
  isNew: Check.boolean,
  localCurrency: Check.string,
  countryAlpha2Code: Check.nullOr(Check.string),
  countryPhoneAlpha2Code: Check.nullOr(Check.string),
  restrictionCode: Check.nullOr(Check.string),
  subdivisionStatus: Check.nullOr(Check.string),
  isCustodyAvailable: Check.boolean,
  botUsername: Check.string,
  botIsBlocked: Check.boolean,
  abTests: Check.record(Check.string),
  permissions: Check.record(Check.boolean),
  createdAt: Check.string,
})

/** The stored session (both copies): bound to the server origin and the Telegram user of the launch. */
const StoredSessionCheck = Check.struct({
  v: Check.literals([2]),
  origin: Check.string,
  telegramUserId: Check.nullOr(Check.int),
  /** A digest of the launch's initData: the same launch (a reload) may always resume. */
  launch: Check.string,
  sessionId: Check.string,
  accessToken: Check.string,
  accessTokenExpiresAtMs: Check.finite,
  refreshToken: Check.string,
  user: SessionUserCheck,
  /** When init answered the user snapshot (its facts are as old as this). */
  userAtMs: Check.finite,
})
type StoredSession = typeof StoredSessionCheck.Type

/** The first shape (decision 0005, sessionStorage only): a reload of that launch still resumes. */
const LegacySessionCheck = Check.struct({ initData: Check.string, sessionId: Check.string, refreshToken: Check.string, user: SessionUserCheck })

/** The Telegram user id in launch initData (`user={"id":…}`), or null when it has none. */
export const telegramUserIdOf = (initDataRaw: string): number | null => {
  try {
    const user = new URLSearchParams(initDataRaw).get("user")
    const id = user === null ? undefined : (JSON.parse(user) as { id?: unknown } | null)?.id
    return typeof id === "number" && Number.isSafeInteger(id) ? id : null
  } catch {
    return null
  }
}

/** FNV-1a of the initData: tells a reload (same launch) from a new launch without storing initData. */
const launchDigest = (initDataRaw: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < initDataRaw.length; i++) {
    hash ^= initDataRaw.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `${hash.toString(16)}:${initDataRaw.length}`
}

/** A stored copy, or undefined when there is none or it is corrupt (which is then removed). */
const readStored = (storage: SessionStorageLike | undefined, origin: string, initDataRaw: string, nowMs: number): StoredSession | undefined => {
  if (!storage) return undefined
  try {
    const raw = storage.getItem(SESSION_STORAGE_KEY)
    if (raw === null) return undefined
    const parsed: unknown = JSON.parse(raw)
    const stored = StoredSessionCheck.run(parsed)
    if (stored.ok) return stored.value
    const legacy = LegacySessionCheck.run(parsed)
    if (legacy.ok && legacy.value.initData === initDataRaw) {
      return {
        v: 2,
        origin,
        telegramUserId: telegramUserIdOf(initDataRaw),
        launch: launchDigest(initDataRaw),
        sessionId: legacy.value.sessionId,
        accessToken: "",
        accessTokenExpiresAtMs: 0,
        refreshToken: legacy.value.refreshToken,
        user: legacy.value.user,
        userAtMs: nowMs,
      }
    }
  } catch {
    // Unparsable: dropped below.
  }
  try {
    storage.removeItem(SESSION_STORAGE_KEY)
  } catch {
    // Storage unavailable: nothing to drop.
  }
  return undefined
}

export type SessionEvent = { readonly type: "expired"; readonly reason: string } | { readonly type: "refreshed" }

/**
 * The session: exchanges Telegram initData for tokens, keeps them on the device (the tab's copy and
 * the device's copy, bound to the server origin and the launch's Telegram user; decisions 0005 and
 * 0008), resumes a stored session without init when it can, refreshes one minute before expiry
 * (rotating the refresh token), and reports when the user must sign in again. Tokens never reach a log.
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
      const origin = options.baseUrl
      const storages = [options.persist, options.shared].filter((s): s is SessionStorageLike => s !== undefined)
      /** The launch signed in with: the stored copies are bound to its Telegram user. */
      let launch: { readonly digest: string; readonly telegramUserId: number | null } | undefined
      /** When init answered the user snapshot in memory. */
      let userAtMs = 0

      const writeStored = (record: StoredSession) => {
        for (const storage of storages) {
          try {
            storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(record))
          } catch {
            // Storage full or unavailable: this copy is simply missing (the next start signs in).
          }
        }
      }
      /** Drops the tab's copy, and the device's copy when it holds this session (another tab may have signed in anew). */
      const dropStored = (sessionId: string | undefined) => {
        try {
          options.persist?.removeItem(SESSION_STORAGE_KEY)
          const device = options.shared && peek(options.shared)
          if (options.shared && (device === undefined || sessionId === undefined || device.sessionId === sessionId))
            options.shared.removeItem(SESSION_STORAGE_KEY)
        } catch {
          // Storage unavailable: nothing stored either.
        }
      }
      /** A copy as it stands, without dropping anything (undefined when missing, corrupt or of another origin). */
      const peek = (storage: SessionStorageLike): StoredSession | undefined => {
        try {
          const stored = StoredSessionCheck.run(JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? "null"))
          return stored.ok && stored.value.origin === origin ? stored.value : undefined
        } catch {
          return undefined
        }
      }
      /**
       * The stored session this launch may resume: the tab's copy (a reload), else the device's (a new
       * tab); the device's when it holds the same session rotated later by another tab. A copy of
       * another origin or another Telegram user is dropped.
       */
      const pickStored = (initDataRaw: string, nowMs: number): StoredSession | undefined => {
        const bound = (storage: SessionStorageLike | undefined) => {
          const stored = readStored(storage, origin, initDataRaw, nowMs)
          if (!stored) return undefined
          if (stored.origin === origin && stored.telegramUserId === launch?.telegramUserId) return stored
          try {
            storage?.removeItem(SESSION_STORAGE_KEY)
          } catch {
            // Storage unavailable.
          }
          return undefined
        }
        const tab = bound(options.persist)
        const device = bound(options.shared)
        if (tab && device && tab.sessionId === device.sessionId && device.accessTokenExpiresAtMs > tab.accessTokenExpiresAtMs) return device
        return tab ?? device
      }

      const expire = (reason: string) =>
        Effect.gen(function* () {
          const had = yield* Ref.getAndSet(tokens, Option.none())
          dropStored(Option.getOrUndefined(had)?.sessionId)
          yield* cancelScheduled
          // Once per session: a refused refresh and the Http policy's re-authentication both end here
          // for the same 401, and the dialog must not open twice.
          if (Option.isSome(had)) emit({ type: "expired", reason })
        })
      const cancelScheduled = Ref.getAndSet(scheduled, Option.none()).pipe(
        Effect.flatMap((fiber) => (Option.isSome(fiber) ? Fiber.interrupt(fiber.value) : Effect.void)),
      )
      /** Writes the session (tokens + user snapshot) to the tab's and the device's copy. */
      const persist = Effect.gen(function* () {
        const current = Option.getOrUndefined(yield* Ref.get(user))
        const live = Option.getOrUndefined(yield* Ref.get(tokens))
        if (storages.length === 0 || !current || !live || !launch) return
        writeStored({
          v: 2,
          origin,
          telegramUserId: launch.telegramUserId,
          launch: launch.digest,
          sessionId: live.sessionId,
          accessToken: live.accessToken,
          accessTokenExpiresAtMs: live.expiresAtMs,
          refreshToken: live.refreshToken,
          user: current,
          userAtMs,
        })
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

      // Tabs of one device share the session: a refresh runs under a cross-tab lock, so a second tab
      // finds the token already rotated (and takes it) instead of reusing the old one, which the server
      // answers by revoking the whole session (decision 0201, refresh_token_reused).
      const locks = options.locks ?? (globalThis as { navigator?: { locks?: SessionLocks } }).navigator?.locks
      const acquireLock = Effect.callback<() => void>((resume, signal) => {
        let granted: (() => void) | undefined
        locks!
          .request(REFRESH_LOCK, { signal }, () =>
            signal.aborted
              ? Promise.resolve()
              : new Promise<void>((release) => {
                  granted = release
                  resume(Effect.succeed(release))
                }),
          )
          .catch(() => {
            // Aborted while waiting, or locks refused (an opaque origin): go on without the lock.
            if (!signal.aborted) resume(Effect.succeed(() => undefined))
          })
        return Effect.sync(() => granted?.())
      })
      const withRefreshLock = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
        locks === undefined || options.shared === undefined
          ? effect
          : Effect.uninterruptibleMask((restore) =>
              Effect.flatMap(restore(acquireLock), (release) => restore(effect).pipe(Effect.ensuring(Effect.sync(release)))),
            )

      const refresh: Effect.Effect<void, ReauthenticationRequired> = withRefreshLock(
        Effect.gen(function* () {
          const current = yield* Ref.get(tokens)
          if (Option.isNone(current)) return yield* Effect.fail(new ReauthenticationRequired({ reason: "No refresh token" }))
          // Another tab rotated this session's tokens already: take its fresh ones, no request.
          const device = options.shared && peek(options.shared)
          const now = yield* Clock.currentTimeMillis
          if (
            device &&
            device.sessionId === current.value.sessionId &&
            device.refreshToken !== current.value.refreshToken &&
            device.accessTokenExpiresAtMs - now > REFRESH_LEAD_MS
          ) {
            yield* Ref.set(
              tokens,
              Option.some({
                sessionId: device.sessionId,
                accessToken: device.accessToken,
                refreshToken: device.refreshToken,
                expiresAtMs: device.accessTokenExpiresAtMs,
                expired: false,
              }),
            )
          } else {
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
          }
          yield* persist
          yield* schedule
          emit({ type: "refreshed" })
        }),
      )

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
            const now = yield* Clock.currentTimeMillis
            launch = { digest: launchDigest(initDataRaw), telegramUserId: telegramUserIdOf(initDataRaw) }
            const saved = pickStored(initDataRaw, now)
            // Decision 0008: a reload of this launch always resumes (its initData would be a replay); a
            // new launch of the same Telegram user resumes while the user snapshot is under 12 h old and
            // not a new user's (onboarding flips is_new_user on the server: init tells).
            const resumable =
              saved !== undefined &&
              (saved.launch === launch.digest ||
                (launch.telegramUserId !== null && !saved.user.isNew && now - saved.userAtMs >= 0 && now - saved.userAtMs < SESSION_SNAPSHOT_MAX_AGE_MS))
            if (saved && resumable) {
              userAtMs = saved.userAtMs
              yield* Ref.set(user, Option.some(saved.user))
              if (saved.accessToken !== "" && saved.accessTokenExpiresAtMs - now > REFRESH_LEAD_MS) {
                // The access token is still good: no request; refreshed one minute before expiry as usual.
                yield* Ref.set(
                  tokens,
                  Option.some({
                    sessionId: saved.sessionId,
                    accessToken: saved.accessToken,
                    refreshToken: saved.refreshToken,
                    expiresAtMs: saved.accessTokenExpiresAtMs,
                    expired: false,
                  }),
                )
                yield* persist
                yield* schedule
                return saved.user
              }
              // Only the refresh token is good: one refresh instead of init.
              yield* Ref.set(
                tokens,
                Option.some({ sessionId: saved.sessionId, accessToken: "", refreshToken: saved.refreshToken, expiresAtMs: 0, expired: true }),
              )
              const resumed = yield* Effect.result(refresh)
              if (resumed._tag === "Success") return saved.user
              yield* Ref.set(user, Option.none())
            }
            // initData goes to the server unmodified (PROTOCOLS.md: `Authorization: tma <initData>`).
            const response = yield* plain.json(AuthInitCheck, url("/api/auth/init"), { method: "POST", headers: { authorization: `tma ${initDataRaw}` } })
            yield* store(response)
            const signedIn = toUser(response)
            userAtMs = now
            yield* Ref.set(user, Option.some(signedIn))
            yield* persist
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
