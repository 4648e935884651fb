/**
 * Typed errors of the key vault. Messages are the spec's texts (2-self-custody section 8, 3 section 8).
 * No error carries a cause from decrypted data: a parse error of plaintext could quote the secret.
 */
import { Data } from "effect"

export const MESSAGES = {
  clientCredsNotFound: "Client side encrypted wallet creds not found",
  serverCredsNotFound: "Server side encrypted creds not found",
  credsNotFoundInStore: "Creds not found in store",
  decryptFailed: "Failed to decrypt client side wallet creds",
  externalIdNotFound: "externalId not found",
  saveFailed: "Failed to save secureStorage value",
  getFailed: "Failed to get secureStorage value",
  biometryNotAvailable: "biometric is not available",
  biometryAccessNotGranted: "biometric access was not granted",
  biometryNotUpdated: "biometric was not updated",
  cancelled: "Cancelled",
} as const

/** No blob (or no slot for the asked method) in the store. */
export class CredsNotFound extends Data.TaggedError("CredsNotFound")<{
  readonly message: typeof MESSAGES.clientCredsNotFound | typeof MESSAGES.serverCredsNotFound | typeof MESSAGES.credsNotFoundInStore
}> {}

/** AES-GCM refused: wrong key material or a tampered blob. */
export class DecryptFailed extends Data.TaggedError("DecryptFailed")<{ readonly message: typeof MESSAGES.decryptFailed }> {}

/** The server did not release the device key: wrong passcode, attempts exhausted, none given. */
export class PasscodeRejected extends Data.TaggedError("PasscodeRejected")<{
  readonly code: "passcode_wrong" | "passcode_exceeded_max_attempts" | "passcode_missing" | "biometry_token_invalid"
  readonly message: string
  readonly remainingAttempts?: number
}> {}

/** The server knows no device key under the blob's externalId. */
export class ExternalIdNotFound extends Data.TaggedError("ExternalIdNotFound")<{ readonly message: typeof MESSAGES.externalIdNotFound }> {}

/** The device key server could not be reached or answered nonsense. */
export class DeviceKeyUnavailable extends Data.TaggedError("DeviceKeyUnavailable")<{ readonly message: string }> {}

export class SecureStorageFailed extends Data.TaggedError("SecureStorageFailed")<{
  readonly message: typeof MESSAGES.saveFailed | typeof MESSAGES.getFailed
  readonly key: string
}> {}

export class BiometryFailed extends Data.TaggedError("BiometryFailed")<{
  readonly message: typeof MESSAGES.biometryNotAvailable | typeof MESSAGES.biometryAccessNotGranted | typeof MESSAGES.biometryNotUpdated
}> {}

/** The user dismissed the biometric prompt. */
export class VaultCancelled extends Data.TaggedError("VaultCancelled")<{ readonly message: typeof MESSAGES.cancelled }> {}

/** Credentials handed to the vault are not 24 words, or the private key is not 32/64 bytes hex. */
export class InvalidCredentials extends Data.TaggedError("InvalidCredentials")<{ readonly message: string }> {}

export type DeviceKeyError = PasscodeRejected | ExternalIdNotFound | DeviceKeyUnavailable

export type KeyVaultError = CredsNotFound | DecryptFailed | DeviceKeyError | SecureStorageFailed | BiometryFailed | VaultCancelled | InvalidCredentials
