/** Handlers of the passcode, recovery-email and security groups. */
import { Effect, Layer } from "effect";
import { HttpApiBuilder } from "effect/http-api";
import { SqlClient } from "effect/sql";
import { CurrentSession } from "@wallet/kernel/api";
import { Outbox } from "@wallet/kernel-server/outbox";
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
} from "../api.ts";
import { PasscodeConfig, UsdBalance, type UsdBalanceShape } from "./config.ts";
import { PasscodeHousekeeping } from "./housekeeping.ts";
import { checkEmailCode, consumeEmailCodes, issueEmailCode } from "./emailCodes.ts";
import { completeChallengeRow, createChallenge, grantOperationToken, openChallenge } from "./operations.ts";
import { clearBiometryToken, findPasscode, remainingOf, setBiometryToken, storePasscode, verifyCredential } from "./passcodes.ts";
import { anyRecoveryEmail, findRecoveryEmail, saveRecoveryEmail } from "./recovery.ts";
import { DeviceKeysLive } from "./deviceKeys.ts";
import { serialFrom } from "./serial.ts";


const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    return yield* sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)));
  });

const userId = Effect.gen(function* () {
  const session = yield* CurrentSession;
  return session.userId;
});


/** The forced-passcode rule: the USD balance at or above the configured threshold. */
const passcodeForced = (user: number) =>
  Effect.gen(function* () {
    const config = yield* PasscodeConfig;
    if (config.forcePasscodeUsdCents <= 0n) return false;
    const balance = yield* UsdBalance;
    return (yield* balance.usdCentsOf(user)) >= config.forcePasscodeUsdCents;
  });

const infoOf = (user: number, deviceSerial: string) =>
  Effect.gen(function* () {
    const config = yield* PasscodeConfig;
    const row = yield* Effect.orDie(findPasscode(user, deviceSerial));
    return {
      passcodeType: row?.passcodeType ?? null,
      deviceBiometrySet: row?.biometrySet ?? false,
      unlockDuration: config.unlockDurationSeconds,
      remainingAttempts: remainingOf(row, config.maxPasscodeAttempts),
      passcodeForced: yield* passcodeForced(user),
    } satisfies PasscodeInfo;
  });

const recoveryEmailOf = (product: Product, email: string | undefined): RecoveryEmail => ({
  product,
  email: email ?? null,
  maskedEmail: email === undefined ? null : maskEmail(email),
});

const missingRecoveryEmail = () => new RecoveryEmailError({ code: "recovery_email_missing", message: "No recovery email is set: create one first" });

