/** Handlers of the passcode, recovery-email and security groups. */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { CurrentSession } from "@wallet/kernel/api"
import { Outbox } from "@wallet/kernel-server/outbox"
import {
  DEVICE_SERIAL_HEADER,
  maskEmail,
  PasscodeApi,
  PasscodeError,
  RecoveryEmailError,
  ChallengeError,
  type PasscodeInfo,
  type Product,
  type RecoveryEmail,
} from "../api.ts"
import { PasscodeConfig, UsdBalance, type UsdBalanceShape } from "./config.ts"
import { PasscodeHousekeeping } from "./housekeeping.ts"
import { checkEmailCode, consumeEmailCodes, issueEmailCode } from "./emailCodes.ts"
import { completeChallengeRow, createChallenge, grantOperationToken, openChallenge, paramsHashOf } from "./operations.ts"
import { hasAnyPasscode, passcodeForced } from "./guard.ts"
import {
  clearAttempts,
  clearBiometryToken,
  failedAttemptsOf,
  findPasscode,
  remainingOf,
  setBiometryToken,
  storePasscode,
  verifyCredential,
} from "./passcodes.ts"
import { anyRecoveryEmail, findRecoveryEmail, saveRecoveryEmail } from "./recovery.ts"
import { DeviceKeysAtRest, DeviceKeysLive } from "./deviceKeys.ts"
import { DeviceKeyRing } from "./keyring.ts"
import { serialFrom } from "./serial.ts"

const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))
  })

const userId = Effect.gen(function* () {
  const session = yield* CurrentSession
  return session.userId
})

// The forced-passcode rule (USD balance at or above the threshold) is shared with the operation guard.

const infoOf = (user: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const config = yield* PasscodeConfig
    const row = yield* Effect.orDie(findPasscode(user, deviceSerial))
    // The user's one counter (decision 0540): a device without a passcode shows it too.
    const failed = row === undefined ? yield* Effect.orDie(failedAttemptsOf(user)) : row.failedAttempts
    return {
      passcodeType: row?.passcodeType ?? null,
      deviceBiometrySet: row?.biometrySet ?? false,
      unlockDuration: config.unlockDurationSeconds,
      remainingAttempts: remainingOf(row, config.maxPasscodeAttempts, failed),
      passcodeForced: yield* passcodeForced(user),
    } satisfies PasscodeInfo
  })

const recoveryEmailOf = (product: Product, email: string | undefined): RecoveryEmail => ({
  product,
  email: email ?? null,
  maskedEmail: email === undefined ? null : maskEmail(email),
})

const missingRecoveryEmail = () => new RecoveryEmailError({ code: "recovery_email_missing", message: "No recovery email is set: create one first" })

/** Creation with a recovery email on file needs a change-passcode code sent to the user's first recovery email (decision 0540). */
const emailCodeRequired = (guard: { readonly email: string; readonly product: Product }) =>
  new RecoveryEmailError({
    code: "email_code_required",
    message: "Confirm with a code sent to the recovery email (reason change-passcode)",
    product: guard.product,
    maskedEmail: maskEmail(guard.email),
  })

/**
 * Checks and consumes a change-passcode code in the same transaction as the passcode it allows:
 * the code must have gone to the user's first recovery email (`guard`), so an address added later
 * for another product (by whoever holds a session) never resets or adds a passcode.
 */
const useChangePasscodeCode = (user: number, guard: { readonly email: string; readonly product: Product }, product: Product | undefined, emailCode: string) =>
  Effect.gen(function* () {
    const code = yield* checkEmailCode(user, { kind: "recovery", product: product ?? guard.product, reason: "change-passcode" }, emailCode, {
      email: guard.email,
    })
    yield* consumeEmailCodes([code])
  })

