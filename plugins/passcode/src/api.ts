/**
 * `@wallet/plugin-passcode/api`: the HTTP contract of passcodes, device biometry, recovery email
 * and security challenges (spec 3 sections 3, 4.3, 4.4, 5, 7.3, 8, 9). Browser-safe: imports only
 * `effect` and `@wallet/kernel/api`. Every endpoint needs `Authorization: Bearer <access token>`.
 *
 * Failures carry a `code` from the spec's catalogue: `PasscodeError` (passcode_wrong and
 * passcode_exceeded_max_attempts with `remainingAttempts`, passcode_missing, ...),
 * `EmailCodeError` (code_not_found, code_not_newest, code_used, wrong_code_reason,
 * expired_email_code), `RecoveryEmailError` (source_email_missing, ...), `RateLimited`
 * (rate_limit_exceeded), `ChallengeError`, `OperationTokenError`.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, authenticated, OperationParams, RateLimitedResponse, UserText, userText } from "@wallet/kernel/api"

// --- constants (spec 3 section 9) ------------------------------------------------------------

export const PASSCODE_LENGTHS = [4, 6] as const
/** Accepted by the server (the client warns with "use anyway" / "change"). */
export const WEAK_PASSCODES = ["0000", "1234", "000000", "123456"] as const
export const EMAIL_CODE_LENGTH = 6
/** The client's resend countdown; the server's minimum interval between codes is below it. */
export const RESEND_COUNTDOWN_SECONDS = 59
/** The client shows the remaining attempts when fewer than this remain. */
export const SHOW_REMAINING_ATTEMPTS_BELOW = 4
/** The header carrying the device serial (a 36-character device uuid). */
export const DEVICE_SERIAL_HEADER = "x-wallet-device-serial"

export const isWeakPasscode = (passcode: string): boolean => (WEAK_PASSCODES as ReadonlyArray<string>).includes(passcode)

/**
 * Spec 3 section 5: when the local part has more than 5 characters keep its first two and last
 * characters with three stars between; shorter (or already masked) addresses stay as they are.
 */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf("@")
  if (at < 0) return email
  const local = email.slice(0, at)
  if (local.length <= 5) return email
  return `${local.slice(0, 2)}***${local.slice(-1)}${email.slice(at)}`
}

// --- field schemas ---------------------------------------------------------------------------

export const PasscodeType = Schema.Literals(["4-digit", "6-digit"])
export type PasscodeType = typeof PasscodeType.Type
export const passcodeLength = (type: PasscodeType): 4 | 6 => (type === "4-digit" ? 4 : 6)

/** Exactly 4 or 6 digits (the type says which). */
export const Passcode = Schema.String.check(Schema.isPattern(/^(\d{4}|\d{6})$/, { message: "a passcode is 4 or 6 digits" }))
/** Device uuid (length 36). */
export const DeviceSerial = Schema.String.check(Schema.isPattern(/^[0-9A-Za-z-]{36}$/, { message: "a device serial is 36 characters" }))
export const EmailCode = Schema.String.check(Schema.isPattern(/^\d{6}$/, { message: "an email code is 6 digits" }))
/** A standard e-mail pattern, at most 254 characters. */
export const Email = UserText.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, { message: "not an e-mail address" }))
export const BiometryToken = userText({ minLength: 16, maxLength: 128 })
export const Product = Schema.Literals(["wallet", "ton-space"])
export type Product = typeof Product.Type
export const EmailCodeReason = Schema.Literals(["get-recovery-key", "change-passcode", "change-email", "confirm-email"])
export type EmailCodeReason = typeof EmailCodeReason.Type
/** Language of the email; unknown languages get English. */
export const Language = Schema.String.check(Schema.isPattern(/^[a-zA-Z]{2,3}([_-][a-zA-Z0-9]{2,4})?$/))
/**
 * What a security challenge protects, e.g. `{ name: "custody_transfer", params: { currency, amount, receiver } }`,
 * `{ name: "show_mnemonic" }`. The token is bound to the name and the params (docs/decisions/0550:
 * the kernel's `OPERATIONS` catalogue names them); the consuming endpoint compares its own.
 */
