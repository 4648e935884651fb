/**
 * `RateLimiter` (docs/decisions/0206): request limits per user and per client address whose state
 * lives in the database (`kernel_rate_limits`), so every server process on one database counts
 * against the same allowance.
 *
 * A bucket + key (e.g. "money:user" + "42") is one row holding a sliding-window counter: the hits
 * of the current fixed window and of the previous one; a request is allowed while
 * `previous * (time left in the window / window) + current <= limit`. Each consume is one atomic
 * upsert; concurrent consumes share one statement (`makeBatcher`, as the Ledger does), so under
 * load the limiter costs one round trip per batch, not per request. Refused attempts count too
 * (a client hammering the endpoint stays refused). Rows older than two windows mean nothing and
 * are pruned every ten minutes.
 *
 * Handlers call `enforceRateLimit(name, key)` with a named rule from `RateLimits` (defaults in
 * `defaultRateLimits`, set or switched off per server with `ServerOptions.rateLimits`); the
 * failure is the kernel's `RateLimited` (429, `Retry-After` header when the endpoint declares
 * `RateLimitedResponse`). Without a `RateLimiter` in context (unit tests of a module) it does
 * nothing.
 */
import { Context, Effect, Exit, Layer, Option, Schedule } from "effect"
import { HttpServerRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { RateLimited } from "@wallet/kernel/api"
import { bridgeTrustedProxies, clientAddress, normalizeAddress } from "../bridge/Bridge.ts"
import { makeBatcher, type Batcher } from "../ledger/batcher.ts"
import { ServerConfig } from "../services.ts"

/** At most `limit` requests per `windowSeconds` (sliding). */
export interface RateLimitRule {
  readonly limit: number
  readonly windowSeconds: number
}

/** The limits the kernel and the plugins apply, by name; `false` switches one off. */
export interface RateLimits {
  /** `POST /api/auth/init` per Telegram user id. */
  readonly authInitPerUser: RateLimitRule | false
  /** `POST /api/auth/init` per client address (the socket's peer, or the forwarded client behind a trusted proxy). */
  readonly authInitPerAddress: RateLimitRule | false
  /** Email codes issued per client address (the passcode plugin keeps its own per-user hourly limit). */
  readonly emailCodesPerAddress: RateLimitRule | false
  /** Money leaving a user: custody transfer and withdrawal creations per user, together. */
  readonly moneyPerUser: RateLimitRule | false
  /** Analytics event and meter batches per client address (docs/decisions/0350). */
  readonly analyticsPerAddress: RateLimitRule | false
}
export type RateLimitName = keyof RateLimits

/**
 * Defaults (docs/decisions/0206): far above what a person does in the app, and above what the
 * server and browser test suites do from one address; benchmarks switch them off.
 */
export const defaultRateLimits: RateLimits = {
  authInitPerUser: { limit: 60, windowSeconds: 60 },
  authInitPerAddress: { limit: 600, windowSeconds: 60 },
  emailCodesPerAddress: { limit: 100, windowSeconds: 3600 },
  moneyPerUser: { limit: 60, windowSeconds: 60 },
  analyticsPerAddress: { limit: 600, windowSeconds: 60 },
}

/** `ServerOptions.rateLimits`: `false` switches every limit off; an object overrides some (a rule, or `false` for that one). */
export type RateLimitsOption = false | { readonly [K in RateLimitName]?: RateLimitRule | false }

const validRule = (rule: unknown): rule is RateLimitRule =>
  typeof rule === "object" &&
  rule !== null &&
  Number.isSafeInteger((rule as RateLimitRule).limit) &&
  (rule as RateLimitRule).limit >= 1 &&
  Number.isSafeInteger((rule as RateLimitRule).windowSeconds) &&
  (rule as RateLimitRule).windowSeconds >= 1

/** The effective limits: the defaults with the overrides; a malformed rule is refused at boot. */
export const resolveRateLimits = (option: RateLimitsOption | undefined): RateLimits => {
  if (option === false)
    return { authInitPerUser: false, authInitPerAddress: false, emailCodesPerAddress: false, moneyPerUser: false, analyticsPerAddress: false }
  const limits: Record<string, RateLimitRule | false> = { ...defaultRateLimits }
  for (const [name, rule] of Object.entries(option ?? {})) {
    if (!(name in defaultRateLimits)) throw new Error(`rateLimits: unknown limit "${name}" (known: ${Object.keys(defaultRateLimits).join(", ")})`)
    if (rule !== false && !validRule(rule)) throw new Error(`rateLimits.${name}: expected false or { limit >= 1, windowSeconds >= 1 } (integers)`)
    limits[name] = rule
  }
  return limits as unknown as RateLimits
}

/** Bucket names in the table, one per rule. */
const BUCKETS: Record<RateLimitName, string> = {
  authInitPerUser: "auth_init:user",
  authInitPerAddress: "auth_init:address",
  emailCodesPerAddress: "email_codes:address",
  moneyPerUser: "money:user",
  analyticsPerAddress: "analytics:address",
}

export interface RateLimiterShape {
  /** The effective limits of this server. */
  readonly limits: RateLimits
  /** Proxies whose `X-Forwarded-For` is believed (see `requestAddress`). */
  readonly trustedProxies: ReadonlySet<string>
  /** Counts one request of `key` in `bucket`; fails when it is over `rule`. */
  readonly consume: (bucket: string, key: string, rule: RateLimitRule) => Effect.Effect<void, RateLimited>
  /** Deletes rows that no longer count (older than two windows); returns how many. */
  readonly prune: Effect.Effect<number>
}

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()("wallet/server/RateLimiter") {
  /** The limiter over the server's database; `options.rateLimits` and `options.trustedProxies` as `ServerOptions` has them. */
  static readonly layer = (options: { readonly rateLimits?: RateLimitsOption; readonly trustedProxies?: ReadonlyArray<string> } = {}) =>
    Layer.effect(RateLimiter, makeRateLimiter(options))
}

interface Consume {
  readonly bucket: string
  readonly key: string
  readonly rule: RateLimitRule
}

/** What one consume saw: the counts after it, in the window starting at `windowStart` (s). */
interface Seen {
  readonly hits: number
  readonly previousHits: number
  readonly windowStart: number
}

/**
 * Allowed when `previous * left/window + hits <= limit`; else the seconds until one more request
 * would be allowed if none came meanwhile (within this window while the previous one's weight
 * fades, else in the next one, where this window's hits fade).
 */
export const judge = (
  seen: Seen,
  rule: RateLimitRule,
  nowMs: number,
): { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number } => {
  const windowMs = rule.windowSeconds * 1000
  const endMs = (seen.windowStart + rule.windowSeconds) * 1000
  const leftMs = Math.min(windowMs, Math.max(0, endMs - nowMs))
  if (seen.previousHits * leftMs + seen.hits * windowMs <= rule.limit * windowMs) return { allowed: true }
  const room = rule.limit - seen.hits - 1
  const at =
    room >= 0 && seen.previousHits > 0
      ? endMs - (room * windowMs) / seen.previousHits
      : endMs + windowMs - (Math.max(0, rule.limit - 1) * windowMs) / Math.max(1, seen.hits)
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((at - nowMs) / 1000)) }
}

