/**
 * Passcodes per user and device serial, with ONE attempt counter per user across all devices
 * (docs/decisions/0500, 0540): a new device serial does not escape a lock, a correct passcode on
 * any device resets the count, an email-code reset clears it. Attempts are reserved atomically
 * before the (slow) hash comparison, so parallel guesses on any number of devices cannot exceed
 * the limit. A serial is "trusted" when it was created (or last reset) through an email code
 * (decision 0540); an untrusted legacy serial reads as locked until an email-code reset.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { PasscodeError, type PasscodeType } from "../api.ts"
import { PasscodeConfig } from "./config.ts"
import { hashPasscode, randomToken, sameHash, sha256, verifyPasscodeHash } from "./crypto.ts"

export interface PasscodeRow {
  readonly passcodeType: PasscodeType
  /** The user's wrong passcodes (all devices together). */
  readonly failedAttempts: number
  readonly biometrySet: boolean
  /** Created or reset through the rules of decision 0540 (else: locked until an email-code reset). */
  readonly trusted: boolean
}

export const now = Effect.gen(function* () {
  const config = yield* ServerConfig
  return new Date(config.now())
})

export const findPasscode = (userId: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ passcode_type: PasscodeType; failed_attempts: unknown; biometry_token_hash: string | null; trusted: boolean }>`
      select p.passcode_type, coalesce(a.failed_attempts, 0) as failed_attempts, p.biometry_token_hash, p.trusted
      from passcode_passcodes p left join passcode_attempts a on a.user_id = p.user_id
      where p.user_id = ${userId} and p.device_serial = ${deviceSerial}`
    if (row === undefined) return undefined
    return {
      passcodeType: row.passcode_type,
      failedAttempts: Number(row.failed_attempts),
      biometrySet: row.biometry_token_hash !== null,
      trusted: row.trusted === true || (row.trusted as unknown) === "t",
    } satisfies PasscodeRow
  })

/** The user's wrong passcodes so far (all devices). */
export const failedAttemptsOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ failed_attempts: unknown }>`select failed_attempts from passcode_attempts where user_id = ${userId}`
    return row === undefined ? 0 : Number(row.failed_attempts)
  })

/** Tries left on this device: the per-user counter, 0 on an untrusted serial (it must be reset by email). */
export const remainingOf = (row: PasscodeRow | undefined, max: number, userFailedAttempts = 0) =>
  row !== undefined && !row.trusted ? 0 : Math.max(0, max - (row?.failedAttempts ?? userFailedAttempts))

const exceeded = () =>
  new PasscodeError({
    code: "passcode_exceeded_max_attempts",
    message: "Too many wrong passcodes: reset the passcode with a code sent to the recovery email",
    remainingAttempts: 0,
  })

const untrusted = () =>
  new PasscodeError({
    code: "passcode_exceeded_max_attempts",
    message: "This device's passcode was set without an email code: reset it with a code sent to the recovery email",
    remainingAttempts: 0,
  })

/** Clears the user's wrong-passcode count (a correct passcode, an email-code reset or creation). */
export const clearAttempts = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    yield* sql`update passcode_attempts set failed_attempts = 0, updated_at = ${at} where user_id = ${userId} and failed_attempts <> 0`
  })

/**
 * Checks the passcode of the request's device serial (or its biometry token in its place) on the
 * user's one counter. Wrong passcodes count; a locked user (any device) is refused both until an
 * email-code reset; an untrusted serial is refused without counting. Whatever passes here is a
 * passcode proven for this user: device keys, operation tokens and biometry setup rely on it.
 */
