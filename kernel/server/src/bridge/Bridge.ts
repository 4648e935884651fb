/**
 * The TonConnect v2 HTTP bridge store and fan-out (`BridgeHub`).
 *
 * `bridge_messages` is the source of truth: every posted message is a row kept until its TTL, and
 * an SSE connection reads the rows of its client ids after its cursor (the last event id). Rows
 * are inserted one at a time under a transaction-scoped advisory lock, so ids become visible in
 * id order and a cursor never skips a row that commits later with a smaller id.
 *
 * Fan-out only wakes connections up: a post wakes the local subscribers of its recipient, and on
 * PostgreSQL a `NOTIFY bridge_messages, '<client id>'` in the same transaction wakes them in every
 * other server process (each process keeps one `LISTEN` connection). PGlite serves one process, so
 * there the local wake is all there is. See docs/decisions/0700-bridge-table-and-notify.md.
 */
import { PgClient } from "@effect/sql-pg"
import { type Cause, Context, Effect, Layer, Option, Queue, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { decodeInt8 } from "../db/Db.ts"
import type { Migration } from "../db/migrations.ts"
import { ServerConfig } from "../services.ts"

export const BRIDGE_CHANNEL = "bridge_messages"
/** How often open streams check that their HTTP server still serves. */
const SHUTDOWN_CHECK_MS = 250
/** Arbitrary constant key for pg_advisory_xact_lock: "bridge inserts". */
const INSERT_LOCK_KEY = 7_261_000_700

/** Limits and timings; a region overrides any of them with `pluginConfig.bridge`. */
export interface BridgeLimits {
  /** Largest accepted body of `POST /message`, in bytes (413 above). */
  readonly maxBodyBytes: number
  /** Longest accepted ttl in seconds (the protocol's 300). */
  readonly maxTtlSeconds: number
  /** Open SSE connections per remote address (429 above). */
  readonly maxConnectionsPerIp: number
  /** Client ids one SSE connection may subscribe to. */
  readonly maxClientIdsPerConnection: number
  /** `POST /message` per remote address: a bucket of `burst` refilled at `perSecond`. */
  readonly messagesPerSecond: number
  readonly messagesBurst: number
  /**
   * `GET /events` opens per remote address: a bucket of `eventsBurst` (by default the connection
   * limit, so a client may open all its streams at once) refilled at `eventsPerSecond`. Stops a
   * client that reconnects in a loop from costing a replay query each time.
   */
  readonly eventsPerSecond: number
  readonly eventsBurst: number
  /** SSE heartbeat period in milliseconds. */
  readonly heartbeatMs: number
  /** How often expired rows are deleted, in milliseconds. */
  readonly cleanupMs: number
  /** Longest topic accepted (characters). */
  readonly maxTopicLength: number
}

export const defaultBridgeLimits: BridgeLimits = {
  maxBodyBytes: 64 * 1024,
  maxTtlSeconds: 300,
  maxConnectionsPerIp: 64,
  maxClientIdsPerConnection: 64,
  messagesPerSecond: 20,
  messagesBurst: 100,
  eventsPerSecond: 10,
  eventsBurst: 64,
  heartbeatMs: 15_000,
  cleanupMs: 60_000,
  maxTopicLength: 64,
}

export const bridgeLimits = (pluginConfig: Readonly<Record<string, object | undefined>>): BridgeLimits => {
  const override = (pluginConfig.bridge ?? {}) as Partial<Record<keyof BridgeLimits, unknown>>
  const limits: Record<string, number> = { ...defaultBridgeLimits }
  for (const key of Object.keys(defaultBridgeLimits)) {
    const value = override[key as keyof BridgeLimits]
    if (typeof value === "number" && Number.isFinite(value) && value > 0) limits[key] = value
  }
  if (override.eventsBurst === undefined) limits.eventsBurst = limits.maxConnectionsPerIp!
  return limits as unknown as BridgeLimits
}

/**
 * Addresses of the reverse proxies in front of this server (`pluginConfig.bridge.trustedProxies`,
 * e.g. `["127.0.0.1", "::1"]`): a request from one of them is counted against the client address
 * it forwards in `X-Forwarded-For`, so the per-address limits apply per client, not per proxy.
 */
export const bridgeTrustedProxies = (pluginConfig: Readonly<Record<string, object | undefined>>): ReadonlySet<string> => {
  const raw = (pluginConfig.bridge as { trustedProxies?: unknown } | undefined)?.trustedProxies
  const list = Array.isArray(raw) ? raw.filter((item): item is string => typeof item === "string" && item.trim() !== "") : []
  return new Set(list.map(normalizeAddress))
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is `1.2.3.4`; lower case; no spaces. */
export const normalizeAddress = (address: string): string => {
  const trimmed = address.trim().toLowerCase()
  return trimmed.startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice(7) : trimmed
}

/**
 * The address a request's limits are counted against: the socket's peer, unless that peer is a
 * trusted proxy, then the right-most `X-Forwarded-For` hop that is not itself a trusted proxy
 * (hops further left are whatever the client claimed and are never believed).
 */
export const clientAddress = (remote: string, forwardedFor: string | undefined, trusted: ReadonlySet<string>): string => {
  const peer = normalizeAddress(remote)
  if (!trusted.has(peer) || forwardedFor === undefined) return peer
  const hops = forwardedFor
    .split(",")
    .map(normalizeAddress)
    .filter((hop) => hop !== "")
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.has(hops[i]!)) return hops[i]!
  return hops[0] ?? peer
}

export const bridgeMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "bridge messages",
    up: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`create table bridge_messages (
        id bigserial primary key,
        client_id text not null,
        from_id text not null,
        topic text,
        message text not null,
        expires_at bigint not null,
        created_at bigint not null
      )`)
      yield* sql.unsafe(`create index bridge_messages_client_id on bridge_messages (client_id, id)`)
      yield* sql.unsafe(`create index bridge_messages_expires_at on bridge_messages (expires_at)`)
    }),
  },
  {
    id: 2,
    name: "bridge message trace ids",
    up: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`alter table bridge_messages add column trace_id text`)
    }),
  },
]

