/**
 * Six-digit email codes: issued through the Outbox, valid for `emailCodeTtlSeconds`, single use,
 * only the newest of a scope (user + product + reason, or one challenge) counts. Wrong guesses are
 * counted against the newest code of the scope, which is voided after `emailCodeMaxAttempts`.
 * Requests are rate-limited per scope (minimum interval while the newest code is unused) and per
 * user (per hour).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { enforceAddressRateLimit } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { EmailCodeError, maskEmail, RateLimited, type EmailCodeErrorCode, type EmailCodeReason, type EmailCodeSent, type Product } from "../api.ts"
import { PasscodeConfig } from "./config.ts"
import { hashEmailCode, newEmailCode, newSalt, sameHash } from "./crypto.ts"
import { emailCodeMessage } from "./emails.ts"
import { now } from "./passcodes.ts"

/** Where a code belongs: a recovery-email reason of a product, or one security challenge. */
export type CodeScope =
  | { readonly kind: "recovery"; readonly product: Product; readonly reason: EmailCodeReason }
  | { readonly kind: "challenge"; readonly challengeId: string }

const CHALLENGE_REASON = "security-challenge"
const HOUR_MS = 3_600_000

const scopeFields = (scope: CodeScope) =>
  scope.kind === "recovery"
    ? { product: scope.product, reason: scope.reason as string, challengeId: null }
    : { product: "wallet", reason: CHALLENGE_REASON, challengeId: scope.challengeId }

interface CodeRow {
  readonly id: string
  readonly reason: string
  readonly challenge_id: string | null
  readonly email: string
  readonly code_salt: string
  readonly code_hash: string
  readonly failed_attempts: number
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
  readonly voided_at: Date | null
}

const lockUser = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`select pg_advisory_xact_lock(hashtextextended(${`passcode:email:${userId}`}, 0))`
  })

/** Issues a code and sends it through the Outbox (rate-limited). */
export const issueEmailCode = (userId: number, scope: CodeScope, email: string, language: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* PasscodeConfig
    const outbox = yield* Outbox
    const at = yield* now
    const fields = scopeFields(scope)
    // Per client address too, shared by every server process (kernel RateLimiter, docs/decisions/0206).
    yield* enforceAddressRateLimit("emailCodesPerAddress")
    return yield* sql
      .withTransaction(
        Effect.gen(function* () {
          yield* Effect.orDie(lockUser(userId))
          const hourAgo = new Date(at.getTime() - HOUR_MS)
          const [window] = yield* Effect.orDie(sql<{ count: unknown; oldest: Date | null }>`
          select count(*) as count, min(created_at) as oldest from passcode_email_codes
          where user_id = ${userId} and created_at > ${hourAgo}`)
          if (Number(window?.count ?? 0) >= config.emailCodesPerHour) {
            const oldest = window?.oldest ? new Date(window.oldest).getTime() : at.getTime()
            return yield* new RateLimited({
              code: "rate_limit_exceeded",
              message: "Request limit exceeded",
              retryAfterSeconds: Math.max(1, Math.ceil((oldest + HOUR_MS - at.getTime()) / 1000)),
            })
          }
          const [latest] = yield* Effect.orDie(sql<{ created_at: Date; used_at: Date | null }>`
          select created_at, used_at from passcode_email_codes
          where user_id = ${userId} and product = ${fields.product} and reason = ${fields.reason}
            and challenge_id is not distinct from ${fields.challengeId}
          order by id desc limit 1`)
          // The interval guards an outstanding code; once it was used (its reader has the mailbox) the
          // next one may follow at once, e.g. a reset and then a further device (decision 0540).
          if (latest !== undefined && latest.used_at === null) {
            const wait = new Date(latest.created_at).getTime() + config.emailCodeMinIntervalSeconds * 1000 - at.getTime()
            if (wait > 0) {
              return yield* new RateLimited({ code: "rate_limit_exceeded", message: "Request limit exceeded", retryAfterSeconds: Math.ceil(wait / 1000) })
            }
          }
          const code = newEmailCode()
          const salt = newSalt()
          const expiresAt = new Date(at.getTime() + config.emailCodeTtlSeconds * 1000)
          const recipient = email.trim().toLowerCase()
          yield* Effect.orDie(sql`
          insert into passcode_email_codes (user_id, product, reason, challenge_id, email, code_salt, code_hash, created_at, expires_at)
          values (${userId}, ${fields.product}, ${fields.reason}, ${fields.challengeId}, ${recipient}, ${salt}, ${hashEmailCode(salt, code)}, ${at}, ${expiresAt})`)
          const message = emailCodeMessage(
            scope.kind === "recovery" ? scope.reason : CHALLENGE_REASON,
            language,
            code,
            Math.round(config.emailCodeTtlSeconds / 60),
          )
          yield* Effect.orDie(outbox.enqueue({ channel: "email", recipient, subject: message.subject, body: message.body }))
          return {
            sentTo: maskEmail(recipient),
            expiresAt: expiresAt.toISOString(),
            resendAfterSeconds: config.emailCodeMinIntervalSeconds,
          } satisfies EmailCodeSent
        }),
      )
      .pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))
  })