const PasscodeLive = HttpApiBuilder.group(PasscodeApi, "passcode", (handlers) =>
  handlers
    .handle("info", ({ headers }) =>
      Effect.gen(function* () {
        const serial = yield* serialFrom(undefined, headers[DEVICE_SERIAL_HEADER])
        return yield* infoOf(yield* userId, serial)
      }),
    )
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const alreadySet = () => new PasscodeError({ code: "passcode_already_set", message: "This device already has a passcode: change it instead" })
        if ((yield* Effect.orDie(findPasscode(user, payload.deviceSerial))) !== undefined) return yield* alreadySet()
        const source = payload.emailSource ?? (payload.email !== undefined ? "new" : "existing")
        const guard = yield* anyRecoveryEmail(user)
        if (guard !== undefined) {
          // A recovery email on file (any product; also every further device of the user): only a
          // change-passcode code sent to the user's first recovery email creates a passcode (decision 0540).
          if (source === "new" || payload.emailCode === undefined) return yield* emailCodeRequired(guard)
          const emailCode = payload.emailCode
          yield* transaction(
            Effect.gen(function* () {
              yield* useChangePasscodeCode(user, guard, payload.product, emailCode)
              if (!(yield* Effect.orDie(storePasscode(user, payload.deviceSerial, payload.newPasscode, payload.newPasscodeType, "create"))))
                return yield* alreadySet()
              // The email-code path is the reset path: it clears the user's attempt counter.
              yield* Effect.orDie(clearAttempts(user))
            }),
          )
          return yield* infoOf(user, payload.deviceSerial)
        }
        // The user's first passcode, no recovery email anywhere: the address and its confirm-email code in the same call.
        if (source === "existing") {
          return yield* new RecoveryEmailError({ code: "source_email_missing", message: "A recovery email is needed before a passcode" })
        }
        if (payload.email === undefined || payload.emailCode === undefined) {
          return yield* new RecoveryEmailError({ code: "source_email_missing", message: "email and emailCode are needed with emailSource new" })
        }
        const product = payload.product ?? "wallet"
        const email = payload.email
        const emailCode = payload.emailCode
        yield* transaction(
          Effect.gen(function* () {
            const code = yield* checkEmailCode(user, { kind: "recovery", product, reason: "confirm-email" }, emailCode, { email })
            yield* consumeEmailCodes([code])
            if (!(yield* saveRecoveryEmail(user, product, email, "create"))) {
              return yield* new RecoveryEmailError({ code: "recovery_email_exists", message: "Another recovery email is set: change it instead" })
            }
            if (!(yield* Effect.orDie(storePasscode(user, payload.deviceSerial, payload.newPasscode, payload.newPasscodeType, "create"))))
              return yield* alreadySet()
            yield* Effect.orDie(clearAttempts(user))
          }),
        )
        return yield* infoOf(user, payload.deviceSerial)
      }),
    )
    .handle("update", ({ payload, headers }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const serial = yield* serialFrom(payload.deviceSerial, headers[DEVICE_SERIAL_HEADER])
        if ((yield* Effect.orDie(findPasscode(user, serial))) === undefined) {
          return yield* new PasscodeError({ code: "passcode_missing", message: "No passcode is set on this device", passcodeSet: false })
        }
        if (payload.emailCode !== undefined) {
          // Reset: works on a locked (or untrusted) passcode too; clears the user's attempt counter.
          const guard = yield* anyRecoveryEmail(user)
          if (guard === undefined) return yield* missingRecoveryEmail()
          const emailCode = payload.emailCode
          yield* transaction(
            Effect.gen(function* () {
              yield* useChangePasscodeCode(user, guard, payload.product, emailCode)
              yield* Effect.orDie(storePasscode(user, serial, payload.newPasscode, payload.newPasscodeType, "replace"))
              yield* Effect.orDie(clearAttempts(user))
            }),
          )
        } else {
          yield* verifyCredential(user, serial, payload.passcode === undefined ? {} : { passcode: payload.passcode })
          yield* Effect.orDie(storePasscode(user, serial, payload.newPasscode, payload.newPasscodeType, "replace"))
        }
        return yield* infoOf(user, serial)
      }),
    )
    .handle("verify", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const config = yield* PasscodeConfig
        yield* verifyCredential(user, payload.deviceSerial, payload)
        return { verified: true as const, unlockDuration: config.unlockDurationSeconds }
      }),
    )
    .handle("setupBiometry", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        yield* verifyCredential(user, payload.deviceSerial, { passcode: payload.passcode })
        return { biometryToken: yield* Effect.orDie(setBiometryToken(user, payload.deviceSerial)) }
      }),
    )
    .handle("deactivateBiometry", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        yield* verifyCredential(user, payload.deviceSerial, payload)
        yield* Effect.orDie(clearBiometryToken(user, payload.deviceSerial))
      }),
    ),
)