const PasscodeLive = HttpApiBuilder.group(PasscodeApi, "passcode", (handlers) =>
  handlers
    .handle("info", ({ headers }) =>
      Effect.gen(function* () {
        const serial = yield* serialFrom(undefined, headers[DEVICE_SERIAL_HEADER]);
        return yield* infoOf(yield* userId, serial);
      }),
    )
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        const product = payload.product ?? "wallet";
        if ((yield* Effect.orDie(findPasscode(user, payload.deviceSerial))) !== undefined) {
          return yield* new PasscodeError({ code: "passcode_already_set", message: "This device already has a passcode: change it instead" });
        }
        const source = payload.emailSource ?? (payload.email !== undefined ? "new" : "existing");
        if (source === "existing") {
          const existing = payload.product === undefined ? (yield* anyRecoveryEmail(user))?.email : yield* findRecoveryEmail(user, product);
          if (existing === undefined) {
            return yield* new RecoveryEmailError({ code: "source_email_missing", message: "A recovery email is needed before a passcode" });
          }
        }
        yield* transaction(
          Effect.gen(function* () {
            if (source === "new") {
              if (payload.email === undefined || payload.emailCode === undefined) {
                return yield* new RecoveryEmailError({ code: "source_email_missing", message: "email and emailCode are needed with emailSource new" });
              }
              const current = yield* findRecoveryEmail(user, product);
              if (current !== undefined && current !== payload.email.trim().toLowerCase()) {
                return yield* new RecoveryEmailError({ code: "recovery_email_exists", message: "Another recovery email is set: change it instead" });
              }
              const code = yield* checkEmailCode(user, { kind: "recovery", product, reason: "confirm-email" }, payload.emailCode, { email: payload.email });
              yield* consumeEmailCodes([code]);
              if (current === undefined) yield* saveRecoveryEmail(user, product, payload.email, "create");
            }
            const created = yield* Effect.orDie(storePasscode(user, payload.deviceSerial, payload.newPasscode, payload.newPasscodeType, "create"));
            if (!created) return yield* new PasscodeError({ code: "passcode_already_set", message: "This device already has a passcode: change it instead" });
          }),
        );
        return yield* infoOf(user, payload.deviceSerial);
      }),
    )
    .handle("update", ({ payload, headers }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        const serial = yield* serialFrom(payload.deviceSerial, headers[DEVICE_SERIAL_HEADER]);
        if ((yield* Effect.orDie(findPasscode(user, serial))) === undefined) {
          return yield* new PasscodeError({ code: "passcode_missing", message: "No passcode is set on this device", passcodeSet: false });
        }
        if (payload.emailCode !== undefined) {
          // Reset: works on a locked passcode too.
          const product = payload.product ?? "wallet";
          const emailCode = payload.emailCode;
          yield* transaction(
            Effect.gen(function* () {
              const code = yield* checkEmailCode(user, { kind: "recovery", product, reason: "change-passcode" }, emailCode);
              yield* consumeEmailCodes([code]);
              yield* Effect.orDie(storePasscode(user, serial, payload.newPasscode, payload.newPasscodeType, "replace"));
            }),
          );
        } else {
          yield* verifyCredential(user, serial, payload.passcode === undefined ? {} : { passcode: payload.passcode });
          yield* Effect.orDie(storePasscode(user, serial, payload.newPasscode, payload.newPasscodeType, "replace"));
        }
        return yield* infoOf(user, serial);
      }),
    )
    .handle("verify", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        const config = yield* PasscodeConfig;
        yield* verifyCredential(user, payload.deviceSerial, payload);
        return { verified: true as const, unlockDuration: config.unlockDurationSeconds };
      }),
    )
    .handle("setupBiometry", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        yield* verifyCredential(user, payload.deviceSerial, { passcode: payload.passcode });
        return { biometryToken: yield* Effect.orDie(setBiometryToken(user, payload.deviceSerial)) };
      }),
    )
    .handle("deactivateBiometry", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        yield* verifyCredential(user, payload.deviceSerial, payload);
        yield* Effect.orDie(clearBiometryToken(user, payload.deviceSerial));
      }),
    ),
);

