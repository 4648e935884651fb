/**
 * Rate limits in the database (docs/decisions/0206): the sliding-window arithmetic, the batched
 * upsert (concurrent consumes of one key count exactly), the prune, and sign-in limits shared by
 * two server processes on one PostgreSQL, answered with 429 JSON and `Retry-After`.
 */
import { Effect, Exit, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TelegramUser } from "@wallet/kernel/api"
import * as Db from "../db/Db.ts"
import { runMigrations } from "../db/migrations.ts"
import { signInitData } from "../kernel/initData.ts"
import { kernelModule } from "../kernel/module.ts"
import { startServer, type RunningServer } from "../server.ts"
import { startTestDatabase, testDatabases, type TestDatabase } from "../testing/databases.ts"
import { testServerConfig } from "../testing/config.ts"
import { judge, rateLimitOptionsFromEnv, RateLimiter, resolveRateLimits } from "./RateLimiter.ts"

const BOT_TOKEN = "1111111111:rate-limit-test"
/** 10 s into a minute window. */
const clock = { now: Date.UTC(2026, 0, 10, 12, 0, 10) }
let nextUserId = 6_100_000_000

const telegramUser = (): TelegramUser => ({ id: nextUserId++, first_name: "Limited" })
const initDataFor = (user: TelegramUser) =>
  signInitData({ user, authDate: new Date(clock.now), queryId: `AA${Math.random().toString(36).slice(2)}`, chatType: "sender" }, BOT_TOKEN)

describe("sliding window", () => {
  const rule = { limit: 10, windowSeconds: 60 }
  const start = 1_000_020 // a multiple of 60 (s)
  const at = (seconds: number) => (start + seconds) * 1000

  it("allows up to the limit in a window and weighs the previous window by the time left", () => {
    expect(judge({ hits: 10, previousHits: 0, windowStart: start }, rule, at(5))).toEqual({ allowed: true })
    // 11 in this window: the next one is allowed once this window's hits fade: 11 * (60 - t)/60 + 1 <= 10 -> t >= 11 s into the next window.
    expect(judge({ hits: 11, previousHits: 0, windowStart: start }, rule, at(5))).toEqual({ allowed: false, retryAfterSeconds: 55 + 11 })
    // Half the window left with 10 in the previous one: 5 + 5 = 10 allowed, 5 + 6 refused until 6 * ... : 10 * left/60 <= 10 - 6 - 1 -> left <= 18 s.
    expect(judge({ hits: 5, previousHits: 10, windowStart: start }, rule, at(30))).toEqual({ allowed: true })
    expect(judge({ hits: 6, previousHits: 10, windowStart: start }, rule, at(30))).toEqual({ allowed: false, retryAfterSeconds: 12 })
    // Late in the window the previous one hardly counts.
    expect(judge({ hits: 9, previousHits: 10, windowStart: start }, rule, at(59))).toEqual({ allowed: true })
  })

  it("reads limits: defaults, overrides, all off, and refuses malformed rules", () => {
    expect(resolveRateLimits(undefined).moneyPerUser).toEqual({ limit: 60, windowSeconds: 60 })
    expect(resolveRateLimits({ moneyPerUser: false, authInitPerUser: { limit: 1, windowSeconds: 5 } })).toMatchObject({
      moneyPerUser: false,
      authInitPerUser: { limit: 1, windowSeconds: 5 },
      authInitPerAddress: { limit: 600, windowSeconds: 60 },
    })
    expect(Object.values(resolveRateLimits(false)).every((each) => each === false)).toBe(true)
    expect(() => resolveRateLimits({ moneyPerUser: { limit: 0, windowSeconds: 60 } })).toThrow(/moneyPerUser/)
    expect(() => resolveRateLimits({ nope: false } as never)).toThrow(/unknown limit/)
  })

  it("reads RATE_LIMITS and TRUSTED_PROXIES from the environment", () => {
    expect(rateLimitOptionsFromEnv({})).toEqual({})
    expect(rateLimitOptionsFromEnv({ RATE_LIMITS: "off", TRUSTED_PROXIES: " 10.0.0.1, ::1 ," })).toEqual({
      rateLimits: false,
      trustedProxies: ["10.0.0.1", "::1"],
    })
    expect(rateLimitOptionsFromEnv({ RATE_LIMITS: '{"moneyPerUser":{"limit":120,"windowSeconds":60}}' })).toEqual({
      rateLimits: { moneyPerUser: { limit: 120, windowSeconds: 60 } },
    })
    expect(() => rateLimitOptionsFromEnv({ RATE_LIMITS: "on" })).toThrow(/RATE_LIMITS/)
    expect(() => rateLimitOptionsFromEnv({ RATE_LIMITS: '{"moneyPerUser":{"limit":-1,"windowSeconds":60}}' })).toThrow(/moneyPerUser/)
  })
})

