/**
 * What the vault needs from outside, injected as services: the device key server (an HTTP client
 * of the passcode plugin's endpoints, wired by the app), the store for blobs (Telegram
 * SecureStorage / DeviceStorage / localStorage), Telegram's BiometricManager and a logger.
 */
import { Context, Effect, Layer } from "effect"
import type { DeviceKeyError, SecureStorageFailed } from "./errors.ts"

/** Proof of the user's presence the server checks (with attempt limits) before releasing a device key. */
export type DeviceKeyProof = { readonly passcode: string } | { readonly biometryToken: string }

/**
 * The server side of the device encryption key (spec 2 section 7 "Wallet addresses and backup":
 * "POST generate device encryption key; body address", "POST get device encryption key; body
 * externalId and address"). The key is a random 256-bit secret kept by the server; it travels only
 * RSA-OAEP(SHA-256)-wrapped to the client's transport public key (`transportPublicKey`, SPKI
 * base64url). `generate` and `get` verify the proof first (passcode attempts counted on the server,
 * one counter per user) and fail with PasscodeRejected (passcode_wrong with remainingAttempts, passcode_exceeded_max_attempts),
 * ExternalIdNotFound or DeviceKeyUnavailable.
 */
export class DeviceKeyServer extends Context.Service<
  DeviceKeyServer,
  {
    /** A new device key for the address; the server checks the proof first, as for `get` (decision 0540). */
    readonly generate: (request: {
      readonly address: string
      readonly transportPublicKey: string
      readonly proof: DeviceKeyProof
    }) => Effect.Effect<{ readonly externalId: string; readonly deviceEncryptionKey: string }, DeviceKeyError>
    readonly get: (request: {
      readonly externalId: string
      readonly address: string
      readonly transportPublicKey: string
      readonly proof: DeviceKeyProof
    }) => Effect.Effect<{ readonly deviceEncryptionKey: string }, DeviceKeyError>
  }
>()("wallet/keyvault/DeviceKeyServer") {}

/** A string store on this device. Telegram SecureStorage in production (client 9.0+), a map in tests. */
export class VaultStore extends Context.Service<
  VaultStore,
  {
    readonly get: (key: string) => Effect.Effect<string | null, SecureStorageFailed>
    readonly set: (key: string, value: string) => Effect.Effect<void, SecureStorageFailed>
    readonly remove: (key: string) => Effect.Effect<void, SecureStorageFailed>
  }
>()("wallet/keyvault/VaultStore") {}

/** Telegram's BiometricManager (Bot API 7.2+), as promises turned into effects by the adapter. */
export class BiometricManager extends Context.Service<
  BiometricManager,
  {
    readonly info: () => Effect.Effect<{ readonly available: boolean; readonly accessGranted: boolean; readonly tokenSaved: boolean }>
    /** Asks for access; true when granted. */
    readonly requestAccess: (reason: string) => Effect.Effect<boolean>
    /** Shows the prompt; the stored token comes back only when authenticated. */
    readonly authenticate: (reason: string) => Effect.Effect<{ readonly authenticated: boolean; readonly token?: string }>
    /** Stores a token ('' removes it); true when updated. */
    readonly updateToken: (token: string) => Effect.Effect<boolean>
  }
>()("wallet/keyvault/BiometricManager") {}

export type LogFields = Readonly<Record<string, string | number | boolean>>

/** Where the vault reports: events and problems with primitive, non-secret fields only. */
export class VaultLogger extends Context.Service<
  VaultLogger,
  {
    readonly info: (event: string, fields?: LogFields) => void
    /** Reported to the error tracker (spec: decryption failures are reported). */
    readonly report: (event: string, fields?: LogFields) => void
  }
>()("wallet/keyvault/VaultLogger") {
  static readonly layerConsole = Layer.succeed(VaultLogger, {
    info: (event, fields) => console.info(`[keyvault] ${event}`, fields ?? {}),
    report: (event, fields) => console.warn(`[keyvault] ${event}`, fields ?? {}),
  })
}
