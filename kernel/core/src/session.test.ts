import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { Http, HttpError } from "./http.ts"
import { Layer } from "effect"
import { checkSession, isWalletGuardFailure, refreshDelayMs, Session, startupFailure, type SessionEvent, type SessionLocks } from "./session.ts"

const initResponse = (expiresAt: string, refreshToken = "r1") => ({
  session_id: "s1",
  access_token: "a1",
  access_token_expires_at: expiresAt,
  refresh_token: refreshToken,
  webview_settings: {},
  user_id: 42,
  is_new_user: true,
  local_currency: "USD",
  country_alpha2_ip: "DE",
  country_alpha2_phone: null,
  bot_username: "wallet_dev_bot",
  bot_is_blocked: false,
  ab_tests: {},
  restriction_code: null,
  subdivision_status: null,
  permissions: {
    canBuy: true,
    canExchange: true,
    canRaffle: true,
    canReceive: true,
    canUseP2p: true,
    canUseWpayAsPayer: true,
    canWithdrawInner: true,
    canWithdrawOuter: true,
    accessToSavingSettings: true,
    accessToSetUserCurrency: true,
  },
  is_custody_available: true,
  created_at: "2026-11-22T00:00:00.000Z",
})

const server = (handler: (url: string, init: RequestInit, body: any) => { status: number; body: unknown }, persist?: Map<string, string>) => {
  const requests: Array<{ url: string; authorization: string | null; body: any }> = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const text = await request.text()
    const body = text ? JSON.parse(text) : undefined
    requests.push({ url: new URL(request.url).pathname, authorization: request.headers.get("authorization"), body })
    const reply = handler(new URL(request.url).pathname, init ?? {}, body)
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } })
  }) as typeof globalThis.fetch
  const backend = persist && {
    getItem: (k: string) => persist.get(k) ?? null,
    setItem: (k: string, v: string) => void persist.set(k, v),
    removeItem: (k: string) => void persist.delete(k),
  }
  const layer = Session.layer({ baseUrl: "http://api.test", fetch, ...(backend ? { persist: backend } : {}) })
  return { requests, layer }
}

describe("Session", () => {
  it("schedules refresh one minute before expiry, and not at all when the wait is under a minute", () => {
    const now = 1_000_000
    assert.strictEqual(refreshDelayMs(now + 15 * 60_000, now), 14 * 60_000)
    assert.strictEqual(refreshDelayMs(now + 2 * 60_000, now), 60_000)
    assert.strictEqual(refreshDelayMs(now + 119_000, now), undefined)
  })

  it.effect("signs in with initData sent unmodified and refreshes before expiry, rotating the refresh token", () =>
    Effect.gen(function* () {
      // TestClock starts at 0: the token expires 10 minutes in.
      const { requests, layer } = server((path, _init, body) =>
        path === "/api/auth/init"
          ? { status: 200, body: initResponse(new Date(10 * 60_000).toISOString()) }
          : {
              status: 200,
              body: {
                session_id: "s1",
                access_token: `a-${body.refresh_token}`,
                access_token_expires_at: new Date(20 * 60_000).toISOString(),
                refresh_token: `${body.refresh_token}+`,
              },
            },
      )
      yield* Effect.gen(function* () {
        const session = yield* Session
        const user = yield* session.signIn("query_id=1&user=%7B%7D&hash=abc")
        assert.strictEqual(user.id, 42)
        assert.isTrue(user.isNew)
        assert.strictEqual(requests[0]!.authorization, "tma query_id=1&user=%7B%7D&hash=abc")
        yield* TestClock.adjust("8 minutes")
        assert.strictEqual(requests.length, 1)
        yield* TestClock.adjust("1 minute")
        assert.strictEqual(requests.length, 2)
        assert.deepStrictEqual(requests[1]!.body, { session_id: "s1", refresh_token: "r1" })
        assert.deepStrictEqual(yield* session.tokens.accessToken, Option.some("a-r1"))
        // Next refresh at 19 minutes, with the rotated token.
        yield* TestClock.adjust("10 minutes")
        assert.deepStrictEqual(requests[2]!.body, { session_id: "s1", refresh_token: "r1+" })
      }).pipe(Effect.provide(layer))
    }),
  )

  it.effect("a 400 on the scheduled refresh logs the user out", () =>
    Effect.gen(function* () {
      const { layer } = server((path) =>
        path === "/api/auth/init"
          ? { status: 200, body: initResponse(new Date(5 * 60_000).toISOString()) }
          : { status: 400, body: { code: "invalid_request" } },
      )
      yield* Effect.gen(function* () {
        const session = yield* Session
        const events: SessionEvent[] = []
        session.onEvent((e) => events.push(e))
        yield* session.signIn("x")
        yield* TestClock.adjust("4 minutes")
        assert.deepStrictEqual(events, [{ type: "expired", reason: "logged out" }])
        assert.deepStrictEqual(yield* session.tokens.accessToken, Option.none())
      }).pipe(Effect.provide(layer))
    }),
  )

  it.effect("refresh without a session fails with 'No refresh token'", () =>
    Effect.gen(function* () {
      const { layer, requests } = server(() => ({ status: 500, body: {} }))
      const error = yield* Effect.flatMap(Session, (s) => s.refresh).pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(error.reason, "No refresh token")
      assert.strictEqual(requests.length, 0)
    }),
  )

  it.effect("surfaces an auth failure as an HttpError with the server's code", () =>
    Effect.gen(function* () {
      const { layer } = server(() => ({ status: 401, body: { _tag: "Unauthorized", code: "init_data_invalid", message: "bad hash" } }))
      const error = yield* Effect.flatMap(Session, (s) => s.signIn("forged")).pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(error.status, 401)
      assert.strictEqual(error.serverCode, "init_data_invalid")
    }),
  )
})