const fail = (code: EmailCodeErrorCode, message: string) => new EmailCodeError({ code, message })

export interface ValidCode {
  readonly id: string
  readonly email: string
}

/**
 * Checks a submitted code against its scope; `email` (for confirm-email) binds the code to the
 * address it was sent to. Order: not found (counted), wrong reason, not newest, used, expired.
 * Does not consume: see `consumeEmailCodes`.
 */
export const checkEmailCode = (userId: number, scope: CodeScope, submitted: string, options: { readonly email?: string } = {}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* PasscodeConfig
    const at = yield* now
    const fields = scopeFields(scope)
    const dayAgo = new Date(at.getTime() - 24 * HOUR_MS)
    // Candidates: the scope's product (recovery) or the challenge, issued in the last day.
    const rows = yield* Effect.orDie(
      scope.kind === "recovery"
        ? sql<CodeRow>`select * from passcode_email_codes
            where user_id = ${userId} and product = ${fields.product} and challenge_id is null and created_at > ${dayAgo}
            order by id desc limit 100`
        : sql<CodeRow>`select * from passcode_email_codes
            where user_id = ${userId} and challenge_id = ${fields.challengeId} and created_at > ${dayAgo}
            order by id desc limit 100`,
    )
    const wanted = options.email?.trim().toLowerCase()
    const match = rows.find((row) => sameHash(row.code_hash, hashEmailCode(row.code_salt, submitted)) && (wanted === undefined || row.email === wanted))
    const sameReason = rows.filter((row) => row.reason === fields.reason)
    const newest = sameReason[0]
    if (match === undefined) {
      // Count the wrong guess against the newest code of this scope; void it at the limit.
      if (newest !== undefined && newest.used_at === null && newest.voided_at === null) {
        yield* Effect.orDie(sql`
          update passcode_email_codes set failed_attempts = failed_attempts + 1,
            voided_at = case when failed_attempts + 1 >= ${config.emailCodeMaxAttempts} then ${at}::timestamptz else voided_at end
          where id = ${newest.id}`)
      }
      return yield* fail("code_not_found", "No such code")
    }
    if (match.reason !== fields.reason) return yield* fail("wrong_code_reason", "This code was sent for another purpose")
    if (newest !== undefined && String(newest.id) !== String(match.id)) return yield* fail("code_not_newest", "A newer code was sent: use the latest one")
    if (match.used_at !== null) return yield* fail("code_used", "This code was already used")
    if (match.voided_at !== null || new Date(match.expires_at).getTime() <= at.getTime()) {
      return yield* fail("expired_email_code", "This code has expired: request a new one")
    }
    return { id: String(match.id), email: match.email } satisfies ValidCode
  })

/** Marks checked codes used, all or none (a concurrent use of any of them answers code_used). */
export const consumeEmailCodes = (codes: ReadonlyArray<ValidCode>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    for (const code of codes) {
      const updated = yield* Effect.orDie(sql`update passcode_email_codes set used_at = ${at} where id = ${code.id} and used_at is null returning id`)
      if (updated.length === 0) return yield* fail("code_used", "This code was already used")
    }
  })