export const Operation = Schema.Struct({
  name: Schema.String.check(Schema.isPattern(/^[a-z][a-z0-9_.-]{0,63}$/)),
  params: Schema.optionalKey(OperationParams),
})
export type Operation = typeof Operation.Type

const passcodeMatchesType = <T extends { readonly newPasscode: string; readonly newPasscodeType: PasscodeType }>() =>
  Schema.makeFilter<T>((value) =>
    value.newPasscode.length === passcodeLength(value.newPasscodeType)
      ? undefined
      : { path: ["newPasscode"], issue: `a ${value.newPasscodeType} passcode has ${passcodeLength(value.newPasscodeType)} digits` },
  )

// --- errors ----------------------------------------------------------------------------------

export const PasscodeErrorCode = Schema.Literals([
  /** Wrong passcode; `remainingAttempts` says how many tries are left. */
  "passcode_wrong",
  /** No tries left: only a recovery-email code resets the passcode. */
  "passcode_exceeded_max_attempts",
  /** None given, or none set on this device (`passcodeSet` tells which). */
  "passcode_missing",
  /** createPasscode on a device that has one (use updatePasscode). */
  "passcode_already_set",
  /** The request needs a device serial (body or `x-wallet-device-serial`). */
  "device_serial_missing",
  /** The biometry token is not (or no longer) the one set up for this device. */
  "biometry_token_invalid",
])
export type PasscodeErrorCode = typeof PasscodeErrorCode.Type

export class PasscodeError extends Schema.TaggedError<PasscodeError>()(
  "PasscodeError",
  {
    code: PasscodeErrorCode,
    message: Schema.String,
    remainingAttempts: Schema.optionalKey(Schema.Int),
    /** With passcode_missing: whether this device has a passcode at all. */
    passcodeSet: Schema.optionalKey(Schema.Boolean),
  },
  { httpApiStatus: 403, description: "The passcode (or biometry token) was not accepted; `code` says why" },
) {}

export const EmailCodeErrorCode = Schema.Literals(["code_not_found", "code_not_newest", "code_used", "wrong_code_reason", "expired_email_code"])
export type EmailCodeErrorCode = typeof EmailCodeErrorCode.Type

export class EmailCodeError extends Schema.TaggedError<EmailCodeError>()(
  "EmailCodeError",
  { code: EmailCodeErrorCode, message: Schema.String },
  { httpApiStatus: 400, description: "The email code was not accepted; `code` says why (the input shakes and clears)" },
) {}

export const RecoveryEmailErrorCode = Schema.Literals([
  /** Passcode creation without an email to recover it: open the create-recovery-email flow. */
  "source_email_missing",
  /** The product has no recovery email (create one first). */
  "recovery_email_missing",
  /** The product already has a recovery email (change it instead). */
  "recovery_email_exists",
  /**
   * Passcode creation when the user has a recovery email: send a code of reason change-passcode to
   * the address on file (`product`, `maskedEmail` say which) and create with it (decision 0540).
   */
  "email_code_required",
])
export class RecoveryEmailError extends Schema.TaggedError<RecoveryEmailError>()(
  "RecoveryEmailError",
  {
    code: RecoveryEmailErrorCode,
    message: Schema.String,
    /** With email_code_required: the product whose recovery email gets the code. */
    product: Schema.optionalKey(Product),
    /** With email_code_required: where the code goes (masked). */
    maskedEmail: Schema.optionalKey(Schema.String),
  },
  { httpApiStatus: 409, description: "The recovery email is missing or already set" },
) {}

/** Too many codes requested: the kernel's 429 (docs/decisions/0206), `Retry-After` header included. */
export { RateLimited } from "@wallet/kernel/api"