describe("Session across a page reload", () => {
  it.effect("resumes with the stored refresh token instead of replaying initData", () =>
    Effect.gen(function* () {
      const storage = new Map<string, string>()
      let refreshes = 0
      const handler = (path: string, _init: RequestInit, body: any) => {
        // The access token lives 90 s: a reload finds it under a minute from expiry and refreshes.
        if (path === "/api/auth/init") return { status: 200, body: initResponse(new Date(90_000).toISOString()) }
        refreshes++
        return {
          status: 200,
          body: {
            session_id: "s1",
            access_token: `a${refreshes}`,
            access_token_expires_at: new Date(60 * 60_000).toISOString(),
            refresh_token: `${body.refresh_token}+`,
          },
        }
      }
      const first = server(handler, storage)
      yield* Effect.flatMap(Session, (s) => s.signIn("init-data")).pipe(Effect.provide(first.layer))
      yield* TestClock.adjust("40 seconds")
      // The reloaded page: a new runtime, the same initData.
      const second = server(handler, storage)
      const user = yield* Effect.flatMap(Session, (s) => s.signIn("init-data")).pipe(Effect.provide(second.layer))
      assert.strictEqual(user.id, 42)
      assert.deepStrictEqual(
        second.requests.map((r) => [r.url, r.body]),
        [["/api/auth/refresh", { session_id: "s1", refresh_token: "r1" }]],
      )
      assert.strictEqual(JSON.parse(storage.get("wallet:session")!).refreshToken, "r1+")
      // Another initData without a Telegram user (a new launch nothing binds to) signs in again.
      const third = server(handler, storage)
      yield* Effect.flatMap(Session, (s) => s.signIn("other-init-data")).pipe(Effect.provide(third.layer))
      assert.deepStrictEqual(
        third.requests.map((r) => r.url),
        ["/api/auth/init"],
      )
    }),
  )

  it.effect("a session stored by the earlier version (sessionStorage, with its initData) still resumes on a reload", () =>
    Effect.gen(function* () {
      const storage = new Map<string, string>()
      const { requests, layer } = server(() => ({ status: 200, body: initResponse(new Date(60 * 60_000).toISOString(), "r2") }), storage)
      const first = server(() => ({ status: 200, body: initResponse(new Date(60 * 60_000).toISOString()) }))
      const user = yield* Effect.flatMap(Session, (s) => s.signIn("x")).pipe(Effect.provide(first.layer))
      storage.set("wallet:session", JSON.stringify({ initData: "legacy-init", sessionId: "s1", refreshToken: "r1", user }))
      yield* Effect.flatMap(Session, (s) => s.signIn("legacy-init")).pipe(Effect.provide(layer))
      assert.deepStrictEqual(
        requests.map((r) => r.url),
        ["/api/auth/refresh"],
      )
    }),
  )
})