export interface BridgeEvent {
  /** The SSE event id: strictly increasing over the whole bridge. */
  readonly id: bigint
  readonly to: string
  readonly from: string
  /** The base64 body as posted. */
  readonly message: string
  /** The sender's `trace_id`, passed on to the recipient (the SDK reads it). */
  readonly traceId: string | undefined
}

export interface BridgePost {
  readonly from: string
  readonly to: string
  readonly message: string
  readonly ttlSeconds: number
  readonly topic: string | undefined
  readonly traceId?: string | undefined
}

/** A connection's wake-up signal: any offer means "read after your cursor"; its end ends the stream. */
export type Wake = Queue.Queue<void, Cause.Done>

export interface BridgeHubShape {
  readonly limits: BridgeLimits
  /** Proxies whose `X-Forwarded-For` is believed (see `clientAddress`). */
  readonly trustedProxies: ReadonlySet<string>
  /** Stores the message, then wakes its recipient's subscribers here and (PostgreSQL) everywhere. */
  readonly post: (message: BridgePost) => Effect.Effect<bigint, SqlError>
  /** Unexpired messages to `clientIds` after `cursor`, oldest first. */
  readonly read: (clientIds: ReadonlyArray<string>, cursor: bigint, limit?: number) => Effect.Effect<ReadonlyArray<BridgeEvent>, SqlError>
  /**
   * Registers `wake` for `clientIds` until `unsubscribe`. `isServing` tells whether the HTTP server
   * still accepts connections: once it stops (shutdown), the hub ends `wake` so the stream finishes
   * instead of holding the server's graceful close open.
   */
  readonly subscribe: (clientIds: ReadonlyArray<string>, wake: Wake, isServing?: () => boolean) => Effect.Effect<void>
  readonly unsubscribe: (clientIds: ReadonlyArray<string>, wake: Wake) => Effect.Effect<void>
  /** Takes one connection slot for `ip`; false when the limit is reached. */
  readonly openConnection: (ip: string) => Effect.Effect<boolean>
  readonly closeConnection: (ip: string) => Effect.Effect<void>
  /** One token of `ip`'s post bucket; false when empty (429). */
  readonly takePostToken: (ip: string) => Effect.Effect<boolean>
  /** One token of `ip`'s stream-open bucket; false when empty (429). */
  readonly takeStreamToken: (ip: string) => Effect.Effect<boolean>
  /** Open SSE connections of `ip` (tests and metrics). */
  readonly connections: (ip: string) => number
  /** Deletes expired rows; resolves with how many. */
  readonly deleteExpired: Effect.Effect<number, SqlError>
}

