/**
 * Passcodes per user and device serial. Attempts are reserved atomically before the (slow) hash
 * comparison, so parallel guesses cannot exceed the limit: `failed_attempts` is incremented only
 * while below the maximum, and reset to 0 by a correct passcode.
 */
import { Effect } from "effect";
import { SqlClient } from "effect/sql";
import { ServerConfig } from "@wallet/kernel-server";
import { PasscodeError, type PasscodeType } from "../api.ts";
import { PasscodeConfig } from "./config.ts";
import { hashPasscode, randomToken, sameHash, sha256, verifyPasscodeHash } from "./crypto.ts";

export interface PasscodeRow {
  readonly passcodeType: PasscodeType;
  readonly failedAttempts: number;
  readonly biometrySet: boolean;
}

export const now = Effect.gen(function* () {
  const config = yield* ServerConfig;
  return new Date(config.now());
});

export const findPasscode = (userId: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const [row] = yield* sql<{ passcode_type: PasscodeType; failed_attempts: number; biometry_token_hash: string | null }>`
      select passcode_type, failed_attempts, biometry_token_hash from passcode_passcodes
      where user_id = ${userId} and device_serial = ${deviceSerial}`;
    if (row === undefined) return undefined;
    return { passcodeType: row.passcode_type, failedAttempts: Number(row.failed_attempts), biometrySet: row.biometry_token_hash !== null } satisfies PasscodeRow;
  });

export const remainingOf = (row: PasscodeRow | undefined, max: number) => (row === undefined ? max : Math.max(0, max - row.failedAttempts));

const exceeded = () =>
  new PasscodeError({
    code: "passcode_exceeded_max_attempts",
    message: "Too many wrong passcodes: reset the passcode with a code sent to the recovery email",
    remainingAttempts: 0,
  });

/**
 * Checks the passcode (or the biometry token in its place). Wrong passcodes count; a locked
 * passcode refuses both until it is reset through an email code.
 */
export const verifyCredential = (userId: number, deviceSerial: string, credential: { readonly passcode?: string; readonly biometryToken?: string }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const config = yield* PasscodeConfig;
    const max = config.maxPasscodeAttempts;
    const row = yield* Effect.orDie(findPasscode(userId, deviceSerial));
    if (row === undefined) {
      return yield* new PasscodeError({ code: "passcode_missing", message: "No passcode is set on this device", passcodeSet: false });
    }
    if (row.failedAttempts >= max) return yield* exceeded();
    if (credential.passcode === undefined) {
      if (credential.biometryToken === undefined) {
        return yield* new PasscodeError({ code: "passcode_missing", message: "A passcode (or biometry token) is required", passcodeSet: true, remainingAttempts: remainingOf(row, max) });
      }
      const [stored] = yield* Effect.orDie(sql<{ biometry_token_hash: string | null }>`
        select biometry_token_hash from passcode_passcodes where user_id = ${userId} and device_serial = ${deviceSerial}`);
      const expected = stored?.biometry_token_hash ?? null;
      if (expected === null || !sameHash(expected, sha256(credential.biometryToken))) {
        return yield* new PasscodeError({ code: "biometry_token_invalid", message: "The biometry token is not valid for this device", remainingAttempts: remainingOf(row, max) });
      }
      return;
    }
    // Reserve one attempt (atomic: never beyond the maximum), then compare.
    const [reserved] = yield* Effect.orDie(sql<{ passcode_hash: string; failed_attempts: number }>`
      update passcode_passcodes set failed_attempts = failed_attempts + 1
      where user_id = ${userId} and device_serial = ${deviceSerial} and failed_attempts < ${max}
      returning passcode_hash, failed_attempts`);
    if (reserved === undefined) return yield* exceeded();
    const ok = yield* verifyPasscodeHash(credential.passcode, reserved.passcode_hash);
    if (ok) {
      yield* Effect.orDie(sql`update passcode_passcodes set failed_attempts = 0 where user_id = ${userId} and device_serial = ${deviceSerial}`);
      return;
    }
    const remaining = Math.max(0, max - Number(reserved.failed_attempts));
    if (remaining === 0) return yield* exceeded();
    return yield* new PasscodeError({ code: "passcode_wrong", message: "Wrong passcode", remainingAttempts: remaining });
  });

/** Sets (or replaces) the device's passcode; clears attempts and the biometry token. */
export const storePasscode = (userId: number, deviceSerial: string, passcode: string, type: PasscodeType, mode: "create" | "replace") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const at = yield* now;
    const hash = yield* hashPasscode(passcode);
    if (mode === "create") {
      const inserted = yield* sql`
        insert into passcode_passcodes (user_id, device_serial, passcode_hash, passcode_type, created_at, updated_at)
        values (${userId}, ${deviceSerial}, ${hash}, ${type}, ${at}, ${at})
        on conflict (user_id, device_serial) do nothing returning user_id`;
      return inserted.length === 1;
    }
    const updated = yield* sql`
      update passcode_passcodes set passcode_hash = ${hash}, passcode_type = ${type}, failed_attempts = 0,
        biometry_token_hash = null, updated_at = ${at}
      where user_id = ${userId} and device_serial = ${deviceSerial} returning user_id`;
    return updated.length === 1;
  });

/** A new biometry token for the device (replaces any previous one); only its hash is stored. */
export const setBiometryToken = (userId: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const at = yield* now;
    const token = randomToken();
    yield* sql`update passcode_passcodes set biometry_token_hash = ${sha256(token)}, updated_at = ${at}
      where user_id = ${userId} and device_serial = ${deviceSerial}`;
    return token;
  });

export const clearBiometryToken = (userId: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const at = yield* now;
    yield* sql`update passcode_passcodes set biometry_token_hash = null, updated_at = ${at}
      where user_id = ${userId} and device_serial = ${deviceSerial}`;
  });