/** initData of a new launch (a new tab or webview) for Telegram user `tgUser`: each launch has its own hash. */
let launches = 0
const launchOf = (tgUser: number) =>
  `query_id=q${++launches}&user=${encodeURIComponent(JSON.stringify({ id: tgUser, first_name: "T" }))}&auth_date=1&hash=h${launches}`

/** A server that counts its calls; init answers as Telegram user `initUser` (id 42 unless told) with a token of `accessMinutes`. */
const reopenServer = (accessMinutes = 15, initUser = 42) => {
  let refreshes = 0
  return (path: string, _init: RequestInit, body: any) => {
    if (path === "/api/auth/init")
      return { status: 200, body: { ...initResponse(new Date(accessMinutes * 60_000).toISOString()), user_id: initUser, is_new_user: false } }
    if (path === "/api/auth/refresh") {
      if (body.refresh_token === "refused") return { status: 401, body: { _tag: "Unauthorized", code: "refresh_token_invalid", message: "no" } }
      refreshes++
      return {
        status: 200,
        body: {
          session_id: body.session_id,
          access_token: `fresh${refreshes}`,
          access_token_expires_at: new Date(60 * 60_000).toISOString(),
          refresh_token: `${body.refresh_token}+`,
        },
      }
    }
    return { status: 200, body: {} }
  }
}

/** A device: localStorage shared by its tabs; each tab has its own sessionStorage. */
const device = () => {
  const local = new Map<string, string>()
  const backend = (map: Map<string, string>) => ({
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  })
  const tab = (handler: ReturnType<typeof reopenServer>, options: { readonly baseUrl?: string; readonly locks?: SessionLocks } = {}) => {
    const own = new Map<string, string>()
    const requests: Array<string> = []
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      const text = await request.text()
      const path = new URL(request.url).pathname
      requests.push(path)
      const reply = handler(path, init ?? {}, text ? JSON.parse(text) : undefined)
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } })
    }) as typeof globalThis.fetch
    const layer = Session.layer({
      baseUrl: options.baseUrl ?? "http://api.test",
      fetch,
      persist: backend(own),
      shared: backend(local),
      ...(options.locks ? { locks: options.locks } : {}),
    })
    return { requests, layer, own }
  }
  return { local, tab }
}