export const ChallengeErrorCode = Schema.Literals(["challenge_not_found", "challenge_expired", "challenge_completed", "unsupported_challenge_method"])
export class ChallengeError extends Schema.TaggedError<ChallengeError>()(
  "ChallengeError",
  { code: ChallengeErrorCode, message: Schema.String },
  { httpApiStatus: 409, description: "The security challenge cannot be continued" },
) {}

/** Answered by the endpoints (of any plugin) that consume an operation token: the kernel's (docs/decisions/0550). */
export { OperationTokenError, OperationTokenErrorCode } from "@wallet/kernel/api"

// --- passcode --------------------------------------------------------------------------------

export const PasscodeInfo = Schema.Struct({
  /** null when this device has no passcode. */
  passcodeType: Schema.NullOr(PasscodeType),
  deviceBiometrySet: Schema.Boolean,
  /** Seconds the wallet stays unlocked after a successful verification (0: ask every time). */
  unlockDuration: Schema.Int,
  /** Tries left before the passcode locks (0: locked, reset through an email code). */
  remainingAttempts: Schema.Int,
  /** The user must set a passcode (USD balance at or above the configured threshold). */
  passcodeForced: Schema.Boolean,
})
export type PasscodeInfo = typeof PasscodeInfo.Type

export const DeviceSerialHeaders = Schema.Struct({ [DEVICE_SERIAL_HEADER]: Schema.optionalKey(userText({ maxLength: 64 })) })

/**
 * The user's first passcode without any recovery email: `emailSource: "new"` with `email` and a
 * confirm-email `emailCode` (else source_email_missing). With a recovery email on file (any
 * product, also for a further device): `emailCode` of reason change-passcode sent to the user's
 * first recovery email (else email_code_required, which names it). Decision 0540.
 */
export const CreatePasscodeRequest = Schema.Struct({
  /** With `emailCode` (reason confirm-email): sets this recovery email in the same step. */
  email: Schema.optionalKey(Email),
  emailCode: Schema.optionalKey(EmailCode),
  newPasscode: Passcode,
  newPasscodeType: PasscodeType,
  /** "new": `email` + `emailCode` given; "existing": the recovery email already on file. Default by presence of `email`. */
  emailSource: Schema.optionalKey(Schema.Literals(["new", "existing"])),
  deviceSerial: DeviceSerial,
  /** The product of the recovery email the code went to (default: that of the user's first recovery email, else wallet). */
  product: Schema.optionalKey(Product),
}).check(passcodeMatchesType())
export type CreatePasscodeRequest = typeof CreatePasscodeRequest.Type

/** Change (current `passcode`) or reset (`emailCode` of reason change-passcode, also when locked). */
export const UpdatePasscodeRequest = Schema.Struct({
  emailCode: Schema.optionalKey(EmailCode),
  passcode: Schema.optionalKey(Passcode),
  newPasscode: Passcode,
  newPasscodeType: PasscodeType,
  /** Else the `x-wallet-device-serial` header. */
  deviceSerial: Schema.optionalKey(DeviceSerial),
  /** Product of the recovery email the reset code was sent from (default wallet). */
  product: Schema.optionalKey(Product),
}).check(passcodeMatchesType())
export type UpdatePasscodeRequest = typeof UpdatePasscodeRequest.Type

/** The passcode, or the device's biometry token in its place. */
export const VerifyPasscodeRequest = Schema.Struct({
  passcode: Schema.optionalKey(Passcode),
  biometryToken: Schema.optionalKey(BiometryToken),
  deviceSerial: DeviceSerial,
})
export const VerifyPasscodeResponse = Schema.Struct({ verified: Schema.Literal(true), unlockDuration: Schema.Int })

export const BiometrySetupRequest = Schema.Struct({ deviceSerial: DeviceSerial, passcode: Passcode })
export const BiometrySetupResponse = Schema.Struct({ biometryToken: Schema.String })
export const BiometryDeactivateRequest = Schema.Struct({
  deviceSerial: DeviceSerial,
  passcode: Schema.optionalKey(Passcode),
  biometryToken: Schema.optionalKey(BiometryToken),
})

