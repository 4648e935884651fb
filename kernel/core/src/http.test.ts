import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Ref, Schema } from "effect"
import { TestClock } from "effect/testing"
import { AuthTokens, Http, HttpError, httpRetryDelayMs, httpStatusClass, ReauthenticationRequired } from "./http.ts"

type Reply = { status: number; body?: unknown } | "network-error" | "abort" | "bad-json"

/** A scripted fetch that records what it was asked. */
const scriptedFetch = (replies: Reply[]) => {
  const calls: Array<{ url: string; authorization: string | null }> = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    calls.push({ url: request.url, authorization: request.headers.get("authorization") })
    const reply = replies.shift() ?? { status: 200, body: {} }
    if (reply === "network-error") throw new TypeError("Failed to fetch")
    if (reply === "abort") throw new DOMException("The operation was aborted.", "AbortError")
    if (reply === "bad-json") return new Response("{not json", { status: 200, headers: { "content-type": "application/json" } })
    return new Response(JSON.stringify(reply.body ?? {}), { status: reply.status, headers: { "content-type": "application/json" } })
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

const tokens = (state: { token: string; refreshes: number; expired: number; reauth: string[]; refreshFails?: boolean }) =>
  Layer.succeed(AuthTokens, {
    accessToken: Effect.sync(() => Option.some(state.token)),
    markExpired: Effect.sync(() => void state.expired++),
    refresh: Effect.suspend(() => {
      state.refreshes++
      if (state.refreshFails) return Effect.fail(new ReauthenticationRequired({ reason: "failed to refresh token" }))
      state.token = `token-${state.refreshes + 1}`
      return Effect.void
    }),
    reauthenticate: (reason) => Effect.sync(() => void state.reauth.push(reason)),
  })

const get = (url: string) => Effect.flatMap(Http, (http) => http.json(Schema.Unknown, url))

const run = (replies: Reply[], state = { token: "token-1", refreshes: 0, expired: 0, reauth: [] as string[] }) => {
  const scripted = scriptedFetch(replies)
  const layer = Http.layerTest(scripted.fetch).pipe(Layer.provide(tokens(state)))
  return { ...scripted, state, layer }
}

describe("Http policy", () => {
  it("computes the spec's retry delays: 1 s, then min(2^(n-1) * 5 s, 30 s)", () => {
    assert.deepStrictEqual([1, 2, 3, 4, 5].map(httpRetryDelayMs), [1000, 10_000, 20_000, 30_000, 30_000])
  })

  it("classifies statuses", () => {
    assert.deepStrictEqual([100, 204, 302, 404, 503].map(httpStatusClass), ["success", "success", "redirect", "client-error", "server-error"])
  })

  it.effect("retries a 503 twice with 1 s then 10 s delays, then succeeds", () =>
    Effect.gen(function* () {
      const { calls, layer } = run([{ status: 503 }, { status: 503 }, { status: 200, body: { ok: true } }])
      const fiber = yield* get("http://api.test/x").pipe(Effect.provide(layer), Effect.forkChild)
      yield* TestClock.adjust("999 millis")
      assert.strictEqual(calls.length, 1)
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(calls.length, 2)
      yield* TestClock.adjust("9999 millis")
      assert.strictEqual(calls.length, 2)
      yield* TestClock.adjust("1 millis")
      const body = yield* Fiber.join(fiber)
      assert.deepStrictEqual(body, { ok: true })
      assert.strictEqual(calls.length, 3)
    }),
  )

  it.effect("gives up after 2 retries with UNKNOWN 'Unknown Error: 429'", () =>
    Effect.gen(function* () {
      const { calls, layer } = run([{ status: 429 }, { status: 429 }, { status: 429 }, { status: 200 }])
      const fiber = yield* get("http://api.test/x").pipe(Effect.provide(layer), Effect.flip, Effect.forkChild)
      yield* TestClock.adjust("60 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error.code, "UNKNOWN")
      assert.strictEqual(error.message, "Unknown Error: 429")
      assert.strictEqual(calls.length, 3)
    }),
  )

  it.effect("does not retry other client errors and keeps the server's error body", () =>
    Effect.gen(function* () {
      const { calls, layer } = run([{ status: 403, body: { code: "content_unavailable" } }])
      const error = yield* get("http://api.test/x").pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(error.status, 403)
      assert.strictEqual(error.statusClass, "client-error")
      assert.strictEqual(error.serverCode, "content_unavailable")
      assert.strictEqual(calls.length, 1)
    }),
  )

  it.effect("classifies a network failure as ERR_NETWORK, an abort as ECONNABORTED (never retried), bad JSON as ERR_BAD_RESPONSE", () =>
    Effect.gen(function* () {
      const network = run(["network-error"])
      const e1 = yield* get("http://api.test/x").pipe(Effect.provide(network.layer), Effect.flip)
      assert.strictEqual(e1.code, "ERR_NETWORK")
      const aborted = run(["abort", { status: 200 }])
      const e2 = yield* get("http://api.test/x").pipe(Effect.provide(aborted.layer), Effect.flip)
      assert.strictEqual(e2.code, "ECONNABORTED")
      assert.strictEqual(aborted.calls.length, 1)
      const bad = run(["bad-json"])
      const e3 = yield* get("http://api.test/x").pipe(Effect.provide(bad.layer), Effect.flip)
      assert.strictEqual(e3.code, "ERR_BAD_RESPONSE")
    }),
  )

  it.effect("on a 401 marks the token expired, refreshes and retries once with the new token", () =>
    Effect.gen(function* () {
      const { calls, layer, state } = run([{ status: 401 }, { status: 200, body: { me: 1 } }])
      const body = yield* get("http://api.test/me").pipe(Effect.provide(layer))
      assert.deepStrictEqual(body, { me: 1 })
      assert.deepStrictEqual(
        calls.map((c) => c.authorization),
        ["Bearer token-1", "Bearer token-2"],
      )
      assert.strictEqual(state.expired, 1)
      assert.strictEqual(state.refreshes, 1)
      assert.deepStrictEqual(state.reauth, [])
    }),
  )

  it.effect("a second 401 forces re-authentication", () =>
    Effect.gen(function* () {
      const { calls, layer, state } = run([{ status: 401 }, { status: 401 }, { status: 200 }])
      const error = yield* get("http://api.test/me").pipe(Effect.provide(layer), Effect.flip)
      assert.instanceOf(error, HttpError)
      assert.strictEqual(error.status, 401)
      assert.strictEqual(calls.length, 2)
      assert.deepStrictEqual(state.reauth, ["second 401"])
    }),
  )

  it.effect("a failed refresh forces re-authentication without a second call", () =>
    Effect.gen(function* () {
      const state = { token: "t", refreshes: 0, expired: 0, reauth: [] as string[], refreshFails: true }
      const { calls, layer } = run([{ status: 401 }, { status: 200 }], state)
      yield* get("http://api.test/me").pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(calls.length, 1)
      assert.deepStrictEqual(state.reauth, ["failed to refresh token"])
    }),
  )

  it.effect("decodes with the schema: a body of the wrong shape is ERR_BAD_RESPONSE", () =>
    Effect.gen(function* () {
      const { layer } = run([
        { status: 200, body: { balance: "12" } },
        { status: 200, body: { balance: 12 } },
      ])
      const Balance = Schema.Struct({ balance: Schema.Number })
      const call = Effect.flatMap(Http, (http) => http.json(Balance, "http://api.test/balance"))
      const error = yield* call.pipe(Effect.provide(layer), Effect.flip)
      assert.strictEqual(error.code, "ERR_BAD_RESPONSE")
    }),
  )

  it("as a fetch function, answers with the final response after the policy ran", async () => {
    const { fetch, calls } = scriptedFetch([{ status: 503 }, { status: 404, body: { code: "not_found" } }])
    const state = { token: "token-1", refreshes: 0, expired: 0, reauth: [] as string[] }
    const http = await Effect.runPromise(
      Effect.provide(
        Effect.map(Http, (h) => h),
        Http.layerTest(fetch).pipe(Layer.provide(tokens(state))),
      ),
    )
    const response = await http.fetch("http://api.test/missing")
    assert.strictEqual(response.status, 404)
    assert.deepStrictEqual(await response.json(), { code: "not_found" })
    assert.strictEqual(calls.length, 2)
  })

  it.effect("times out a hanging request and retries it as a timeout", () =>
    Effect.gen(function* () {
      const attempts = yield* Ref.make(0)
      const hanging = (async (_input: RequestInfo | URL, init?: RequestInit) => {
        await Effect.runPromise(Ref.update(attempts, (n) => n + 1))
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))
      }) as typeof globalThis.fetch
      const layer = Http.layerTest(hanging, { timeoutMs: 5000 }).pipe(Layer.provide(AuthTokens.none))
      const fiber = yield* get("http://api.test/slow").pipe(Effect.provide(layer), Effect.flip, Effect.forkChild)
      yield* TestClock.adjust("5 seconds")
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust("5 seconds")
      yield* TestClock.adjust("10 seconds")
      yield* TestClock.adjust("5 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error.code, "ECONNABORTED")
      assert.strictEqual(error.message, "Request timed out after 5000 ms")
      assert.strictEqual(yield* Ref.get(attempts), 3)
    }),
  )
})