describe("issue 17: a reopen (new tab, same device) resumes the stored session (decision 0008)", () => {
  it.effect("reopen_resumes_without_request: a still valid access token makes no request at all", () =>
    Effect.gen(function* () {
      const phone = device()
      const handler = reopenServer()
      const first = phone.tab(handler)
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(first.layer))
      assert.deepStrictEqual(first.requests, ["/api/auth/init"])
      yield* TestClock.adjust("5 minutes")
      const second = phone.tab(handler)
      yield* Effect.gen(function* () {
        const session = yield* Session
        const user = yield* session.signIn(launchOf(7))
        assert.strictEqual(user.id, 42)
        assert.isFalse(user.isNew)
        assert.deepStrictEqual(second.requests, [])
        assert.deepStrictEqual(yield* session.tokens.accessToken, Option.some("a1"))
        // The new tab's own copy is written (a reload of it resumes too), and it refreshes before expiry as usual.
        assert.isTrue(second.own.has("wallet:session"))
        yield* TestClock.adjust("9 minutes")
        assert.deepStrictEqual(second.requests, ["/api/auth/refresh"])
      }).pipe(Effect.provide(second.layer))
    }),
  )

  it.effect("reopen_expired_access_refreshes_once: an expired access token with a valid refresh token makes one refresh", () =>
    Effect.gen(function* () {
      const phone = device()
      const handler = reopenServer(5)
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(phone.tab(handler).layer))
      yield* TestClock.adjust("20 minutes")
      const second = phone.tab(handler)
      yield* Effect.gen(function* () {
        const session = yield* Session
        const user = yield* session.signIn(launchOf(7))
        assert.strictEqual(user.id, 42)
        assert.deepStrictEqual(second.requests, ["/api/auth/refresh"])
        assert.deepStrictEqual(yield* session.tokens.accessToken, Option.some("fresh1"))
        assert.strictEqual(JSON.parse(phone.local.get("wallet:session")!).refreshToken, "r1+")
      }).pipe(Effect.provide(second.layer))
    }),
  )

  it.effect("a refused refresh falls back to init", () =>
    Effect.gen(function* () {
      const phone = device()
      const handler = reopenServer(5)
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(phone.tab(handler).layer))
      const stored = JSON.parse(phone.local.get("wallet:session")!)
      phone.local.set("wallet:session", JSON.stringify({ ...stored, refreshToken: "refused" }))
      yield* TestClock.adjust("20 minutes")
      const second = phone.tab(handler)
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(second.layer))
      assert.deepStrictEqual(second.requests, ["/api/auth/refresh", "/api/auth/init"])
      assert.strictEqual(JSON.parse(phone.local.get("wallet:session")!).refreshToken, "r1")
    }),
  )

  it.effect("reopen_other_telegram_user_inits: another Telegram user on the device signs in and the stored session is dropped", () =>
    Effect.gen(function* () {
      const phone = device()
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(phone.tab(reopenServer()).layer))
      const firstSession = JSON.parse(phone.local.get("wallet:session")!)
      assert.strictEqual(firstSession.telegramUserId, 7)
      // Its init fails: the first user's session is gone all the same (never handed to another user).
      const failing = phone.tab(() => ({ status: 401, body: { _tag: "Unauthorized", code: "init_data_expired", message: "old" } }))
      const error = yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(8))).pipe(Effect.provide(failing.layer), Effect.flip)
      assert.strictEqual(error.serverCode, "init_data_expired")
      assert.deepStrictEqual(failing.requests, ["/api/auth/init"])
      assert.isFalse(phone.local.has("wallet:session"))
      const other = phone.tab(reopenServer(15, 43))
      const user = yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(8))).pipe(Effect.provide(other.layer))
      assert.strictEqual(user.id, 43)
      assert.deepStrictEqual(other.requests, ["/api/auth/init"])
      assert.strictEqual(JSON.parse(phone.local.get("wallet:session")!).telegramUserId, 8)
    }),
  )

  it.effect("a session stored for another server origin is not used", () =>
    Effect.gen(function* () {
      const phone = device()
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(phone.tab(reopenServer()).layer))
      const elsewhere = phone.tab(reopenServer(), { baseUrl: "http://other.test" })
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(elsewhere.layer))
      assert.deepStrictEqual(elsewhere.requests, ["/api/auth/init"])
      assert.strictEqual(JSON.parse(phone.local.get("wallet:session")!).origin, "http://other.test")
    }),
  )

  it.effect("a snapshot over 12 hours old, or of a new user, opens a new launch with init (its facts are refreshed)", () =>
    Effect.gen(function* () {
      const phone = device()
      const handler = reopenServer(24 * 60)
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(phone.tab(handler).layer))
      yield* TestClock.adjust("13 hours")
      const late = phone.tab(handler)
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(late.layer))
      assert.deepStrictEqual(late.requests, ["/api/auth/init"])
      const stored = JSON.parse(phone.local.get("wallet:session")!)
      phone.local.set("wallet:session", JSON.stringify({ ...stored, user: { ...stored.user, isNew: true } }))
      const onboarding = phone.tab(handler)
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(onboarding.layer))
      assert.deepStrictEqual(onboarding.requests, ["/api/auth/init"])
    }),
  )

  it.effect("reopen_logout_clears: logout clears the tab's and the device's copy; the next tab signs in", () =>
    Effect.gen(function* () {
      const phone = device()
      const first = phone.tab(reopenServer())
      yield* Effect.gen(function* () {
        const session = yield* Session
        yield* session.signIn(launchOf(7))
        assert.isTrue(phone.local.has("wallet:session"))
        assert.isTrue(first.own.has("wallet:session"))
        yield* session.signOut
      }).pipe(Effect.provide(first.layer))
      assert.isFalse(phone.local.has("wallet:session"))
      assert.isFalse(first.own.has("wallet:session"))
      const next = phone.tab(reopenServer())
      yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(next.layer))
      assert.deepStrictEqual(next.requests, ["/api/auth/init"])
    }),
  )

  it.effect("a session expired for good (refused refresh) clears the device's copy", () =>
    Effect.gen(function* () {
      const phone = device()
      let refuse = false
      const ok = reopenServer(5)
      const handler = (path: string, init: RequestInit, body: any) =>
        refuse && path === "/api/auth/refresh"
          ? { status: 401, body: { _tag: "Unauthorized", code: "session_revoked", message: "revoked" } }
          : ok(path, init, body)
      const first = phone.tab(handler)
      yield* Effect.gen(function* () {
        const session = yield* Session
        yield* session.signIn(launchOf(7))
        refuse = true
        yield* Effect.ignore(session.refresh)
      }).pipe(Effect.provide(first.layer))
      assert.isFalse(phone.local.has("wallet:session"))
      assert.isFalse(first.own.has("wallet:session"))
    }),
  )

  for (const [name, corrupt] of [
    ["not JSON", "{oops"],
    ["JSON of another shape", JSON.stringify({ v: 2, origin: "http://api.test", telegramUserId: 7, sessionId: 5 })],
    ["a user snapshot without its fields", JSON.stringify({ v: 2, user: { id: 42 } })],
  ] as const) {
    it.effect(`reopen_corrupt_storage_inits: ${name} in storage signs in with init and is replaced`, () =>
      Effect.gen(function* () {
        const phone = device()
        phone.local.set("wallet:session", corrupt)
        const tab = phone.tab(reopenServer())
        const user = yield* Effect.flatMap(Session, (s) => s.signIn(launchOf(7))).pipe(Effect.provide(tab.layer))
        assert.strictEqual(user.id, 42)
        assert.deepStrictEqual(tab.requests, ["/api/auth/init"])
        assert.strictEqual(JSON.parse(phone.local.get("wallet:session")!).v, 2)
      }),
    )
  }

  it.effect("two tabs refreshing together: the second takes the tokens the first rotated (no reuse of the old refresh token)", () =>
    Effect.gen(function* () {
      const phone = device()
      const handler = reopenServer(5)
      // One lock for the device, as the Web Locks API gives the tabs of one origin.
      let tail: Promise<unknown> = Promise.resolve()
      const locks: SessionLocks = {
        request: (_name, _options, callback) => {
          const run = tail.then(callback)
          tail = run.catch(() => undefined)
          return run
        },
      }
      const a = phone.tab(handler, { locks })
      const b = phone.tab(handler, { locks })
      yield* Effect.gen(function* () {
        const tabA = yield* Session
        yield* tabA.signIn(launchOf(7))
        yield* Effect.gen(function* () {
          const tabB = yield* Session
          yield* tabB.signIn(launchOf(7))
          assert.deepStrictEqual(b.requests, [])
          // Both tokens expire together: one tab refreshes, the other finds the rotated tokens in the device's copy.
          yield* Effect.all([tabA.refresh, tabB.refresh], { concurrency: 2 })
          assert.strictEqual([...a.requests, ...b.requests].filter((path) => path === "/api/auth/refresh").length, 1)
          assert.deepStrictEqual(yield* tabA.tokens.accessToken, yield* tabB.tokens.accessToken)
          assert.strictEqual(JSON.parse(phone.local.get("wallet:session")!).refreshToken, "r1+")
        }).pipe(Effect.provide(b.layer))
      }).pipe(Effect.provide(a.layer))
    }),
  )
})

