/**
 * Where device fingerprints land: `fingerprint_devices`, one row per (user, device uuid), updated
 * on each send (`sends` counts them). The components pass the analytics scrubber before they are
 * written (docs/decisions/0350, 0390): no secret is stored even if a component carried one.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { scrubValue } from "../analytics/scrub.ts"
import type { Migration } from "../db/migrations.ts"
import { ServerConfig } from "../services.ts"
import type { FingerprintPayloadJson, StoredFingerprintJson } from "./api.ts"

export interface FingerprintStoreShape {
  readonly save: (userId: number, payload: FingerprintPayloadJson) => Effect.Effect<void, SqlError>
  /** The latest first (by the last send). */
  readonly latest: (options: { readonly limit: number; readonly userId?: string }) => Effect.Effect<ReadonlyArray<StoredFingerprintJson>, SqlError>
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString()
const parseJson = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value)

export const makeFingerprintStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* ServerConfig

  const save: FingerprintStoreShape["save"] = (userId, payload) =>
    Effect.gen(function* () {
      const now = new Date(config.now())
      const components = JSON.stringify(scrubValue(payload.fingerprint.components))
      yield* sql`
        insert into fingerprint_devices (user_id, device_uuid, visitor_id, thumbmark, version, components, created_at, updated_at, sends)
        values (${userId}, ${payload.deviceUuid}, ${payload.visitorId}, ${payload.fingerprint.thumbmark}, ${payload.fingerprint.version},
          ${components}::jsonb, ${now}, ${now}, 1)
        on conflict (user_id, device_uuid) do update set
          visitor_id = excluded.visitor_id, thumbmark = excluded.thumbmark, version = excluded.version,
          components = excluded.components, updated_at = excluded.updated_at, sends = fingerprint_devices.sends + 1`
    })

  const latest: FingerprintStoreShape["latest"] = ({ limit, userId }) =>
    Effect.map(
      sql<Record<string, unknown>>`
        select * from fingerprint_devices
        where (${userId ?? null}::text is null or user_id::text = ${userId ?? null}::text)
        order by updated_at desc, id desc limit ${limit}`,
      (rows) =>
        rows.map((row) => ({
          id: Number(row.id),
          userId: String(row.user_id),
          deviceUuid: String(row.device_uuid),
          visitorId: String(row.visitor_id),
          thumbmark: String(row.thumbmark),
          version: String(row.version),
          components: parseJson(row.components),
          createdAt: iso(row.created_at),
          updatedAt: iso(row.updated_at),
          sends: Number(row.sends),
        })),
    )

  return { save, latest } satisfies FingerprintStoreShape
})

export class FingerprintStore extends Context.Service<FingerprintStore, FingerprintStoreShape>()("wallet/server/FingerprintStore") {
  static readonly layer = Layer.effect(FingerprintStore, makeFingerprintStore)
}

/** The fingerprint module's table (`fingerprint_` prefix). */
export const fingerprintMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "device fingerprints",
    up: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`create table fingerprint_devices (
        id bigserial primary key,
        user_id bigint not null,
        device_uuid text not null,
        visitor_id text not null,
        thumbmark text not null,
        version text not null,
        components jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        sends integer not null default 1,
        unique (user_id, device_uuid)
      )`)
      yield* sql.unsafe(`create index fingerprint_devices_recent on fingerprint_devices (updated_at desc)`)
    }),
  },
]
