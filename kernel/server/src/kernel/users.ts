/**
 * The kernel's user records (`kernel_users`): created on first auth from the Telegram user in
 * initData; the "profile" (spec 3 section 7.4: current user, upsert with utmTags) exists once the
 * client upserts it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { CurrentUser, Permissions, RestrictionCode, TelegramUser, UtmTags } from "@wallet/kernel/api"
import { decodeInt8Number } from "../db/Db.ts"
import { ServerConfig } from "../services.ts"

export interface UserRecord {
  readonly id: number
  readonly firstName: string
  readonly lastName: string | null
  readonly username: string | null
  readonly languageCode: string | null
  readonly photoUrl: string | null
  readonly isPremium: boolean
  readonly language: string | null
  readonly localCurrency: string
  readonly countryAlpha2Ip: string | null
  readonly countryAlpha2Phone: string | null
  readonly restrictionCode: RestrictionCode | null
  readonly subdivisionStatus: string | null
  readonly isCustodyAvailable: boolean
  readonly isBlocked: boolean
  readonly botIsBlocked: boolean
  readonly isNew: boolean
  readonly abTests: Record<string, string>
  readonly permissions: Permissions
  readonly utmTags: UtmTags
  readonly profileCreatedAt: Date | null
  readonly createdAt: Date
}

export const defaultPermissions: Permissions = {
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
}

const json = (value: unknown): Record<string, unknown> => {
  if (typeof value === "string") return JSON.parse(value) as Record<string, unknown>
  return (value ?? {}) as Record<string, unknown>
}
const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)))
const nullable = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))

const restriction = (value: unknown): RestrictionCode | null => (value === "unsupported_region" || value === "unsupported_app_store" ? value : null)

export const toUserRecord = (row: Record<string, unknown>): UserRecord => ({
  id: decodeInt8Number(row.id),
  firstName: String(row.first_name),
  lastName: nullable(row.last_name),
  username: nullable(row.username),
  languageCode: nullable(row.language_code),
  photoUrl: nullable(row.photo_url),
  isPremium: row.is_premium === true,
  language: nullable(row.language),
  localCurrency: String(row.local_currency),
  countryAlpha2Ip: nullable(row.country_alpha2_ip),
  countryAlpha2Phone: nullable(row.country_alpha2_phone),
  restrictionCode: restriction(row.restriction_code),
  subdivisionStatus: nullable(row.subdivision_status),
  isCustodyAvailable: row.is_custody_available === true,
  isBlocked: row.is_blocked === true,
  botIsBlocked: row.bot_is_blocked === true,
  isNew: row.is_new === true,
  abTests: json(row.ab_tests) as Record<string, string>,
  permissions: { ...defaultPermissions, ...(json(row.permissions) as Partial<Permissions>) },
  utmTags: json(row.utm_tags) as UtmTags,
  profileCreatedAt: row.profile_created_at === null || row.profile_created_at === undefined ? null : toDate(row.profile_created_at),
  createdAt: toDate(row.created_at),
})

export const toCurrentUser = (user: UserRecord): CurrentUser => ({
  id: user.id,
  first_name: user.firstName,
  last_name: user.lastName,
  username: user.username,
  language_code: user.languageCode,
  photo_url: user.photoUrl,
  is_premium: user.isPremium,
  utm_tags: user.utmTags,
  created_at: (user.profileCreatedAt ?? user.createdAt).toISOString(),
})

export const findUser = (id: number): Effect.Effect<UserRecord | undefined, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`select * from kernel_users where id = ${id}`
    return rows[0] === undefined ? undefined : toUserRecord(rows[0])
  })

/**
 * Creates the user on first auth or refreshes its Telegram fields; `created` tells which.
 * One statement, so concurrent first auths of one user on several processes stay correct.
 */
export const upsertFromTelegram = (
  user: TelegramUser,
): Effect.Effect<{ readonly user: UserRecord; readonly created: boolean }, SqlError, SqlClient.SqlClient | ServerConfig> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = new Date(config.now())
    const rows = yield* sql<Record<string, unknown>>`
      insert into kernel_users (id, first_name, last_name, username, language_code, photo_url, is_premium, created_at, last_seen_at)
      values (${user.id}, ${user.first_name}, ${user.last_name ?? null}, ${user.username ?? null}, ${user.language_code ?? null},
              ${user.photo_url ?? null}, ${user.is_premium ?? false}, ${now}, ${now})
      on conflict (id) do update set
        first_name = excluded.first_name, last_name = excluded.last_name, username = excluded.username,
        language_code = excluded.language_code, photo_url = excluded.photo_url, is_premium = excluded.is_premium,
        last_seen_at = excluded.last_seen_at
      returning *, (xmax = 0) as inserted`
    const row = rows[0]!
    return { user: toUserRecord(row), created: row.inserted === true }
  })

/** Creates the profile (201) or updates its utm tags (200). */
export const upsertProfile = (
  id: number,
  utmTags: UtmTags | undefined,
): Effect.Effect<{ readonly user: UserRecord; readonly created: boolean } | undefined, SqlError, SqlClient.SqlClient | ServerConfig> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = new Date(config.now())
    const tags = JSON.stringify(utmTags ?? {})
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // The row lock serializes concurrent upserts: exactly one of them sees no profile yet.
        const before = yield* sql<{ profile_created_at: unknown }>`select profile_created_at from kernel_users where id = ${id} for update`
        if (before[0] === undefined) return undefined
        const created = before[0].profile_created_at === null
        const rows =
          utmTags === undefined
            ? yield* sql<Record<string, unknown>>`update kernel_users set profile_created_at = coalesce(profile_created_at, ${now})
              where id = ${id} returning *`
            : yield* sql<Record<string, unknown>>`update kernel_users set profile_created_at = coalesce(profile_created_at, ${now}),
              utm_tags = ${tags}::jsonb where id = ${id} returning *`
        return { user: toUserRecord(rows[0]!), created }
      }),
    )
  })

export const setLanguage = (id: number, language: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`update kernel_users set language = ${language} where id = ${id}`
  })

export const setVisitorId = (id: number, value: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* sql`update kernel_users set visitor_id = ${value}, visitor_id_set_at = ${new Date(config.now())} where id = ${id}`
  })

/** A user stops being new once the wallet onboarding is finished. */
export const markOnboarded = (id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`update kernel_users set is_new = false where id = ${id}`
  })
