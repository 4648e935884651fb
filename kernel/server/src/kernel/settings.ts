/** Feature flags (global, with per-user overrides) and per-user view settings. */
import { Effect, Exit, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { KnownBanners, type Banners, type FeatureFlags, type SaveViewSettingsRequest, type UserFlags, type ViewSettings } from "@wallet/kernel/api"
import { decodeInt8Number } from "../db/Db.ts"
import { makeBatcher, type Batcher } from "../ledger/batcher.ts"
import { ServerConfig } from "../services.ts"

const json = (value: unknown): Record<string, unknown> =>
  typeof value === "string" ? (JSON.parse(value) as Record<string, unknown>) : ((value ?? {}) as Record<string, unknown>)

export const featureFlagsFor = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const rows = yield* sql<{ name: string; enabled: boolean; own: boolean }>`
      select f.name, coalesce(o.enabled, f.enabled) as enabled, o.user_id is not null as own
      from kernel_feature_flags f left join kernel_user_feature_flags o on o.name = f.name and o.user_id = ${userId}
      union all
      select o.name, o.enabled, true as own from kernel_user_feature_flags o
      where o.user_id = ${userId} and not exists (select 1 from kernel_feature_flags f where f.name = o.name)`
    const flags: Record<string, boolean> = {}
    for (const row of rows) flags[row.name] = row.enabled === true
    // Development tools are on for everyone in a dev server, unless an operator set them for this user.
    if (config.dev && !rows.some((row) => row.name === "dev_tools" && row.own === true)) flags.dev_tools = true
    return flags as FeatureFlags
  })

export const defaultUserFlags: Omit<UserFlags, "is_custody_available"> = {
  expand_cryptocurrency: false,
  display_scw: true,
  p2p_onboarding_completed: false,
  p2p_express_onboarding_completed: false,
  display_change_language_alert: true,
  display_change_language_tooltip: true,
  wallet_onboarding_finished: false,
  send_onboarding_finished: false,
}

/** Shown until closed: the terms banner, and the passcode banner (the client shows it only while there is no passcode). */
const SHOWN_BY_DEFAULT: ReadonlyArray<string> = ["display_terms_banner", "display_passcode_banner"]
export const defaultBanners: Banners = Object.fromEntries(KnownBanners.map((name) => [name, SHOWN_BY_DEFAULT.includes(name)]))

const toViewSettings = (storedFlags: unknown, storedBanners: unknown, isCustodyAvailable: boolean): ViewSettings => {
  const userFlags: UserFlags = { ...defaultUserFlags, ...(json(storedFlags) as Partial<UserFlags>), is_custody_available: isCustodyAvailable }
  const banners: Banners = { ...defaultBanners, ...(json(storedBanners) as Banners) }
  return { status: "SUCCESS", data: { userFlags, banners } }
}

export const viewSettingsFor = (userId: number, isCustodyAvailable: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ user_flags: unknown; banners: unknown }>`select user_flags, banners from kernel_view_settings where user_id = ${userId}`
    return toViewSettings(rows[0]?.user_flags, rows[0]?.banners, isCustodyAvailable)
  })

/**
 * The hot read path (every app start): each user's custody flag and settings, for many users in
 * one query (a user that does not exist answers undefined).
 */
export const viewSettingsOfUsers = (userIds: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<{ id: unknown; is_custody_available: boolean; user_flags: unknown; banners: unknown }>(
      `select u.id, u.is_custody_available, v.user_flags, v.banners
         from kernel_users u left join kernel_view_settings v on v.user_id = u.id
        where u.id = any($1::bigint[])`,
      [[...new Set(userIds)]],
    )
    const byId = new Map(rows.map((row) => [decodeInt8Number(row.id), row]))
    return userIds.map((id) => {
      const row = byId.get(id)
      return row === undefined ? undefined : toViewSettings(row.user_flags, row.banners, row.is_custody_available === true)
    })
  })

export const viewSettingsOfUser = (userId: number) => Effect.map(viewSettingsOfUsers([userId]), (list) => list[0])

/**
 * Concurrent view-settings reads share one query (the batcher of decision 0404): on PGlite, whose
 * one session runs every query on the server's thread, and on PostgreSQL alike (decision 0406).
 */
export const makeViewSettingsReader = (
  options: { readonly onBatch?: (size: number) => void } = {},
): Effect.Effect<Batcher<number, ViewSettings | undefined, SqlError>, never, Scope.Scope | SqlClient.SqlClient> =>
  makeBatcher({ ...options, execute: (userIds) => Effect.map(viewSettingsOfUsers(userIds), (list) => list.map((settings) => Exit.succeed(settings))) })

/** Merges the changed flags into the stored ones in one statement (jsonb `||`), so concurrent saves do not lose keys. */
export const saveViewSettings = (userId: number, request: SaveViewSettingsRequest) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const flags = JSON.stringify(request.changedUserFlags ?? {})
    const banners = JSON.stringify(request.changedBanners ?? {})
    yield* sql`insert into kernel_view_settings (user_id, user_flags, banners, updated_at)
      values (${userId}, ${flags}::jsonb, ${banners}::jsonb, ${new Date(config.now())})
      on conflict (user_id) do update set
        user_flags = kernel_view_settings.user_flags || excluded.user_flags,
        banners = kernel_view_settings.banners || excluded.banners,
        updated_at = excluded.updated_at`
  })