const limited = (retryAfterSeconds: number) =>
  new RateLimited({ code: "rate_limit_exceeded", message: `Too many requests: retry in ${retryAfterSeconds} s`, retryAfterSeconds })

const makeRateLimiter = (options: { readonly rateLimits?: RateLimitsOption; readonly trustedProxies?: ReadonlyArray<string> }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const limits = resolveRateLimits(options.rateLimits)
    // One setting for every per-address limit: the server's, else the bridge's (docs/decisions/0741).
    const trustedProxies =
      options.trustedProxies !== undefined ? new Set(options.trustedProxies.map(normalizeAddress)) : bridgeTrustedProxies(config.pluginConfig)

    /** Every consume of a batch in one upsert; the same bucket + key twice counts twice. */
    const consumeMany = (items: ReadonlyArray<Consume>) =>
      Effect.gen(function* () {
        const nowMs = config.now()
        const groups = new Map<string, { readonly bucket: string; readonly key: string; readonly windowSeconds: number; readonly members: Array<number> }>()
        items.forEach((item, index) => {
          const id = `${item.bucket}\u0000${item.key}`
          const group = groups.get(id)
          if (group === undefined) groups.set(id, { bucket: item.bucket, key: item.key, windowSeconds: item.rule.windowSeconds, members: [index] })
          else group.members.push(index)
        })
        const list = [...groups.values()]
        const windowStart = (windowSeconds: number) => Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds
        const rows = yield* sql.unsafe<{ bucket: string; key: string; hits: string | number; previous_hits: string | number; window_start: string | number }>(
          `insert into kernel_rate_limits as r (bucket, key, window_start, window_seconds, hits, previous_hits, expires_at)
           select bucket, key, window_start, window_seconds, hits, 0, to_timestamp(window_start + 2 * window_seconds)
             from unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::bigint[]) as v(bucket, key, window_start, window_seconds, hits)
           on conflict (bucket, key) do update set
             previous_hits = case
               when excluded.window_start <= r.window_start then r.previous_hits
               when excluded.window_start - r.window_start = excluded.window_seconds then r.hits
               else 0 end,
             hits = case when excluded.window_start > r.window_start then excluded.hits else r.hits + excluded.hits end,
             window_start = greatest(r.window_start, excluded.window_start),
             window_seconds = excluded.window_seconds,
             expires_at = greatest(r.expires_at, excluded.expires_at)
           returning bucket, key, hits, previous_hits, window_start`,
          [
            list.map((group) => group.bucket),
            list.map((group) => group.key),
            list.map((group) => windowStart(group.windowSeconds)),
            list.map((group) => group.windowSeconds),
            list.map((group) => group.members.length),
          ],
        )
        const answers: Array<Exit.Exit<void, RateLimited>> = []
        for (const row of rows) {
          const group = groups.get(`${row.bucket}\u0000${row.key}`)!
          const total = Number(row.hits)
          // The members counted in order: the first of n saw total - n + 1 hits.
          group.members.forEach((index, n) => {
            const seen = { hits: total - group.members.length + n + 1, previousHits: Number(row.previous_hits), windowStart: Number(row.window_start) }
            const verdict = judge(seen, items[index]!.rule, nowMs)
            answers[index] = verdict.allowed ? Exit.void : Exit.fail(limited(verdict.retryAfterSeconds))
          })
        }
        return answers
      })

    const batcher: Batcher<Consume, void, RateLimited> = yield* makeBatcher({ execute: consumeMany })

    const consume: RateLimiterShape["consume"] = (bucket, key, rule) =>
      Effect.gen(function* () {
        // Inside a caller's transaction (and on PGlite's one connection) run here, not in a worker.
        const inTransaction = Option.isSome(yield* Effect.serviceOption(sql.transactionService))
        if (!inTransaction) return yield* batcher.run({ bucket, key, rule })
        const [exit] = yield* Effect.orDie(consumeMany([{ bucket, key, rule }]))
        return yield* exit!
      })

    const prune = Effect.suspend(
      () =>
        sql<{
          n: number
        }>`with d as (delete from kernel_rate_limits where expires_at < ${new Date(config.now())} returning 1) select count(*)::int as n from d`,
    ).pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0)),
      Effect.orDie,
    )

    yield* Effect.forkScoped(prune.pipe(Effect.ignore, Effect.repeat(Schedule.spaced(PRUNE_INTERVAL))))
    return RateLimiter.of({ limits, trustedProxies, consume, prune })
  })

