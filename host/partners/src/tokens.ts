/**
 * SDK access tokens: issued to the wallet's server for one user and level, stored by hash, bound to
 * the first WebSDK session that presents them (single use) and then to that user's applicant.
 * Unknown, expired or foreign tokens are `401 invalid-token`, the code the SDK answers by asking
 * the host page for a new token.
 */
import type { Sql } from "./db.ts"
import { SumsubError } from "./http/http.ts"
import { newAccessToken, tokenHash } from "./ids.ts"

export interface TokenGrant {
  readonly userId: string
  readonly levelName: string
  readonly boundSession: string | null
  readonly applicantId: string | null
}

interface Row {
  user_id: string
  level_name: string
  bound_session: string | null
  applicant_id: string | null
}

const grant = (r: Row): TokenGrant => ({ userId: r.user_id, levelName: r.level_name, boundSession: r.bound_session, applicantId: r.applicant_id })

export const invalidToken = (description: string): SumsubError => new SumsubError(401, description, "invalid-token")

export const issueAccessToken = async (sql: Sql, userId: string, levelName: string, ttlInSecs: number, now: number): Promise<string> => {
  const token = newAccessToken()
  await sql.query("insert into access_tokens (token_hash, user_id, level_name, created_at, expires_at) values ($1, $2, $3, $4, $5)", [
    tokenHash(token),
    userId,
    levelName,
    now,
    now + ttlInSecs * 1000,
  ])
  return token
}

/** Binds the token to `sessionId` (or confirms it is bound to it already). */
export const bindSession = async (sql: Sql, token: string, sessionId: string, now: number): Promise<TokenGrant> => {
  const { rows } = await sql.query<Row>(
    `update access_tokens set bound_session = $2
     where token_hash = $1 and expires_at > $3 and (bound_session is null or bound_session = $2)
     returning user_id, level_name, bound_session, applicant_id`,
    [tokenHash(token), sessionId, now],
  )
  if (!rows[0]) throw invalidToken("the access token is unknown, expired or used by another session")
  return grant(rows[0])
}

export const attachApplicant = async (sql: Sql, token: string, applicantId: string): Promise<void> => {
  await sql.query("update access_tokens set applicant_id = $2 where token_hash = $1", [tokenHash(token), applicantId])
}

/** The grant of a live token that went through `/resources/sdk/session` for this applicant. */
export const requireSessionToken = async (sql: Sql, token: string | undefined, applicantId: string, now: number): Promise<TokenGrant> => {
  if (!token) throw invalidToken("the X-Access-Token header is missing")
  const { rows } = await sql.query<Row>(
    "select user_id, level_name, bound_session, applicant_id from access_tokens where token_hash = $1 and expires_at > $2 and bound_session is not null",
    [tokenHash(token), now],
  )
  if (!rows[0]) throw invalidToken("the access token is unknown, expired or has no session")
  const found = grant(rows[0])
  if (found.applicantId !== applicantId) throw new SumsubError(403, "the access token is not for this applicant", "forbidden")
  return found
}