describe("Session logout (issue 15, decision 0207)", () => {
  it.effect("logout revokes the session on the server with the access token, then forgets it here", () =>
    Effect.gen(function* () {
      const storage = new Map<string, string>()
      const { layer, requests } = server(
        (path) => (path === "/api/auth/init" ? { status: 200, body: initResponse(new Date(60 * 60_000).toISOString()) } : { status: 200, body: {} }),
        storage,
      )
      yield* Effect.gen(function* () {
        const session = yield* Session
        const events: SessionEvent[] = []
        session.onEvent((e) => events.push(e))
        yield* session.signIn("init-data")
        assert.isTrue(storage.has("wallet:session"))
        yield* session.signOut
        assert.deepStrictEqual(
          requests.map((r) => [r.url, r.authorization]),
          [
            ["/api/auth/init", "tma init-data"],
            ["/api/auth/logout", "Bearer a1"],
          ],
        )
        assert.deepStrictEqual(yield* session.tokens.accessToken, Option.none())
        assert.deepStrictEqual(yield* session.user, Option.none())
        assert.isFalse(storage.has("wallet:session"))
        assert.deepStrictEqual(events, [{ type: "expired", reason: "signed out" }])
      }).pipe(Effect.provide(layer))
    }),
  )

  it.effect("an expired access token is refreshed for the logout call; an unreachable server still signs out here", () =>
    Effect.gen(function* () {
      let down = false
      const { layer, requests } = server((path, _init, body) => {
        if (path === "/api/auth/init") return { status: 200, body: initResponse(new Date(5 * 60_000).toISOString()) }
        if (path === "/api/auth/refresh")
          return {
            status: 200,
            body: {
              session_id: "s1",
              access_token: "a2",
              access_token_expires_at: new Date(60 * 60_000).toISOString(),
              refresh_token: `${body.refresh_token}+`,
            },
          }
        return down ? { status: 502, body: {} } : { status: 200, body: {} }
      })
      yield* Effect.gen(function* () {
        const session = yield* Session
        yield* session.signIn("x")
        yield* session.tokens.markExpired
        yield* session.signOut
        assert.deepStrictEqual(
          requests.map((r) => [r.url, r.authorization]),
          [
            ["/api/auth/init", "tma x"],
            ["/api/auth/refresh", null],
            ["/api/auth/logout", "Bearer a2"],
          ],
        )
        down = true
        yield* session.signIn("y")
        yield* session.signOut
        assert.deepStrictEqual(yield* session.tokens.accessToken, Option.none())
      }).pipe(Effect.provide(layer))
    }),
  )
})

