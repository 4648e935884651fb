/**
 * Security challenges and operation tokens (docs/decisions/0550). An operation token is 256 random
 * bits (stored as SHA-256), bound to the user, the device serial, the operation name and the
 * SHA-256 of its parameters' canonical encoding, valid for `operationTokenTtlSeconds`, and consumed
 * at most once (an atomic conditional update that also records the replay key it was consumed for).
 *
 * Other plugins protect an endpoint with the kernel's `requireOperation(...)` (the `OperationGuard`
 * port this plugin implements in `guard.ts`); `requireOperationToken` is the consumption itself.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { canonicalOperationParams, OPERATION_TOKEN_HEADER } from "@wallet/kernel/api"
import { ChallengeError, OperationTokenError, type OperationTokenGranted } from "../api.ts"
import { PasscodeConfig } from "./config.ts"
import { randomToken, sha256 } from "./crypto.ts"
import { now } from "./passcodes.ts"

/** The request header other plugins read the operation token from. */
export { OPERATION_TOKEN_HEADER }

/** SHA-256 of the parameters' canonical encoding (no parameters and `{}` hash alike). */
export const paramsHashOf = (params: Readonly<Record<string, string>> | undefined): string => sha256(canonicalOperationParams(params))
export const EMPTY_PARAMS_HASH = paramsHashOf(undefined)

export const grantOperationToken = (userId: number, deviceSerial: string, operation: string, paramsHash: string = EMPTY_PARAMS_HASH) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* PasscodeConfig
    const at = yield* now
    const token = randomToken()
    const expiresAt = new Date(at.getTime() + config.operationTokenTtlSeconds * 1000)
    yield* Effect.orDie(sql`
      insert into passcode_operation_tokens (token_hash, user_id, device_serial, operation, params_hash, created_at, expires_at)
      values (${sha256(token)}, ${userId}, ${deviceSerial}, ${operation}, ${paramsHash}, ${at}, ${expiresAt})`)
    return { operationToken: token, expiresAt: expiresAt.toISOString() } satisfies OperationTokenGranted
  })

const missing = () =>
  new OperationTokenError({ code: "operation_token_missing", message: "This operation needs an operation token (and the device serial it was granted to)" })

/**
 * Consumes an operation token for `operation` with `params` by this user on this device. Fails
 * with `OperationTokenError` (missing, invalid, expired, used, mismatch); a mismatch does not
 * consume. With `replayKey`, a token already consumed for that same key (same user, device,
 * operation and parameters, still unexpired) passes again: the retry of one request.
 */
export const requireOperationToken = (input: {
  readonly userId: number
  readonly deviceSerial: string | undefined
  readonly operation: string
  readonly params?: Readonly<Record<string, string>>
  readonly token: string | undefined
  readonly replayKey?: string
}) =>
  Effect.gen(function* () {
    if (input.token === undefined || input.token === "" || input.deviceSerial === undefined || input.deviceSerial === "") {
      return yield* missing()
    }
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const hash = sha256(input.token)
    const paramsHash = paramsHashOf(input.params)
    const used = yield* Effect.orDie(sql`
      update passcode_operation_tokens set used_at = ${at}, consumed_for = ${input.replayKey ?? null}
      where token_hash = ${hash} and used_at is null and expires_at > ${at}
        and user_id = ${input.userId} and device_serial = ${input.deviceSerial} and operation = ${input.operation}
        and coalesce(params_hash, ${EMPTY_PARAMS_HASH}) = ${paramsHash}
      returning token_hash`)
    if (used.length === 1) return
    const [row] = yield* Effect.orDie(
      sql<{
        user_id: unknown
        device_serial: string
        operation: string
        params_hash: string | null
        expires_at: Date | string
        used_at: Date | string | null
        consumed_for: string | null
      }>`select user_id, device_serial, operation, params_hash, expires_at, used_at, consumed_for from passcode_operation_tokens where token_hash = ${hash}`,
    )
    if (row === undefined || Number(row.user_id) !== input.userId) {
      return yield* new OperationTokenError({ code: "operation_token_invalid", message: "Unknown operation token" })
    }
    const matches = row.device_serial === input.deviceSerial && row.operation === input.operation && (row.params_hash ?? EMPTY_PARAMS_HASH) === paramsHash
    const live = new Date(row.expires_at).getTime() > at.getTime()
    if (row.used_at !== null) {
      if (matches && live && input.replayKey !== undefined && row.consumed_for === input.replayKey) return
      return yield* new OperationTokenError({ code: "operation_token_used", message: "This operation token was already used" })
    }
    if (!live) return yield* new OperationTokenError({ code: "operation_token_expired", message: "This operation token has expired" })
    return yield* new OperationTokenError({
      code: "operation_token_mismatch",
      message: "This operation token is for another operation, amount, destination or device",
    })
  })

export interface ChallengeRow {
  readonly id: string
  readonly userId: number
  readonly deviceSerial: string
  readonly operation: string
  readonly method: string
  readonly product: string
  /** The operation's parameters hash; the completed challenge's token carries it. */
  readonly paramsHash: string
}

export const createChallenge = (userId: number, deviceSerial: string, operation: string, product: string, paramsHash: string = EMPTY_PARAMS_HASH) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* PasscodeConfig
    const at = yield* now
    const id = randomUUID()
    yield* Effect.orDie(sql`
      insert into passcode_challenges (id, user_id, device_serial, operation, method, product, params_hash, created_at, expires_at)
      values (${id}, ${userId}, ${deviceSerial}, ${operation}, 'email-code', ${product}, ${paramsHash}, ${at}, ${new Date(at.getTime() + config.challengeTtlSeconds * 1000)})`)
    return id
  })

/** The user's open challenge, or a ChallengeError (another user's id reads as not found). */
export const openChallenge = (userId: number, challengeId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const [row] = yield* Effect.orDie(
      sql<{
        id: string
        user_id: unknown
        device_serial: string
        operation: string
        method: string
        product: string
        params_hash: string | null
        expires_at: Date
        completed_at: Date | null
      }>`select * from passcode_challenges where id = ${challengeId}`,
    )
    if (row === undefined || Number(row.user_id) !== userId) return yield* new ChallengeError({ code: "challenge_not_found", message: "No such challenge" })
    if (row.completed_at !== null) return yield* new ChallengeError({ code: "challenge_completed", message: "This challenge is already completed" })
    if (new Date(row.expires_at).getTime() <= at.getTime())
      return yield* new ChallengeError({ code: "challenge_expired", message: "This challenge has expired: begin again" })
    if (row.method !== "email-code")
      return yield* new ChallengeError({ code: "unsupported_challenge_method", message: `Unsupported challenge method ${row.method}` })
    return {
      id: row.id,
      userId,
      deviceSerial: row.device_serial,
      operation: row.operation,
      method: row.method,
      product: row.product,
      paramsHash: row.params_hash ?? EMPTY_PARAMS_HASH,
    } satisfies ChallengeRow
  })

/** Marks the challenge completed; false when another request completed it first. */
export const completeChallengeRow = (challengeId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const updated = yield* Effect.orDie(
      sql`update passcode_challenges set completed_at = ${at} where id = ${challengeId} and completed_at is null returning id`,
    )
    return updated.length === 1
  })
