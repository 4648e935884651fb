/**
 * Removes what can no longer matter: email codes older than a day (past every lifetime, rate
 * window and candidate window), and operation tokens and challenges a day past their expiry.
 * Runs at boot and every 10 minutes on each server process (idempotent deletes).
 */
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { now } from "./passcodes.ts"

const DAY_MS = 24 * 3_600_000

export const pruneExpired = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cutoff = new Date((yield* now).getTime() - DAY_MS)
  yield* sql`delete from passcode_email_codes where created_at < ${cutoff}`
  yield* sql`delete from passcode_operation_tokens where expires_at < ${cutoff}`
  yield* sql`delete from passcode_challenges where expires_at < ${cutoff}`
})

export const PasscodeHousekeeping = Layer.effectDiscard(Effect.forkScoped(pruneExpired.pipe(Effect.ignore, Effect.repeat(Schedule.spaced("10 minutes")))))
