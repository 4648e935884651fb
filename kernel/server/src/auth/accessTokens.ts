/**
 * The per-request session check, batched (docs/decisions/0404): concurrent bearer requests share
 * one indexed lookup (`token_hash = any($1)`) instead of one round trip each. Every request is
 * still checked against the database after it arrived, so revocation, expiry and blocking stay
 * immediate (no cache, no signed tokens); only the round trips are shared.
 */
import { Effect, Exit, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { decodeInt8Number } from "../db/Db.ts"
import type { AccessCheck } from "../kernel/sessions.ts"
import { hashToken } from "../kernel/tokens.ts"
import { makeBatcher, type Batcher } from "../ledger/batcher.ts"
import { ServerConfig } from "../services.ts"

const toTime = (value: unknown): number => (value instanceof Date ? value : new Date(String(value))).getTime()

interface Row {
  token_hash: string
  expires_at: unknown
  session_id: unknown
  user_id: unknown
  revoked_at: unknown
  known_user: unknown
  is_blocked: unknown
}

/** The answer for each access token, in order, from one query (duplicates allowed). */
export const checkAccessTokens = (
  accessTokens: ReadonlyArray<string>,
): Effect.Effect<ReadonlyArray<AccessCheck>, SqlError, SqlClient.SqlClient | ServerConfig> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const hashes = accessTokens.map(hashToken)
    const rows = yield* sql.unsafe<Row>(
      `select t.token_hash, t.expires_at, s.id as session_id, s.user_id, s.revoked_at, u.id as known_user, u.is_blocked
         from kernel_access_tokens t
         join kernel_sessions s on s.id = t.session_id
         left join kernel_users u on u.id = s.user_id
        where t.token_hash = any($1::text[])`,
      [[...new Set(hashes)]],
    )
    const byHash = new Map(rows.map((row) => [row.token_hash, row]))
    const now = config.now()
    return hashes.map((hash): AccessCheck => {
      const row = byHash.get(hash)
      if (row === undefined) return { _tag: "Rejected", code: "token_invalid", message: "Unknown access token" }
      if (row.revoked_at !== null && row.revoked_at !== undefined) return { _tag: "Rejected", code: "session_revoked", message: "The session was revoked" }
      if (toTime(row.expires_at) <= now) return { _tag: "Rejected", code: "token_expired", message: "The access token expired; refresh the session" }
      if (row.known_user === null || row.known_user === undefined) {
        return { _tag: "Rejected", code: "user_not_found", message: "The session's user no longer exists" }
      }
      return { _tag: "Valid", userId: decodeInt8Number(row.user_id), sessionId: String(row.session_id), isBlocked: row.is_blocked === true }
    })
  })

export type AccessTokenChecker = Batcher<string, AccessCheck, SqlError>

/** A batcher over `checkAccessTokens` living as long as the scope (the server). */
export const makeAccessTokenChecker = (
  options: { readonly maxBatch?: number; readonly workers?: number; readonly onBatch?: (size: number) => void } = {},
): Effect.Effect<AccessTokenChecker, never, Scope.Scope | SqlClient.SqlClient | ServerConfig> =>
  makeBatcher<string, AccessCheck, SqlError, SqlClient.SqlClient | ServerConfig>({
    ...options,
    execute: (tokens) => Effect.map(checkAccessTokens(tokens), (checks) => checks.map((check) => Exit.succeed(check))),
  })