const RecoveryEmailLive = HttpApiBuilder.group(PasscodeApi, "recoveryEmail", (handlers) =>
  handlers
    .handle("get", ({ query }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        return recoveryEmailOf(query.product, yield* findRecoveryEmail(user, query.product));
      }),
    )
    .handle("requestEmailCode", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        let email: string | undefined;
        if (payload.reason === "confirm-email") {
          email = payload.email;
          if (email === undefined) return yield* new RecoveryEmailError({ code: "source_email_missing", message: "confirm-email needs the address in email" });
        } else {
          email = yield* findRecoveryEmail(user, payload.product);
          if (email === undefined) return yield* missingRecoveryEmail();
        }
        return yield* issueEmailCode(user, { kind: "recovery", product: payload.product, reason: payload.reason }, email, payload.language);
      }),
    )
    .handle("checkEmailCode", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: payload.reason }, payload.emailCode);
        return { valid: true as const };
      }),
    )
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        if ((yield* findRecoveryEmail(user, payload.product)) !== undefined) {
          return yield* new RecoveryEmailError({ code: "recovery_email_exists", message: "A recovery email is already set: change it instead" });
        }
        yield* transaction(
          Effect.gen(function* () {
            const code = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "confirm-email" }, payload.emailCode, { email: payload.email });
            yield* consumeEmailCodes([code]);
            if (!(yield* saveRecoveryEmail(user, payload.product, payload.email, "create"))) {
              return yield* new RecoveryEmailError({ code: "recovery_email_exists", message: "A recovery email is already set: change it instead" });
            }
          }),
        );
        return recoveryEmailOf(payload.product, yield* findRecoveryEmail(user, payload.product));
      }),
    )
    .handle("change", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        const current = yield* findRecoveryEmail(user, payload.product);
        if (current === undefined) return yield* missingRecoveryEmail();
        yield* transaction(
          Effect.gen(function* () {
            const currentCode = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "change-email" }, payload.currentEmailCode, { email: current });
            const newCode = yield* checkEmailCode(user, { kind: "recovery", product: payload.product, reason: "confirm-email" }, payload.emailCode, { email: payload.email });
            yield* consumeEmailCodes([currentCode, newCode]);
            yield* saveRecoveryEmail(user, payload.product, payload.email, "change");
          }),
        );
        return recoveryEmailOf(payload.product, yield* findRecoveryEmail(user, payload.product));
      }),
    ),
);

const SecurityLive = HttpApiBuilder.group(PasscodeApi, "security", (handlers) =>
  handlers
    .handle("beginChallenge", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        const config = yield* PasscodeConfig;
        const passcode = yield* Effect.orDie(findPasscode(user, payload.deviceSerial));
        if (passcode !== undefined) {
          yield* verifyCredential(user, payload.deviceSerial, payload);
        } else if (yield* passcodeForced(user)) {
          return yield* new PasscodeError({ code: "passcode_missing", message: "A passcode is required for this account: create one first", passcodeSet: false });
        }
        const name = payload.operation.name;
        const enforced = config.emailChallengeOperations.includes("*") || config.emailChallengeOperations.includes(name);
        const recovery = enforced ? yield* anyRecoveryEmail(user) : undefined;
        if (recovery !== undefined) {
          const challengeId = yield* createChallenge(user, payload.deviceSerial, name, recovery.product);
          return { method: "email-code" as const, challengeId, maskedEmail: maskEmail(recovery.email) };
        }
        return yield* grantOperationToken(user, payload.deviceSerial, name);
      }),
    )
    .handle("requestChallengeEmailCode", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        const challenge = yield* openChallenge(user, payload.challengeId);
        const email = yield* findRecoveryEmail(user, challenge.product as Product);
        if (email === undefined) return yield* missingRecoveryEmail();
        return yield* issueEmailCode(user, { kind: "challenge", challengeId: challenge.id }, email, payload.language);
      }),
    )
    .handle("completeChallenge", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId;
        const challenge = yield* openChallenge(user, payload.challengeId);
        return yield* transaction(
          Effect.gen(function* () {
            const code = yield* checkEmailCode(user, { kind: "challenge", challengeId: challenge.id }, payload.emailCode);
            yield* consumeEmailCodes([code]);
            if (!(yield* completeChallengeRow(challenge.id))) {
              return yield* new ChallengeError({ code: "challenge_completed", message: "This challenge is already completed" });
            }
            return yield* grantOperationToken(user, challenge.deviceSerial, challenge.operation);
          }),
        );
      }),
    ),
);

/** All groups; `usdBalance` pins the forced-passcode rule's balances (default: the kernel's UsdBalances port). */
export const makePasscodeHandlers = (usdBalance?: UsdBalanceShape) => {
  const live = Layer.mergeAll(PasscodeLive, RecoveryEmailLive, SecurityLive, DeviceKeysLive, PasscodeHousekeeping).pipe(
    Layer.provide(Layer.mergeAll(PasscodeConfig.layer, Outbox.layer)),
  );
  return usdBalance === undefined ? live : live.pipe(Layer.provide(Layer.succeed(UsdBalance, usdBalance)));
};