export const PasscodeGroup = authenticated(
  HttpApiGroup.make("passcode").add(
    HttpApiEndpoint.get("info", "/api/passcode/info", { headers: DeviceSerialHeaders, success: PasscodeInfo, error: PasscodeError }),
    HttpApiEndpoint.post("create", "/api/passcode/create", {
      payload: CreatePasscodeRequest,
      success: PasscodeInfo,
      error: [PasscodeError, EmailCodeError, RecoveryEmailError],
    }),
    HttpApiEndpoint.post("update", "/api/passcode/update", {
      headers: DeviceSerialHeaders,
      payload: UpdatePasscodeRequest,
      success: PasscodeInfo,
      error: [PasscodeError, EmailCodeError, RecoveryEmailError],
    }),
    HttpApiEndpoint.post("verify", "/api/passcode/verify", { payload: VerifyPasscodeRequest, success: VerifyPasscodeResponse, error: PasscodeError }),
    HttpApiEndpoint.post("setupBiometry", "/api/passcode/biometry/setup", {
      payload: BiometrySetupRequest,
      success: BiometrySetupResponse,
      error: PasscodeError,
    }),
    HttpApiEndpoint.post("deactivateBiometry", "/api/passcode/biometry/deactivate", {
      payload: BiometryDeactivateRequest,
      success: HttpApiSchema.NoContent,
      error: PasscodeError,
    }),
  ),
)

// --- recovery email --------------------------------------------------------------------------

export const RecoveryEmailQuery = Schema.Struct({ product: Product })
export const RecoveryEmail = Schema.Struct({
  product: Product,
  /** null when none is set. */
  email: Schema.NullOr(Schema.String),
  /** The display form (spec 3 section 5 masking rule). */
  maskedEmail: Schema.NullOr(Schema.String),
})
export type RecoveryEmail = typeof RecoveryEmail.Type

export const RequestEmailCodeRequest = Schema.Struct({
  product: Product,
  reason: EmailCodeReason,
  language: Language,
  /** Where to send a confirm-email code; other reasons go to the recovery email on file. */
  email: Schema.optionalKey(Email),
})
export const EmailCodeSent = Schema.Struct({
  /** The masked address the code went to. */
  sentTo: Schema.String,
  /** ISO 8601 */
  expiresAt: Schema.String,
  /** Seconds until another code may be requested. */
  resendAfterSeconds: Schema.Int,
})
export type EmailCodeSent = typeof EmailCodeSent.Type

export const CheckEmailCodeRequest = Schema.Struct({ emailCode: EmailCode, reason: EmailCodeReason, product: Product })
export const CreateRecoveryEmailRequest = Schema.Struct({
  email: Email,
  emailCode: EmailCode,
  product: Product,
  deviceSerial: Schema.optionalKey(DeviceSerial),
})
/** `currentEmailCode` (reason change-email, sent to the current address) and `emailCode` (reason confirm-email, sent to `email`). */
export const ChangeRecoveryEmailRequest = Schema.Struct({ currentEmailCode: EmailCode, email: Email, emailCode: EmailCode, product: Product })

export const RecoveryEmailGroup = authenticated(
  HttpApiGroup.make("recoveryEmail").add(
    HttpApiEndpoint.get("get", "/api/recovery-email", { query: RecoveryEmailQuery, success: RecoveryEmail }),
    HttpApiEndpoint.post("requestEmailCode", "/api/recovery-email/request-code", {
      payload: RequestEmailCodeRequest,
      success: EmailCodeSent,
      error: [RateLimitedResponse, RecoveryEmailError],
    }),
    HttpApiEndpoint.post("checkEmailCode", "/api/recovery-email/check-code", {
      payload: CheckEmailCodeRequest,
      success: Schema.Struct({ valid: Schema.Literal(true) }),
      error: EmailCodeError,
    }),
    HttpApiEndpoint.post("create", "/api/recovery-email/create", {
      payload: CreateRecoveryEmailRequest,
      success: RecoveryEmail,
      error: [EmailCodeError, RecoveryEmailError],
    }),
    HttpApiEndpoint.post("change", "/api/recovery-email/change", {
      payload: ChangeRecoveryEmailRequest,
      success: RecoveryEmail,
      error: [EmailCodeError, RecoveryEmailError],
    }),
  ),
)