export const verifyCredential = (userId: number, deviceSerial: string, credential: { readonly passcode?: string; readonly biometryToken?: string }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* PasscodeConfig
    const max = config.maxPasscodeAttempts
    const row = yield* Effect.orDie(findPasscode(userId, deviceSerial))
    if (row === undefined) {
      return yield* new PasscodeError({ code: "passcode_missing", message: "No passcode is set on this device", passcodeSet: false })
    }
    if (!row.trusted) return yield* untrusted()
    if (row.failedAttempts >= max) return yield* exceeded()
    if (credential.passcode === undefined) {
      if (credential.biometryToken === undefined) {
        return yield* new PasscodeError({
          code: "passcode_missing",
          message: "A passcode (or biometry token) is required",
          passcodeSet: true,
          remainingAttempts: remainingOf(row, max),
        })
      }
      const [stored] = yield* Effect.orDie(sql<{ biometry_token_hash: string | null }>`
        select biometry_token_hash from passcode_passcodes where user_id = ${userId} and device_serial = ${deviceSerial}`)
      const expected = stored?.biometry_token_hash ?? null
      if (expected === null || !sameHash(expected, sha256(credential.biometryToken))) {
        return yield* new PasscodeError({
          code: "biometry_token_invalid",
          message: "The biometry token is not valid for this device",
          remainingAttempts: remainingOf(row, max),
        })
      }
      return
    }
    // Reserve one attempt on the user's counter (atomic: never beyond the maximum), then compare.
    const at = yield* now
    const [reserved] = yield* Effect.orDie(sql<{ failed_attempts: unknown }>`
      insert into passcode_attempts (user_id, failed_attempts, updated_at) values (${userId}, 1, ${at})
      on conflict (user_id) do update set failed_attempts = passcode_attempts.failed_attempts + 1, updated_at = excluded.updated_at
        where passcode_attempts.failed_attempts < ${max}
      returning failed_attempts`)
    if (reserved === undefined) return yield* exceeded()
    const [hashRow] = yield* Effect.orDie(sql<{ passcode_hash: string }>`
      select passcode_hash from passcode_passcodes where user_id = ${userId} and device_serial = ${deviceSerial}`)
    const ok = hashRow !== undefined && (yield* verifyPasscodeHash(credential.passcode, hashRow.passcode_hash))
    if (ok) {
      yield* Effect.orDie(clearAttempts(userId))
      return
    }
    const remaining = Math.max(0, max - Number(reserved.failed_attempts))
    if (remaining === 0) return yield* exceeded()
    return yield* new PasscodeError({ code: "passcode_wrong", message: "Wrong passcode", remainingAttempts: remaining })
  })

/**
 * Sets (create) or replaces the device's passcode; a replacement clears the biometry token. Both
 * mark the serial trusted: callers reach here only through an email code or a verified passcode.
 */
export const storePasscode = (userId: number, deviceSerial: string, passcode: string, type: PasscodeType, mode: "create" | "replace") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const hash = yield* hashPasscode(passcode)
    if (mode === "create") {
      const inserted = yield* sql`
        insert into passcode_passcodes (user_id, device_serial, passcode_hash, passcode_type, trusted, created_at, updated_at)
        values (${userId}, ${deviceSerial}, ${hash}, ${type}, true, ${at}, ${at})
        on conflict (user_id, device_serial) do nothing returning user_id`
      return inserted.length === 1
    }
    const updated = yield* sql`
      update passcode_passcodes set passcode_hash = ${hash}, passcode_type = ${type}, failed_attempts = 0,
        biometry_token_hash = null, trusted = true, updated_at = ${at}
      where user_id = ${userId} and device_serial = ${deviceSerial} returning user_id`
    return updated.length === 1
  })

/** A new biometry token for the device (replaces any previous one); only its hash is stored. */
export const setBiometryToken = (userId: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const token = randomToken()
    yield* sql`update passcode_passcodes set biometry_token_hash = ${sha256(token)}, updated_at = ${at}
      where user_id = ${userId} and device_serial = ${deviceSerial}`
    return token
  })

export const clearBiometryToken = (userId: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    yield* sql`update passcode_passcodes set biometry_token_hash = null, updated_at = ${at}
      where user_id = ${userId} and device_serial = ${deviceSerial}`
  })