describe("startupFailure", () => {
  const err = (status: number | undefined, body?: unknown, code: HttpError["code"] = "UNKNOWN") => new HttpError({ code, message: "x", status, body })
  it("maps startup errors to the spec's screens", () => {
    assert.deepStrictEqual(startupFailure(err(403, { code: "content_unavailable" }), "init"), { to: "/unavailable" })
    assert.deepStrictEqual(startupFailure(err(403, { code: "online_user_limit_exceeded" }), "init"), { to: "/error", code: "online_user_limit_exceeded" })
    assert.deepStrictEqual(startupFailure(err(undefined, undefined, "ECONNABORTED"), "init"), { to: "/error", code: "online_user_limit_exceeded" })
    assert.deepStrictEqual(startupFailure(err(503), "init"), { to: "/error", code: "online_user_limit_exceeded" })
    assert.deepStrictEqual(startupFailure(err(503), "auth"), { to: "/error", code: "auth_failed" })
    assert.deepStrictEqual(startupFailure(err(404), "auth"), { to: "/error", code: "auth_failed" })
    assert.deepStrictEqual(startupFailure(err(401, { code: "user_not_found" }), "init"), { to: "/error", code: "init_failed" })
    assert.deepStrictEqual(startupFailure(err(401, { code: "user_not_found", detail: { reason: "attach_receiver_invalid" } }), "init"), {
      to: "/attach-private-chats-error",
    })
    assert.deepStrictEqual(startupFailure(err(401, { code: "init_data_invalid" }), "auth"), { to: "/error", code: "init_failed" })
  })
})