// --- security challenges ---------------------------------------------------------------------

export const BeginChallengeRequest = Schema.Struct({
  deviceSerial: DeviceSerial,
  biometryToken: Schema.optionalKey(BiometryToken),
  passcode: Schema.optionalKey(Passcode),
  language: Language,
  operation: Operation,
})
export const OperationTokenGranted = Schema.Struct({
  /** Single use, for this user, device, operation and its params only (docs/decisions/0550). */
  operationToken: Schema.String,
  /** ISO 8601 */
  expiresAt: Schema.String,
})
export type OperationTokenGranted = typeof OperationTokenGranted.Type
export const ChallengeMethod = Schema.Literals(["email-code"])
export const ChallengeStarted = Schema.Struct({ method: ChallengeMethod, challengeId: Schema.String, maskedEmail: Schema.String })
export const BeginChallengeResponse = Schema.Union([OperationTokenGranted, ChallengeStarted])
export type BeginChallengeResponse = typeof BeginChallengeResponse.Type

export const RequestChallengeEmailCodeRequest = Schema.Struct({ challengeId: userText({ minLength: 1, maxLength: 64 }), language: Language })
export const CompleteChallengeRequest = Schema.Struct({ challengeId: userText({ minLength: 1, maxLength: 64 }), emailCode: EmailCode })

export const SecurityGroup = authenticated(
  HttpApiGroup.make("security").add(
    HttpApiEndpoint.post("beginChallenge", "/api/security/challenges/begin", {
      payload: BeginChallengeRequest,
      success: BeginChallengeResponse,
      error: [PasscodeError, RecoveryEmailError],
    }),
    HttpApiEndpoint.post("requestChallengeEmailCode", "/api/security/challenges/request-email-code", {
      payload: RequestChallengeEmailCodeRequest,
      success: EmailCodeSent,
      error: [ChallengeError, RateLimitedResponse, RecoveryEmailError],
    }),
    HttpApiEndpoint.post("completeChallenge", "/api/security/challenges/complete", {
      payload: CompleteChallengeRequest,
      success: OperationTokenGranted,
      error: [ChallengeError, EmailCodeError],
    }),
  ),
)

// --- device keys and the recovery key (docs/decisions/0602, 0511) ------------------------------

/** A wallet address (raw or user-friendly form). */
export const WalletAddress = userText({ minLength: 1, maxLength: 128 })
/** The client's RSA-2048 OAEP SHA-256 public key, SPKI DER as base64url. */
export const TransportPublicKey = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{200,1400}$/, { message: "an SPKI public key in base64url" }))
/** The server's device key wrapped with RSA-OAEP SHA-256 to the transport key, base64url. */
export const WrappedDeviceKey = Schema.String

export class DeviceKeyNotFound extends Schema.TaggedError<DeviceKeyNotFound>()(
  "DeviceKeyNotFound",
  { code: Schema.Literal("external_id_not_found"), message: Schema.String },
  { httpApiStatus: 404, description: "No device key of this user under the externalId, or it belongs to another address" },
) {}

/** The transport public key parses as no RSA SPKI key of at least 2048 bits (checked before the passcode: no attempt burned). */
export class InvalidTransportKey extends Schema.TaggedError<InvalidTransportKey>()(
  "InvalidTransportKey",
  { code: Schema.Literal("invalid_transport_key"), message: Schema.String },
  { httpApiStatus: 400, description: "transportPublicKey is not an RSA-2048 (or larger) SPKI public key" },
) {}