const CLIENT_ID = /^[0-9a-f]{64}$/
export const isClientId = (value: string): boolean => CLIENT_ID.test(value)

export class BridgeHub extends Context.Service<BridgeHub, BridgeHubShape>()("wallet/server/BridgeHub") {
  static readonly layer = Layer.effect(BridgeHub)(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const config = yield* ServerConfig
      const pg = yield* Effect.serviceOption(PgClient.PgClient)
      const limits = bridgeLimits(config.pluginConfig)

      const subscribers = new Map<string, Set<Wake>>()
      const wakeLocal = (clientId: string) => {
        const set = subscribers.get(clientId)
        if (set === undefined) return
        for (const wake of set) Queue.offerUnsafe(wake, undefined)
      }
      const wakeAll = () => {
        for (const set of subscribers.values()) for (const wake of set) Queue.offerUnsafe(wake, undefined)
      }

      // PGlite is one process behind a single connection: a LISTEN there would hold that connection.
      const [server] = yield* sql<{ version: string }>`select version() as version`
      const shared = Option.isSome(pg) && !/pglite/i.test(server?.version ?? "")

      if (shared && Option.isSome(pg)) {
        const client = pg.value
        const listener = Effect.scoped(
          Effect.gen(function* () {
            const notifications = yield* client.listen(BRIDGE_CHANNEL)
            // Anything posted while the listener was down: let every connection re-read.
            wakeAll()
            while (true) {
              const notification = yield* Queue.take(notifications)
              wakeLocal(notification.payload)
            }
          }),
        )
        yield* Effect.forkScoped(listener.pipe(Effect.retry(Schedule.spaced("1 second")), Effect.ignore))
      }

      // One statement (one round trip, its own transaction): lock, insert, and on PostgreSQL notify.
      const insertSql = `with locked as (select pg_advisory_xact_lock(${INSERT_LOCK_KEY}) as locked),
        inserted as (
          insert into bridge_messages (client_id, from_id, topic, message, expires_at, created_at, trace_id)
          select $1::text, $2::text, $3::text, $4::text, $5::bigint, $6::bigint, $7::text from locked
          returning id, client_id
        )
        select id${shared ? `, pg_notify('${BRIDGE_CHANNEL}', client_id)::text as notified` : ""} from inserted`
      const post = (message: BridgePost) =>
        Effect.suspend(() => {
          const now = config.now()
          const params = [message.to, message.from, message.topic ?? null, message.message, now + message.ttlSeconds * 1000, now, message.traceId ?? null]
          return sql.unsafe<{ id: unknown }>(insertSql, params)
        }).pipe(
          Effect.map((rows) => decodeInt8(rows[0]!.id)),
          Effect.tap(() => Effect.sync(() => wakeLocal(message.to))),
        )

      const read = (clientIds: ReadonlyArray<string>, cursor: bigint, limit = 500) =>
        Effect.map(
          sql<{
            id: unknown
            client_id: string
            from_id: string
            message: string
            trace_id: string | null
          }>`select id, client_id, from_id, message, trace_id from bridge_messages
            where client_id in ${sql.in(clientIds)} and id > ${cursor.toString()} and expires_at > ${config.now()}
            order by id limit ${limit}`,
          (rows) =>
            rows.map((row): BridgeEvent => ({
              id: decodeInt8(row.id),
              to: row.client_id,
              from: row.from_id,
              message: row.message,
              traceId: row.trace_id ?? undefined,
            })),
        )

      const serving = new Map<Wake, () => boolean>()
      const subscribe = (clientIds: ReadonlyArray<string>, wake: Wake, isServing?: () => boolean) =>
        Effect.sync(() => {
          if (isServing !== undefined) serving.set(wake, isServing)
          for (const clientId of clientIds) {
            let set = subscribers.get(clientId)
            if (set === undefined) subscribers.set(clientId, (set = new Set()))
            set.add(wake)
          }
        })
      const unsubscribe = (clientIds: ReadonlyArray<string>, wake: Wake) =>
        Effect.sync(() => {
          serving.delete(wake)
          for (const clientId of clientIds) {
            const set = subscribers.get(clientId)
            if (set === undefined) continue
            set.delete(wake)
            if (set.size === 0) subscribers.delete(clientId)
          }
        })

      const open = new Map<string, number>()
      const openConnection = (ip: string) =>
        Effect.sync(() => {
          const count = open.get(ip) ?? 0
          if (count >= limits.maxConnectionsPerIp) return false
          open.set(ip, count + 1)
          return true
        })
      const closeConnection = (ip: string) =>
        Effect.sync(() => {
          const count = (open.get(ip) ?? 1) - 1
          if (count <= 0) open.delete(ip)
          else open.set(ip, count)
        })

      // Token buckets per address; the wall clock (not ServerConfig.now) measures refills.
      const tokenBuckets = (perSecond: number, burst: number) => {
        const buckets = new Map<string, { tokens: number; at: number }>()
        const take = (ip: string) =>
          Effect.sync(() => {
            const now = Date.now()
            const bucket = buckets.get(ip) ?? { tokens: burst, at: now }
            bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond)
            bucket.at = now
            buckets.set(ip, bucket)
            if (bucket.tokens < 1) return false
            bucket.tokens -= 1
            return true
          })
        // A full bucket is the same as no bucket: forget it.
        const forgetFull = () => {
          const now = Date.now()
          for (const [ip, bucket] of buckets) {
            if (bucket.tokens + ((now - bucket.at) / 1000) * perSecond >= burst) buckets.delete(ip)
          }
        }
        return { take, forgetFull }
      }
      const posts = tokenBuckets(limits.messagesPerSecond, limits.messagesBurst)
      const streams = tokenBuckets(limits.eventsPerSecond, limits.eventsBurst)
      const forgetFullBuckets = Effect.sync(() => {
        posts.forgetFull()
        streams.forgetFull()
      })

      const deleteExpired = Effect.suspend(() =>
        Effect.map(sql<{ id: unknown }>`delete from bridge_messages where expires_at <= ${config.now()} returning id`, (rows) => rows.length),
      )
      yield* Effect.forkScoped(Effect.andThen(forgetFullBuckets, Effect.ignore(deleteExpired)).pipe(Effect.repeat(Schedule.spaced(limits.cleanupMs))))

      yield* Effect.forkScoped(
        Effect.sync(() => {
          for (const [wake, isServing] of serving) {
            if (isServing()) continue
            serving.delete(wake)
            Queue.endUnsafe(wake)
          }
        }).pipe(Effect.repeat(Schedule.spaced(SHUTDOWN_CHECK_MS))),
      )

      return BridgeHub.of({
        limits,
        trustedProxies: bridgeTrustedProxies(config.pluginConfig),
        post,
        read,
        subscribe,
        unsubscribe,
        openConnection,
        closeConnection,
        takePostToken: posts.take,
        takeStreamToken: streams.take,
        connections: (ip) => open.get(ip) ?? 0,
        deleteExpired,
      })
    }),
  )
}