describe("isWalletGuardFailure (spec 1 §8: wallet guard failures are online_user_limit_exceeded)", () => {
  const err = (status: number | undefined, body?: unknown, code: HttpError["code"] = "UNKNOWN", timedOut?: boolean) =>
    new HttpError({ code, message: "x", status, body, ...(timedOut ? { timedOut } : {}) })
  it("a timeout, an abort, a 5xx or a 403 online_user_limit_exceeded is a guard failure", () => {
    assert.isTrue(isWalletGuardFailure(err(undefined, undefined, "ECONNABORTED", true)))
    assert.isTrue(isWalletGuardFailure(err(undefined, undefined, "ECONNABORTED")))
    assert.isTrue(isWalletGuardFailure(err(500)))
    assert.isTrue(isWalletGuardFailure(err(503)))
    assert.isTrue(isWalletGuardFailure(err(403, { code: "online_user_limit_exceeded" })))
  })
  it("offline, a 4xx or a foreign error is an ordinary load error", () => {
    assert.isFalse(isWalletGuardFailure(err(undefined, undefined, "ERR_NETWORK")))
    assert.isFalse(isWalletGuardFailure(err(404)))
    assert.isFalse(isWalletGuardFailure(err(403, { code: "permission_denied" })))
    assert.isFalse(isWalletGuardFailure(new Error("boom")))
  })
})

describe("checkSession: the auth check on re-activation (spec 1 §4)", () => {
  const signedIn = (revoked: { value: boolean }, userStatus = 200) => {
    const { requests, layer } = server((path) => {
      if (path === "/api/auth/init") return { status: 200, body: initResponse(new Date(60 * 60_000).toISOString()) }
      if (path === "/api/auth/refresh") return { status: 401, body: { _tag: "Unauthorized", code: "session_revoked", message: "revoked" } }
      return revoked.value ? { status: 401, body: { _tag: "Unauthorized", code: "session_revoked", message: "revoked" } } : { status: userStatus, body: {} }
    })
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      requests.push({ url: new URL(request.url).pathname, authorization: request.headers.get("authorization"), body: undefined })
      const path = new URL(request.url).pathname
      const status = revoked.value ? 401 : userStatus
      return new Response(JSON.stringify(path === "/api/users/me" && status === 401 ? { code: "session_revoked" } : {}), { status })
    }) as typeof globalThis.fetch
    const http = Http.layerTest(fetch).pipe(Layer.provide(Session.tokensLayer), Layer.provideMerge(layer))
    return { requests, layer: http }
  }

  it.effect("a live session answers ok, also before the user record exists (404)", () =>
    Effect.gen(function* () {
      for (const status of [200, 404]) {
        const { layer } = signedIn({ value: false }, status)
        yield* Effect.gen(function* () {
          const session = yield* Session
          const events: SessionEvent[] = []
          session.onEvent((e) => events.push(e))
          yield* session.signIn("x")
          assert.strictEqual(yield* checkSession(yield* Http, "http://api.test"), "ok")
          assert.deepStrictEqual(events, [])
        }).pipe(Effect.provide(layer))
      }
    }),
  )

  it.effect("session_revoked_on_reactivation: a revoked session ends with ONE expired event (the dialog opens once)", () =>
    Effect.gen(function* () {
      const revoked = { value: false }
      const { requests, layer } = signedIn(revoked)
      yield* Effect.gen(function* () {
        const session = yield* Session
        const events: SessionEvent[] = []
        session.onEvent((e) => events.push(e))
        yield* session.signIn("x")
        revoked.value = true
        assert.strictEqual(yield* checkSession(yield* Http, "http://api.test"), "expired")
        assert.deepStrictEqual(
          events.map((e) => e.type),
          ["expired"],
        )
        // The check went out with the session's bearer token, then tried one refresh.
        const check = requests.find((r) => r.url === "/api/users/me")!
        assert.strictEqual(check.authorization, "Bearer a1")
        assert.isTrue(requests.some((r) => r.url === "/api/auth/refresh"))
        assert.deepStrictEqual(yield* session.tokens.accessToken, Option.none())
      }).pipe(Effect.provide(layer))
    }),
  )
})