export class RecoveryKeyNotFound extends Schema.TaggedError<RecoveryKeyNotFound>()(
  "RecoveryKeyNotFound",
  { code: Schema.Literal("recovery_key_not_found"), message: Schema.String },
  { httpApiStatus: 404, description: "No recovery key is stored for this product" },
) {}

/** A new device key needs the passcode (or the device's biometry token), checked on verify's per-user counter (decision 0540). */
export const GenerateDeviceKeyRequest = Schema.Struct({
  address: WalletAddress,
  transportPublicKey: TransportPublicKey,
  passcode: Schema.optionalKey(Passcode),
  biometryToken: Schema.optionalKey(BiometryToken),
  /** Else the `x-wallet-device-serial` header. */
  deviceSerial: Schema.optionalKey(DeviceSerial),
})
export const GenerateDeviceKeyResponse = Schema.Struct({ externalId: Schema.String, deviceEncryptionKey: WrappedDeviceKey })
export const GetDeviceKeyRequest = Schema.Struct({
  externalId: userText({ minLength: 1, maxLength: 64 }),
  address: WalletAddress,
  transportPublicKey: TransportPublicKey,
  passcode: Schema.optionalKey(Passcode),
  biometryToken: Schema.optionalKey(BiometryToken),
  /** Else the `x-wallet-device-serial` header. */
  deviceSerial: Schema.optionalKey(DeviceSerial),
})
export const GetDeviceKeyResponse = Schema.Struct({ deviceEncryptionKey: WrappedDeviceKey })

/** The recovery split's server part (kernel keyvault `recovery.ts`): AES key and iv in hex, shard 1. */
export const RecoveryKey = Schema.Struct({
  key: Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/)),
  iv: Schema.String.check(Schema.isPattern(/^[0-9a-f]{24}$/)),
  shard: Schema.String.check(Schema.isPattern(/^rs1\.[A-Za-z0-9_-]{1,8192}$/)),
})
export type RecoveryKey = typeof RecoveryKey.Type
export const StoreRecoveryKeyRequest = Schema.Struct({ product: Product, ...RecoveryKey.fields })
/** Released only with an email code of reason get-recovery-key (sent to the product's recovery email). */
export const GetRecoveryKeyRequest = Schema.Struct({ product: Product, emailCode: EmailCode })

export const DeviceKeyGroup = authenticated(
  HttpApiGroup.make("deviceKeys").add(
    HttpApiEndpoint.post("generate", "/api/device-keys/generate", {
      headers: DeviceSerialHeaders,
      payload: GenerateDeviceKeyRequest,
      success: GenerateDeviceKeyResponse,
      error: [PasscodeError, InvalidTransportKey],
    }),
    HttpApiEndpoint.post("get", "/api/device-keys/get", {
      headers: DeviceSerialHeaders,
      payload: GetDeviceKeyRequest,
      success: GetDeviceKeyResponse,
      error: [PasscodeError, DeviceKeyNotFound, InvalidTransportKey],
    }),
    /** Logout ("delete the server records"): the user's device keys. */
    HttpApiEndpoint.post("deleteAll", "/api/device-keys/delete", { success: HttpApiSchema.NoContent }),
    HttpApiEndpoint.post("storeRecoveryKey", "/api/recovery-key/store", { payload: StoreRecoveryKeyRequest, success: HttpApiSchema.NoContent }),
    HttpApiEndpoint.post("getRecoveryKey", "/api/recovery-key/get", {
      payload: GetRecoveryKeyRequest,
      success: RecoveryKey,
      error: [EmailCodeError, RecoveryKeyNotFound],
    }),
  ),
)

export const PasscodeApi = HttpApi.make(ApiId).add(PasscodeGroup, RecoveryEmailGroup, SecurityGroup, DeviceKeyGroup)
