/**
 * The passcode plugin's implementation of the kernel's `OperationGuard` port (docs/decisions/0550).
 *
 * Policy: a token is needed
 * - for a `value` operation (the kernel's catalogue) when the user is passcode-forced (USD balance
 *   at or above `forcePasscodeUsdCents`), always; or when the user has a passcode and the
 *   operation's USD value is at or above `operationTokenAboveUsdCents` (0: always; an unknown value
 *   counts as above);
 * - for a `security` operation, or a name outside the catalogue, when the user has a passcode or
 *   is passcode-forced.
 * A user with no passcode who is not forced is not asked (the client could not get a token anyway:
 * beginChallenge grants one without a passcode only to such users).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { operationSpec } from "@wallet/kernel/api"
import { OperationGuard, ServerConfig, UsdBalances, type OperationCheck } from "@wallet/kernel-server"
import { PasscodeConfig } from "./config.ts"
import { requireOperationToken } from "./operations.ts"

/** The forced-passcode rule: the USD balance at or above the configured threshold. */
export const passcodeForced = (user: number) =>
  Effect.gen(function* () {
    const config = yield* PasscodeConfig
    if (config.forcePasscodeUsdCents <= 0n) return false
    const balances = yield* UsdBalances
    return (yield* balances.usdCentsOf(user)) >= config.forcePasscodeUsdCents
  })

/** Whether the user has a passcode on any device. */
export const hasAnyPasscode = (user: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* Effect.orDie(sql`select 1 as one from passcode_passcodes where user_id = ${user} limit 1`)
    return rows.length > 0
  })

const valueOf = (usdCents: OperationCheck["usdCents"]): Effect.Effect<bigint | undefined> => (Effect.isEffect(usdCents) ? usdCents : Effect.succeed(usdCents))

/** Whether `input` needs a token under the policy above. */
export const tokenNeeded = (input: OperationCheck) =>
  Effect.gen(function* () {
    const config = yield* PasscodeConfig
    const kind = operationSpec(input.operation)?.kind ?? "security"
    if (yield* hasAnyPasscode(input.userId)) {
      if (kind !== "value" || config.operationTokenAboveUsdCents <= 0n) return true
      const value = yield* valueOf(input.usdCents)
      if (value === undefined || value >= config.operationTokenAboveUsdCents) return true
    }
    return yield* passcodeForced(input.userId)
  })

/** The guard over this server's database, passcode config and the kernel's UsdBalances port. */
export const passcodeOperationGuard = Layer.effect(
  OperationGuard,
  Effect.gen(function* () {
    const context = yield* Effect.context<SqlClient.SqlClient | ServerConfig | PasscodeConfig | UsdBalances>()
    return OperationGuard.of({
      check: (input) =>
        Effect.gen(function* () {
          if (!(yield* tokenNeeded(input))) return
          yield* requireOperationToken({
            userId: input.userId,
            deviceSerial: input.deviceSerial,
            operation: input.operation,
            params: input.params,
            token: input.token,
            ...(input.replayKey !== undefined ? { replayKey: input.replayKey } : {}),
          })
        }).pipe(Effect.provide(context)),
    })
  }),
).pipe(Layer.provide(PasscodeConfig.layer))