describe.each(testDatabases)("RateLimiter on %s", (kind) => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<RateLimiter | SqlClient.SqlClient, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, RateLimiter | SqlClient.SqlClient>) => runtime.runPromise(effect)

  beforeAll(async () => {
    database = await startTestDatabase(kind)
    const config = testServerConfig(() => clock.now, { botToken: Redacted.make(BOT_TOKEN), refreshTokenTtlSeconds: 3600 })
    const base = Layer.mergeAll(Db.layer(database.options), config)
    runtime = ManagedRuntime.make(RateLimiter.layer().pipe(Layer.provideMerge(base)))
    await run(runMigrations([{ id: "kernel", migrations: kernelModule.migrations }]))
  }, 90_000)
  afterAll(async () => {
    await runtime?.dispose()
    await database?.stop()
  })

  it("counts concurrent consumes of one key exactly (one batched upsert), then prunes the row once it no longer counts", async () => {
    const rule = { limit: 5, windowSeconds: 60 }
    const exits = await run(
      Effect.flatMap(Effect.service(RateLimiter), (limiter) =>
        Effect.all(
          Array.from({ length: 12 }, () => Effect.exit(limiter.consume("test:batch", "k1", rule))),
          { concurrency: "unbounded" },
        ),
      ),
    )
    expect(exits.filter(Exit.isSuccess)).toHaveLength(5)
    const refused = exits.find(Exit.isFailure)!
    expect(refused.cause.reasons[0]?._tag === "Fail" ? refused.cause.reasons[0].error : undefined).toMatchObject({
      _tag: "RateLimited",
      code: "rate_limit_exceeded",
    })
    // Another key has its own allowance.
    await run(Effect.flatMap(Effect.service(RateLimiter), (limiter) => limiter.consume("test:batch", "k2", rule)))

    const saved = clock.now
    try {
      clock.now += 60_000
      expect(await run(Effect.flatMap(Effect.service(RateLimiter), (limiter) => limiter.prune))).toBe(0)
      clock.now += 120_000 // two windows after the rows' window: they no longer count
      expect(await run(Effect.flatMap(Effect.service(RateLimiter), (limiter) => limiter.prune))).toBe(2)
    } finally {
      clock.now = saved
    }
  })
})

describe("sign-in limits shared by two server processes on one PostgreSQL", () => {
  let database: TestDatabase | undefined
  let missing: string | undefined
  let first: RunningServer
  let second: RunningServer

  beforeAll(async () => {
    try {
      database = await startTestDatabase("postgres")
    } catch (error) {
      missing = error instanceof Error ? error.message : String(error)
      return
    }
    const options = {
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock.now,
      rateLimits: { authInitPerUser: { limit: 2, windowSeconds: 60 }, authInitPerAddress: { limit: 5, windowSeconds: 60 } },
    }
    first = await startServer(options)
    second = await startServer(options)
  }, 120_000)
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await database?.stop()
  })

  const init = (server: RunningServer, initData: string) =>
    fetch(`${server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initData}` } })

  it("refuses the third sign-in of a user and the sixth from an address across both servers, with 429 JSON and Retry-After", async (context) => {
    if (missing !== undefined) return context.skip(`no PostgreSQL: ${missing}`)
    const user = telegramUser()
    expect((await init(first, initDataFor(user))).status).toBe(200)
    expect((await init(second, initDataFor(user))).status).toBe(200)
    const refusedInitData = initDataFor(user)
    const refused = await init(first, refusedInitData)
    expect(refused.status).toBe(429)
    // 3 in this window: allowed again once 3 * (60 - t)/60 + 1 <= 2, 40 s into the next window; now 10 s into this one.
    expect(refused.headers.get("retry-after")).toBe("90")
    expect(await refused.json()).toEqual({ _tag: "RateLimited", code: "rate_limit_exceeded", message: expect.any(String), retryAfterSeconds: 90 })

    // The address: 3 sign-ins so far; two more users pass, the next is refused (whichever server).
    expect((await init(second, initDataFor(telegramUser()))).status).toBe(200)
    expect((await init(first, initDataFor(telegramUser()))).status).toBe(200)
    const byAddress = await init(second, initDataFor(telegramUser()))
    expect(byAddress.status).toBe(429)
    expect(Number(byAddress.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await byAddress.json()).toMatchObject({ _tag: "RateLimited", code: "rate_limit_exceeded" })

    // Once the windows have passed, the refused initData was not spent: it signs in.
    const saved = clock.now
    try {
      clock.now += 120_000
      expect((await init(second, refusedInitData)).status).toBe(200)
    } finally {
      clock.now = saved
    }
  })
})

describe("per-address limits behind a trusted proxy", () => {
  let server: RunningServer
  let direct: RunningServer

  beforeAll(async () => {
    const options = {
      port: 0,
      database: { kind: "pglite" } as const,
      botToken: BOT_TOKEN,
      now: () => clock.now,
      rateLimits: { authInitPerAddress: { limit: 1, windowSeconds: 60 } },
    }
    server = await startServer({ ...options, trustedProxies: ["127.0.0.1", "::1"] })
    direct = await startServer(options)
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await direct?.close()
  })

  const init = (target: RunningServer, forwardedFor: string) =>
    fetch(`${target.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${initDataFor(telegramUser())}`, "x-forwarded-for": forwardedFor } })

  it("counts the forwarded client when the peer is a trusted proxy, and never believes the header otherwise", async () => {
    expect((await init(server, "198.51.100.7")).status).toBe(200)
    expect((await init(server, "198.51.100.8")).status).toBe(200)
    // A hop the client wrote further left does not pick the address.
    expect((await init(server, "203.0.113.1, 198.51.100.7")).status).toBe(429)
    // Without trusted proxies every request counts against the socket's peer.
    expect((await init(direct, "198.51.100.7")).status).toBe(200)
    expect((await init(direct, "198.51.100.9")).status).toBe(429)
  })
})
