/**
 * The passcode plugin's server constants. Spec 3 leaves most of them open ("value not shown"), so
 * each has a default here (docs/decisions/0501) and may be set per region: the region file
 * (`host/regions/<id>.ts`) names the plugin by package name, `plugins["@wallet/plugin-passcode"].config`,
 * and the server hands it to the plugin as `ServerConfig.pluginConfig.passcode` (by plugin id).
 */
import { Context, Effect, Layer } from "effect"
import { ServerConfig } from "@wallet/kernel-server"

export interface PasscodeServerConfig {
  /** Wrong passcodes before the passcode locks (then only an email code resets it). */
  readonly maxPasscodeAttempts: number
  /** Seconds the wallet stays unlocked after a verification (passcode info unlockDuration). */
  readonly unlockDurationSeconds: number
  readonly emailCodeTtlSeconds: number
  /** Wrong guesses against a code before the newest code of that reason is voided. */
  readonly emailCodeMaxAttempts: number
  /** Minimum seconds between two codes of one reason (below the client's 59 s countdown). */
  readonly emailCodeMinIntervalSeconds: number
  /** Codes one user may request per hour, all reasons together. */
  readonly emailCodesPerHour: number
  readonly operationTokenTtlSeconds: number
  readonly challengeTtlSeconds: number
  /** Operations that need an email-code challenge when the user has a recovery email ("*": all). */
  readonly emailChallengeOperations: ReadonlyArray<string>
  /** USD balance (cents) from which a passcode is forced; 0 turns the rule off. */
  readonly forcePasscodeUsdCents: bigint
  /**
   * For a user with a passcode who is not passcode-forced: `value` operations (docs/decisions/0550)
   * worth at least this many US cents need an operation token; 0 (the default): every one.
   */
  readonly operationTokenAboveUsdCents: bigint
}

export const defaultPasscodeConfig: PasscodeServerConfig = {
  maxPasscodeAttempts: 5,
  unlockDurationSeconds: 0,
  emailCodeTtlSeconds: 10 * 60,
  emailCodeMaxAttempts: 5,
  emailCodeMinIntervalSeconds: 50,
  emailCodesPerHour: 10,
  operationTokenTtlSeconds: 5 * 60,
  challengeTtlSeconds: 15 * 60,
  emailChallengeOperations: ["show_mnemonic", "export_private_key", "change_recovery_email"],
  forcePasscodeUsdCents: 100_000n,
  operationTokenAboveUsdCents: 0n,
}

/** A non-negative cents amount as a safe integer or a digit string; else the fallback. */
const cents = (value: unknown, fallback: bigint): bigint =>
  (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) || (typeof value === "string" && /^\d+$/.test(value)) ? BigInt(value) : fallback

const positiveInt = (value: unknown, fallback: number, min = 1) => (typeof value === "number" && Number.isInteger(value) && value >= min ? value : fallback)

/** Reads `pluginConfig.passcode` (unknown keys and wrong types fall back to the defaults). */
export const readPasscodeConfig = (raw: object | undefined): PasscodeServerConfig => {
  const c = (raw ?? {}) as Record<string, unknown>
  const d = defaultPasscodeConfig
  const threshold = c.forcePasscodeUsdCents
  return {
    maxPasscodeAttempts: positiveInt(c.maxPasscodeAttempts, d.maxPasscodeAttempts),
    unlockDurationSeconds: positiveInt(c.unlockDurationSeconds, d.unlockDurationSeconds, 0),
    emailCodeTtlSeconds: positiveInt(c.emailCodeTtlSeconds, d.emailCodeTtlSeconds),
    emailCodeMaxAttempts: positiveInt(c.emailCodeMaxAttempts, d.emailCodeMaxAttempts),
    emailCodeMinIntervalSeconds: positiveInt(c.emailCodeMinIntervalSeconds, d.emailCodeMinIntervalSeconds, 0),
    emailCodesPerHour: positiveInt(c.emailCodesPerHour, d.emailCodesPerHour),
    operationTokenTtlSeconds: positiveInt(c.operationTokenTtlSeconds, d.operationTokenTtlSeconds),
    challengeTtlSeconds: positiveInt(c.challengeTtlSeconds, d.challengeTtlSeconds),
    emailChallengeOperations: Array.isArray(c.emailChallengeOperations)
      ? c.emailChallengeOperations.filter((name): name is string => typeof name === "string")
      : d.emailChallengeOperations,
    forcePasscodeUsdCents:
      (typeof threshold === "number" && Number.isSafeInteger(threshold) && threshold >= 0) || (typeof threshold === "string" && /^\d+$/.test(threshold))
        ? BigInt(threshold)
        : d.forcePasscodeUsdCents,
    operationTokenAboveUsdCents: cents(c.operationTokenAboveUsdCents, d.operationTokenAboveUsdCents),
  }
}

export class PasscodeConfig extends Context.Service<PasscodeConfig, PasscodeServerConfig>()("wallet/passcode/PasscodeConfig") {
  static readonly layer = Layer.effect(
    PasscodeConfig,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      return readPasscodeConfig(config.pluginConfig.passcode)
    }),
  )
}

/**
 * The user's USD balance in cents, for the forced-passcode rule: the kernel's `UsdBalances` port
 * (implemented by the custodial wallet's server module; 0 for everyone without one). Tests may
 * pin it: `makePasscodeServerPlugin({ usdBalance })`.
 */
export { UsdBalances as UsdBalance, type UsdBalancesShape as UsdBalanceShape } from "@wallet/kernel-server"