const PRUNE_INTERVAL = "10 minutes"

/**
 * The client address of the current request: the socket's peer, or, when that peer is a trusted
 * proxy, the right-most `X-Forwarded-For` hop that is not one (docs/decisions/0741). Undefined
 * outside a request.
 */
export const requestAddress: Effect.Effect<string | undefined> = Effect.gen(function* () {
  const request = yield* Effect.serviceOption(HttpServerRequest.HttpServerRequest)
  if (Option.isNone(request)) return undefined
  const limiter = yield* Effect.serviceOption(RateLimiter)
  const trusted = Option.isSome(limiter) ? limiter.value.trustedProxies : new Set<string>()
  const peer = Option.orElse(request.value.peerAddress, () => request.value.remoteAddress)
  const forwarded = request.value.headers["x-forwarded-for"]
  return clientAddress(
    Option.getOrElse(peer, () => "unknown"),
    forwarded,
    trusted,
  )
})

/**
 * Counts one request against the named limit for `key` (a user id or an address); fails with
 * `RateLimited` when over it. Nothing happens when the limit is off, the key is unknown, or no
 * `RateLimiter` is in context.
 */
export const enforceRateLimit = (name: RateLimitName, key: string | number | undefined): Effect.Effect<void, RateLimited> =>
  Effect.gen(function* () {
    if (key === undefined) return
    const limiter = yield* Effect.serviceOption(RateLimiter)
    if (Option.isNone(limiter)) return
    const rule = limiter.value.limits[name]
    if (rule === false) return
    // A forwarded address is text from outside: bounded before it becomes a key.
    yield* limiter.value.consume(BUCKETS[name], String(key).slice(0, 200), rule)
  })

/** `enforceRateLimit` for the current request's client address. */
export const enforceAddressRateLimit = (name: RateLimitName): Effect.Effect<void, RateLimited> =>
  Effect.flatMap(requestAddress, (address) => enforceRateLimit(name, address))

/**
 * The process environment's settings for `ServerOptions`: RATE_LIMITS (`off`, or JSON overrides
 * such as `{"moneyPerUser":{"limit":120,"windowSeconds":60}}`) and TRUSTED_PROXIES (comma-separated
 * addresses). A bad value throws: the server must not start on a limit it cannot honour.
 */
export const rateLimitOptionsFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
): { readonly rateLimits?: RateLimitsOption; readonly trustedProxies?: ReadonlyArray<string> } => {
  const options: { rateLimits?: RateLimitsOption; trustedProxies?: ReadonlyArray<string> } = {}
  const raw = env.RATE_LIMITS?.trim()
  if (raw) {
    if (raw === "off") options.rateLimits = false
    else {
      let parsed: unknown
      try {
        parsed = JSON.parse(raw)
      } catch {
        throw new Error(`RATE_LIMITS must be "off" or a JSON object of limits (got "${raw}")`)
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error(`RATE_LIMITS must be "off" or a JSON object of limits (got "${raw}")`)
      resolveRateLimits(parsed as RateLimitsOption)
      options.rateLimits = parsed as RateLimitsOption
    }
  }
  const proxies = env.TRUSTED_PROXIES?.split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  if (proxies !== undefined && proxies.length > 0) options.trustedProxies = proxies
  return options
}