const RecoveryEmailLive = HttpApiBuilder.group(PasscodeApi, "recoveryEmail", (handlers) =>
  handlers
    .handle("get", ({ query }) =>
      Effect.gen(function* () {
        const user = yield* userId
        return recoveryEmailOf(query.product, yield* findRecoveryEmail(user, query.product))
      }),
    )
    .handle("requestEmailCode", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        let email: string | undefined
        if (payload.reason === "confirm-email") {
          email = payload.email
          if (email === undefined) return yield* new RecoveryEmailError({ code: "source_email_missing", message: "confirm-email needs the address in email" })
        } else {
          email = yield* findRecoveryEmail(user, payload.product)
          if (email === undefined) return yield* missingRecoveryEmail()
        }
        return yield* issueEmailCode(user, { kind: "recovery", product: payload.product, reason: payload.reason }, email, payload.language)
      }),
    )
    .handle("checkEmailCode", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: payload.reason }, payload.emailCode)
        return { valid: true as const }
      }),
    )
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        if ((yield* findRecoveryEmail(user, payload.product)) !== undefined) {
          return yield* new RecoveryEmailError({ code: "recovery_email_exists", message: "A recovery email is already set: change it instead" })
        }
        yield* transaction(
          Effect.gen(function* () {
            const code = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "confirm-email" }, payload.emailCode, {
              email: payload.email,
            })
            yield* consumeEmailCodes([code])
            if (!(yield* saveRecoveryEmail(user, payload.product, payload.email, "create"))) {
              return yield* new RecoveryEmailError({ code: "recovery_email_exists", message: "A recovery email is already set: change it instead" })
            }
          }),
        )
        return recoveryEmailOf(payload.product, yield* findRecoveryEmail(user, payload.product))
      }),
    )
    .handle("change", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const current = yield* findRecoveryEmail(user, payload.product)
        if (current === undefined) return yield* missingRecoveryEmail()
        yield* transaction(
          Effect.gen(function* () {
            const currentCode = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "change-email" }, payload.currentEmailCode, {
              email: current,
            })
            const newCode = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "confirm-email" }, payload.emailCode, {
              email: payload.email,
            })
            yield* consumeEmailCodes([currentCode, newCode])
            yield* saveRecoveryEmail(user, payload.product, payload.email, "change")
          }),
        )
        return recoveryEmailOf(payload.product, yield* findRecoveryEmail(user, payload.product))
      }),
    ),
)

const SecurityLive = HttpApiBuilder.group(PasscodeApi, "security", (handlers) =>
  handlers
    .handle("beginChallenge", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const config = yield* PasscodeConfig
        const passcode = yield* Effect.orDie(findPasscode(user, payload.deviceSerial))
        if (passcode !== undefined) {
          yield* verifyCredential(user, payload.deviceSerial, payload)
        } else if (yield* hasAnyPasscode(user)) {
          // A passcode on another device: this serial gets one only through the email-code rules
          // (docs/decisions/0540), never a token without a credential.
          return yield* new PasscodeError({ code: "passcode_missing", message: "No passcode is set on this device", passcodeSet: false })
        } else if (yield* passcodeForced(user)) {
          return yield* new PasscodeError({
            code: "passcode_missing",
            message: "A passcode is required for this account: create one first",
            passcodeSet: false,
          })
        }
        const name = payload.operation.name
        // The token is bound to the operation's parameters too (docs/decisions/0550).
        const paramsHash = paramsHashOf(payload.operation.params)
        const enforced = config.emailChallengeOperations.includes("*") || config.emailChallengeOperations.includes(name)
        const recovery = enforced ? yield* anyRecoveryEmail(user) : undefined
        if (recovery !== undefined) {
          const challengeId = yield* createChallenge(user, payload.deviceSerial, name, recovery.product, paramsHash)
          return { method: "email-code" as const, challengeId, maskedEmail: maskEmail(recovery.email) }
        }
        return yield* grantOperationToken(user, payload.deviceSerial, name, paramsHash)
      }),
    )
    .handle("requestChallengeEmailCode", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const challenge = yield* openChallenge(user, payload.challengeId)
        const email = yield* findRecoveryEmail(user, challenge.product as Product)
        if (email === undefined) return yield* missingRecoveryEmail()
        return yield* issueEmailCode(user, { kind: "challenge", challengeId: challenge.id }, email, payload.language)
      }),
    )
    .handle("completeChallenge", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const challenge = yield* openChallenge(user, payload.challengeId)
        return yield* transaction(
          Effect.gen(function* () {
            const code = yield* checkEmailCode(user, { kind: "challenge", challengeId: challenge.id }, payload.emailCode)
            yield* consumeEmailCodes([code])
            if (!(yield* completeChallengeRow(challenge.id))) {
              return yield* new ChallengeError({ code: "challenge_completed", message: "This challenge is already completed" })
            }
            return yield* grantOperationToken(user, challenge.deviceSerial, challenge.operation, challenge.paramsHash)
          }),
        )
      }),
    ),
)

/** All groups; `usdBalance` pins the forced-passcode rule's balances (default: the kernel's UsdBalances port). */
export const makePasscodeHandlers = (usdBalance?: UsdBalanceShape) => {
  const live = Layer.mergeAll(PasscodeLive, RecoveryEmailLive, SecurityLive, DeviceKeysLive, PasscodeHousekeeping, DeviceKeysAtRest).pipe(
    // One device-key ring per server (env, key file or a random key of the process: decision 0540).
    Layer.provide(Layer.mergeAll(PasscodeConfig.layer, Outbox.layer, DeviceKeyRing.layer)),
  )
  return usdBalance === undefined ? live : live.pipe(Layer.provide(Layer.succeed(UsdBalance, usdBalance)))
}
