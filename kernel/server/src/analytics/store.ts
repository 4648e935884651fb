/**
 * Where analytics batches land: `analytics_events` (unique by idempotency key: a retried batch
 * stores nothing twice) and `analytics_meters`. Everything is scrubbed before it is written
 * (`scrub.ts`); the client's claimed user id is kept as text, never trusted for anything.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Migration } from "../db/migrations.ts"
import { ServerConfig } from "../services.ts"
import type { EventsBatch, MetersBatch, StoredEventJson } from "./api.ts"
import { scrubText, scrubValue } from "./scrub.ts"

export interface StoredMeter {
  readonly id: number
  readonly name: string
  readonly value: number
  readonly clientTime: string
}

export interface AnalyticsStoreShape {
  /** Stores the batch's events not stored before; returns how many were new and how many repeated. */
  readonly storeEvents: (batch: EventsBatch) => Effect.Effect<{ readonly stored: number; readonly duplicates: number }, SqlError>
  readonly storeMeters: (batch: MetersBatch) => Effect.Effect<{ readonly stored: number; readonly duplicates: number }, SqlError>
  /** The latest first. */
  readonly latest: (options: {
    readonly limit: number
    readonly userId?: string
  }) => Effect.Effect<{ readonly events: ReadonlyArray<StoredEventJson>; readonly meters: ReadonlyArray<StoredMeter> }, SqlError>
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString()
const parseJson = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value)

export const makeAnalyticsStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* ServerConfig

  const storeEvents: AnalyticsStoreShape["storeEvents"] = (batch) =>
    sql.withTransaction(
      Effect.gen(function* () {
        const receivedAt = new Date(config.now())
        let stored = 0
        for (const event of batch.events) {
          const rows = yield* sql<{ id: unknown }>`
            insert into analytics_events
              (idempotency_key, stream, name, client_id, trace_id, user_id, client_time, received_at, version, is_postponed, properties)
            values (${event.idempotencyKey}, ${batch.stream}, ${scrubText(event.name)}, ${event.clientId}, ${event.traceId}, ${event.userId},
              ${new Date(event.clientTime)}, ${receivedAt}, ${scrubText(event.version)}, ${event.isPostoponed === true},
              ${JSON.stringify(scrubValue(event.eventProperties))}::jsonb)
            on conflict (idempotency_key) do nothing
            returning id`
          stored += rows.length
        }
        return { stored, duplicates: batch.events.length - stored }
      }),
    )

  const storeMeters: AnalyticsStoreShape["storeMeters"] = (batch) =>
    Effect.gen(function* () {
      const receivedAt = new Date(config.now())
      for (const meter of batch.meters) {
        yield* sql`insert into analytics_meters (name, value, client_id, client_time, received_at, version)
          values (${scrubText(meter.name)}, ${meter.value}, ${meter.clientId}, ${new Date(meter.clientTime)}, ${receivedAt}, ${scrubText(meter.version)})`
      }
      return { stored: batch.meters.length, duplicates: 0 }
    })

  const latest: AnalyticsStoreShape["latest"] = ({ limit, userId }) =>
    Effect.gen(function* () {
      const rows = yield* sql<Record<string, unknown>>`
        select * from analytics_events
        where (${userId ?? null}::text is null or user_id = ${userId ?? null}::text)
        order by id desc limit ${limit}`
      const meterRows = yield* sql<Record<string, unknown>>`select * from analytics_meters order by id desc limit ${limit}`
      return {
        events: rows.map((row) => ({
          id: Number(row.id),
          idempotencyKey: String(row.idempotency_key),
          stream: String(row.stream),
          name: String(row.name),
          clientId: String(row.client_id),
          traceId: String(row.trace_id),
          userId: row.user_id === null ? null : String(row.user_id),
          clientTime: iso(row.client_time),
          receivedAt: iso(row.received_at),
          version: String(row.version),
          isPostponed: row.is_postponed === true,
          eventProperties: parseJson(row.properties),
        })),
        meters: meterRows.map((row) => ({ id: Number(row.id), name: String(row.name), value: Number(row.value), clientTime: iso(row.client_time) })),
      }
    })

  return { storeEvents, storeMeters, latest } satisfies AnalyticsStoreShape
})

export class AnalyticsStore extends Context.Service<AnalyticsStore, AnalyticsStoreShape>()("wallet/server/AnalyticsStore") {
  static readonly layer = Layer.effect(AnalyticsStore, makeAnalyticsStore)
}

/** The analytics module's tables (`analytics_` prefix). */
export const analyticsMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "analytics events and meters",
    up: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`create table analytics_events (
        id bigserial primary key,
        idempotency_key text not null unique,
        stream text not null check (stream in ('custodial', 'scw')),
        name text not null,
        client_id text not null,
        trace_id text not null,
        user_id text,
        client_time timestamptz not null,
        received_at timestamptz not null,
        version text not null,
        is_postponed boolean not null default false,
        properties jsonb not null
      )`)
      yield* sql.unsafe(`create index analytics_events_user on analytics_events (user_id, id desc)`)
      yield* sql.unsafe(`create table analytics_meters (
        id bigserial primary key,
        name text not null,
        value double precision not null,
        client_id text not null,
        client_time timestamptz not null,
        received_at timestamptz not null,
        version text not null
      )`)
    }),
  },
]
