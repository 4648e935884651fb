/**
 * Sessions: session_id + short-lived access token + rotating refresh token, all in the database
 * (several server processes on one PostgreSQL stay correct; no in-process state). Tokens are
 * stored only as SHA-256 hashes. A refresh token works once: presenting a used one again revokes
 * the whole session (the token was stolen or the client is broken).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { AuthSession, UnauthorizedCode } from "@wallet/kernel/api"
import { ServerConfig } from "../services.ts"
import { hashToken, newSessionId, newToken } from "./tokens.ts"

const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)))

const issueTokens = (sessionId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = config.now()
    const accessToken = newToken()
    const refreshToken = newToken()
    const accessExpiresAt = new Date(now + config.accessTokenTtlSeconds * 1000)
    yield* sql`insert into kernel_access_tokens (token_hash, session_id, expires_at)
      values (${hashToken(accessToken)}, ${sessionId}, ${accessExpiresAt})`
    yield* sql`insert into kernel_refresh_tokens (token_hash, session_id, created_at, expires_at)
      values (${hashToken(refreshToken)}, ${sessionId}, ${new Date(now)}, ${new Date(now + config.refreshTokenTtlSeconds * 1000)})`
    return {
      session_id: sessionId,
      access_token: accessToken,
      access_token_expires_at: accessExpiresAt.toISOString(),
      refresh_token: refreshToken,
    } satisfies AuthSession
  })

export const createSession = (userId: number): Effect.Effect<AuthSession, SqlError, SqlClient.SqlClient | ServerConfig> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const sessionId = newSessionId()
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`insert into kernel_sessions (id, user_id, created_at) values (${sessionId}, ${userId}, ${new Date(config.now())})`
        return yield* issueTokens(sessionId)
      }),
    )
  })

export type RefreshOutcome =
  | { readonly _tag: "Refreshed"; readonly session: AuthSession }
  | { readonly _tag: "Rejected"; readonly code: UnauthorizedCode; readonly message: string }

const rejected = (code: UnauthorizedCode, message: string): RefreshOutcome => ({ _tag: "Rejected", code, message })

/**
 * Rotates the refresh token. The outcome is a value, not a failure, so that revoking a session on
 * reuse commits even though the caller answers 401.
 */
export const refreshSession = (sessionId: string, refreshToken: string): Effect.Effect<RefreshOutcome, SqlError, SqlClient.SqlClient | ServerConfig> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = config.now()
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // FOR UPDATE: two concurrent refreshes with one token serialize; the second sees it used.
        const rows = yield* sql<Record<string, unknown>>`
          select r.session_id, r.expires_at, r.used_at, s.revoked_at
          from kernel_refresh_tokens r join kernel_sessions s on s.id = r.session_id
          where r.token_hash = ${hashToken(refreshToken)}
          for update of r`
        const row = rows[0]
        if (row === undefined || row.session_id !== sessionId) {
          return rejected("refresh_token_invalid", "Unknown refresh token for this session")
        }
        if (row.revoked_at !== null && row.revoked_at !== undefined) {
          return rejected("session_revoked", "The session was revoked")
        }
        if (row.used_at !== null && row.used_at !== undefined) {
          yield* sql`update kernel_sessions set revoked_at = ${new Date(now)}, revoked_reason = 'refresh_token_reused'
            where id = ${sessionId} and revoked_at is null`
          return rejected("refresh_token_reused", "The refresh token was already used; the session is revoked")
        }
        if (toDate(row.expires_at).getTime() <= now) {
          return rejected("refresh_token_expired", "The refresh token expired")
        }
        yield* sql`update kernel_refresh_tokens set used_at = ${new Date(now)} where token_hash = ${hashToken(refreshToken)}`
        yield* sql`update kernel_sessions set refreshed_at = ${new Date(now)} where id = ${sessionId}`
        const session = yield* issueTokens(sessionId)
        return { _tag: "Refreshed", session } satisfies RefreshOutcome
      }),
    )
  })

/**
 * Logout: revokes the session at once. The access-token check reads `revoked_at` on every request
 * (no cache, decision 0404) and refresh refuses a revoked session, so every token of the session
 * stops working with this update, on every process. True when this call revoked it.
 */
export const revokeSession = (sessionId: string, reason: "logout" = "logout") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const rows = yield* sql`update kernel_sessions set revoked_at = ${new Date(config.now())}, revoked_reason = ${reason}
      where id = ${sessionId} and revoked_at is null returning id`
    return rows.length === 1
  })

export type AccessCheck =
  | { readonly _tag: "Valid"; readonly userId: number; readonly sessionId: string; readonly isBlocked: boolean }
  | { readonly _tag: "Rejected"; readonly code: UnauthorizedCode; readonly message: string }

/**
 * Records an accepted initData by its hash; false if it was seen before (a replay). The insert is
 * atomic, so two processes racing on one initData accept it once.
 */
export const recordInitDataUse = (hash: string, userId: number, authDate: Date) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const rows = yield* sql`insert into kernel_init_data_uses (hash, user_id, auth_date, used_at)
      values (${hash}, ${userId}, ${authDate}, ${new Date(config.now())})
      on conflict (hash) do nothing returning hash`
    return rows.length === 1
  })

/** Housekeeping: drops rows that can no longer matter (expired tokens, too-old initData records). */
export const pruneExpired = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* ServerConfig
  const now = config.now()
  const day = 24 * 60 * 60 * 1000
  yield* sql`delete from kernel_access_tokens where expires_at < ${new Date(now - day)}`
  yield* sql`delete from kernel_refresh_tokens where expires_at < ${new Date(now - day)}`
  // Expired initData is rejected before the replay check, so its record is no longer needed.
  yield* sql`delete from kernel_init_data_uses where auth_date < ${new Date(now - config.initDataMaxAgeSeconds * 1000 - day)}`
})
