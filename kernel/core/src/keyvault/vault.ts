/**
 * The `KeyVault` service: the self-custody wallet's mnemonic and private key at rest on the device.
 * Threat model and key hierarchy: docs/decisions/0600-keyvault-threat-model.md; blob formats:
 * docs/decisions/0601-keyvault-blob-format.md. The parts: payload.ts (plaintext, credentials,
 * biometry token), slots.ts (key wrapping), opening.ts (reading and opening the blob),
 * vault-types.ts (options and status); this file is the service and its operations.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { aesDecrypt, fromBase64Url, KEY_BYTES, pbkdf2AesKey, randomBytes } from "./crypto.ts"
import {
  BiometryFailed,
  CredsNotFound,
  type DecryptFailed,
  type DeviceKeyError,
  InvalidCredentials,
  MESSAGES,
  type SecureStorageFailed,
  VaultCancelled,
} from "./errors.ts"
import { v2AssociatedData } from "./format.ts"
import { makeOpening } from "./opening.ts"
import {
  type Credentials,
  decodeBiometryToken,
  encodeBiometryToken,
  parsePayloadBytes,
  type Payload,
  toCredentials,
  toPayload,
  validatePayload,
} from "./payload.ts"
import { BiometricManager, type DeviceKeyProof, DeviceKeyServer, VaultLogger, VaultStore } from "./ports.ts"
import { createRecoverySplit, type RecoverySplit } from "./recovery.ts"
import { biometryKek, header, passcodeSlot, seal, serverSlot, sharedTransportKeyPair, unwrap, wrap } from "./slots.ts"
import type { BiometryUnlockOptions, KeyVaultOptions, UnlockOptions, VaultStatus } from "./vault-types.ts"

export { type Credentials, encodeBiometryToken, MNEMONIC_WORDS, openRecoverySplit, parsePayload, toCredentials } from "./payload.ts"
export { type BiometryUnlockOptions, type KeyVaultOptions, needsForcedLogout, type UnlockOptions, type VaultStatus } from "./vault-types.ts"

type StorageError = SecureStorageFailed

export class KeyVault extends Context.Service<
  KeyVault,
  {
    readonly status: () => Effect.Effect<VaultStatus, StorageError>
    /** Starts generating the transport key pair (call when a passcode screen opens). */
    readonly warmUp: () => Effect.Effect<void>
    /** Seals new credentials (created or imported) under the passcode and a new server device key. */
    readonly create: (input: {
      readonly credentials: Credentials
      readonly passcode: string
    }) => Effect.Effect<void, InvalidCredentials | DeviceKeyError | StorageError>
    /**
     * Opens the credentials: the server verifies the passcode (attempts counted there) and releases
     * the device key; both open the data key. A v1 blob is rewritten as v2; a migration slot is
     * replaced by a passcode slot; a stale slot of a passcode change is dropped.
     */
    readonly unlockWithPasscode: (
      passcode: string,
      options?: UnlockOptions,
    ) => Effect.Effect<Credentials, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError>
    /** Biometric prompt, then the same with the secret the BiometricManager kept. */
    readonly unlockWithBiometry: (
      options?: BiometryUnlockOptions,
    ) => Effect.Effect<Credentials, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError | BiometryFailed | VaultCancelled>
    /** Adds a biometry slot; `serverBiometryToken` is what the passcode plugin's biometry setup returned. */
    readonly enableBiometry: (input: {
      readonly passcode: string
      readonly serverBiometryToken: string
    }) => Effect.Effect<void, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError | BiometryFailed>
    readonly disableBiometry: () => Effect.Effect<void, StorageError>
    /**
     * Adds a slot for `next` beside the current one. Call before changing the passcode on the server;
     * the first unlock afterwards keeps only the slot that matched.
     */
    readonly changePasscode: (input: {
      readonly current: string
      readonly next: string
    }) => Effect.Effect<void, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError>
    /** Seals stored plain credentials under a new device key (a server slot); the server wants a proof for a new key (decision 0540). */
    readonly migratePlain: (proof: DeviceKeyProof) => Effect.Effect<"migrated" | "nothing" | "already", DeviceKeyError | StorageError>
    /** Removes plain credentials once backup is complete and a blob exists; true when removed. */
    readonly removePlainAfterBackup: (backupComplete: boolean) => Effect.Effect<boolean, StorageError>
    /** The recovery split (key, iv, two shards) of the unlocked credentials. */
    readonly exportRecovery: (passcode: string) => Effect.Effect<RecoverySplit, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError>
    /**
     * Logout step "clear credentials": blob, plain credentials (3 retries) and the biometric token.
     * `biometryToken: "keep"` leaves the BiometricManager token in place when another owner shares it
     * (the passcode plugin's biometry, decision 0530): its server part stays valid, and its vault
     * secret opens nothing once the blob (and the server's device key) are gone.
     */
    readonly clear: (options?: { readonly biometryToken?: "remove" | "keep" }) => Effect.Effect<void, StorageError>
    /**
     * Lock state (spec 2 section 4): the credentials of the last unlock that asked to be remembered,
     * while the clock is before its time; null otherwise. Kept in memory only, never stored.
     */
    readonly remembered: () => Effect.Effect<Credentials | null>
    /** Forgets remembered credentials (unlock time zero or less clears it). */
    readonly lock: () => Effect.Effect<void>
  }
>()("wallet/KeyVault") {
  static readonly make = (options: KeyVaultOptions = {}) =>
    Effect.gen(function* () {
      const server = yield* DeviceKeyServer
      const store = yield* VaultStore
      const biometry = yield* BiometricManager
      const logger = yield* VaultLogger
      return makeVault(options, server, store, biometry, logger)
    })

  static readonly layer = (options: KeyVaultOptions = {}) => Layer.effect(KeyVault, KeyVault.make(options))
}

const makeVault = (
  options: KeyVaultOptions,
  server: DeviceKeyServer["Service"],
  store: VaultStore["Service"],
  biometry: BiometricManager["Service"],
  logger: VaultLogger["Service"],
): KeyVault["Service"] => {
  const blobKey = options.blobKey ?? "keyvault.blob"
  const plainKey = options.plainKey ?? "keyvault.plain"
  const keepServerSlot = options.keepServerSlot ?? false
  const biometryReason = options.biometryReason ?? "Unlock your wallet"

  const {
    decryptFailed,
    attempt,
    readBlob,
    writeBlob,
    readPlain,
    fetchDeviceKey,
    newDeviceKey,
    openPayload,
    reconcileWithPlain,
    openWithPasscode,
    requireV2,
    migrate,
  } = makeOpening({ blobKey, plainKey, keepServerSlot, server, store, logger })

  const biometryReady = Effect.gen(function* () {
    const info = yield* biometry.info()
    if (!info.available) return yield* new BiometryFailed({ message: MESSAGES.biometryNotAvailable })
    return info
  })

  let unlocked: { readonly credentials: Credentials; readonly until: number } | null = null
  const remember = (credentials: Credentials, unlockOptions?: UnlockOptions) =>
    Effect.gen(function* () {
      const forMs = unlockOptions?.rememberForMs ?? 0
      unlocked = forMs > 0 ? { credentials, until: (yield* Clock.currentTimeMillis) + forMs } : null
      return credentials
    })

  const vault: KeyVault["Service"] = {
    remembered: () =>
      Effect.gen(function* () {
        if (unlocked === null) return null
        if ((yield* Clock.currentTimeMillis) < unlocked.until) return unlocked.credentials
        unlocked = null
        return null
      }),
    lock: () => Effect.sync(() => void (unlocked = null)),
    warmUp: () => Effect.sync(() => void sharedTransportKeyPair().catch(() => undefined)),

    status: () =>
      Effect.gen(function* () {
        const stored = yield* readBlob
        const plain = (yield* store.get(plainKey)) !== null
        if (stored === null) return { version: 0, passcodeSlots: 0, biometry: false, server: false, plain }
        if (stored === "corrupt") return { version: "corrupt", passcodeSlots: 0, biometry: false, server: false, plain }
        if (stored.version === 1) return { version: 1, passcodeSlots: 1, biometry: false, server: false, plain }
        const b = stored.blob
        return {
          version: 2,
          address: b.address,
          externalId: b.externalId,
          passcodeSlots: b.slots.passcode?.length ?? 0,
          biometry: b.slots.biometry !== undefined,
          server: b.slots.server !== undefined,
          plain,
        }
      }),

    create: ({ credentials, passcode }) =>
      Effect.gen(function* () {
        const payload = toPayload(credentials)
        const invalid = validatePayload(payload)
        if (invalid !== null) return yield* new InvalidCredentials({ message: invalid })
        // The server confirms the passcode before it makes the key (and again on get) before anything is sealed under it.
        const { externalId } = yield* newDeviceKey(payload.address, { passcode })
        const h = { externalId, address: payload.address }
        const deviceKey = yield* fetchDeviceKey(h, { passcode })
        const { blob, dataKey } = yield* Effect.promise(() => seal(payload, h))
        const slot = yield* Effect.promise(() => passcodeSlot(h, passcode, dataKey, deviceKey))
        const serverWrap = keepServerSlot ? yield* Effect.promise(() => serverSlot(h, dataKey, deviceKey)) : undefined
        yield* writeBlob({ version: 2, blob: { ...blob, slots: { passcode: [slot], ...(serverWrap ? { server: serverWrap } : {}) } } })
        logger.info("blob.created", { version: 2 })
      }),

    unlockWithPasscode: (passcode, unlockOptions) =>
      Effect.gen(function* () {
        const stored = yield* readBlob
        if (stored === null) {
          const plain = yield* readPlain
          if (plain === null) return yield* new CredsNotFound({ message: MESSAGES.clientCredsNotFound })
          // Legacy plain credentials: seal them now, then the server checks the passcode as for any
          // unlock. When the server cannot be reached the plain credentials (already on the device) are used.
          const sealed = yield* migrate({ passcode }).pipe(
            Effect.as(true),
            Effect.catch((error) => {
              // The server refused the passcode (it checks it before making a key): so does the unlock.
              if (error._tag === "PasscodeRejected") return Effect.fail(error)
              logger.report("plain.migration_failed", { reason: error._tag })
              return Effect.succeed(false)
            }),
          )
          if (!sealed) {
            logger.info("unlock.plain", {})
            return toCredentials(plain)
          }
        }
        const payload = yield* reconcileWithPlain(openWithPasscode(passcode).pipe(Effect.map((r) => r.payload)))
        logger.info("unlock.ok", { method: "passcode" })
        return yield* remember(toCredentials(payload), unlockOptions)
      }),

    unlockWithBiometry: (unlockOptions) =>
      Effect.gen(function* () {
        const info = yield* biometryReady
        if (!info.accessGranted) return yield* new BiometryFailed({ message: MESSAGES.biometryAccessNotGranted })
        const stored = yield* readBlob
        if (stored === null || stored === "corrupt") {
          if (stored === "corrupt") return yield* decryptFailed({ version: "corrupt" })
          return yield* new CredsNotFound({ message: MESSAGES.clientCredsNotFound })
        }
        const given = unlockOptions?.token
        const result = given === undefined ? yield* biometry.authenticate(biometryReason) : { authenticated: true, token: given }
        if (!result.authenticated) return yield* new VaultCancelled({ message: MESSAGES.cancelled })
        const token = result.token ?? ""
        if (token === "") return yield* new CredsNotFound({ message: MESSAGES.clientCredsNotFound })
        const opened: Effect.Effect<Payload, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError> =
          stored.version === 1
            ? // Legacy: the biometric token was the passphrase. Upgraded on the next passcode unlock.
              Effect.gen(function* () {
                const v1 = stored.blob
                const bytes = yield* attempt(
                  async () => aesDecrypt(await pbkdf2AesKey(token, fromBase64Url(v1.salt)), fromBase64Url(v1.iv), fromBase64Url(v1.ct)),
                  { version: 1, method: "biometry" },
                )
                const payload = parsePayloadBytes(bytes)
                return payload ?? (yield* decryptFailed({ version: 1, part: "payload-shape" }))
              })
            : Effect.gen(function* () {
                const blob = stored.blob
                const slot = blob.slots.biometry
                const parsed = decodeBiometryToken(token)
                if (slot === undefined || parsed === null) return yield* new CredsNotFound({ message: MESSAGES.clientCredsNotFound })
                const deviceKey = yield* fetchDeviceKey(header(blob), { biometryToken: parsed.serverBiometryToken })
                const dataKey = yield* attempt(
                  async () => unwrap(await biometryKek(parsed.secret, deviceKey), slot, v2AssociatedData(header(blob), "slot:biometry")),
                  { version: 2, part: "slot:biometry" },
                )
                return yield* openPayload(blob, dataKey)
              })
        const payload = yield* reconcileWithPlain(opened)
        logger.info("unlock.ok", { method: "biometry" })
        return yield* remember(toCredentials(payload), unlockOptions)
      }),

    enableBiometry: ({ passcode, serverBiometryToken }) =>
      Effect.gen(function* () {
        const info = yield* biometryReady
        if (!info.accessGranted && !(yield* biometry.requestAccess(biometryReason)))
          return yield* new BiometryFailed({ message: MESSAGES.biometryAccessNotGranted })
        const { blob, dataKey, deviceKey } = yield* requireV2((yield* openWithPasscode(passcode)).opened)
        const secret = randomBytes(KEY_BYTES)
        const slot = yield* Effect.promise(async () => wrap(await biometryKek(secret, deviceKey), dataKey, v2AssociatedData(header(blob), "slot:biometry")))
        if (!(yield* biometry.updateToken(encodeBiometryToken(secret, serverBiometryToken))))
          return yield* new BiometryFailed({ message: MESSAGES.biometryNotUpdated })
        yield* writeBlob({ version: 2, blob: { ...blob, slots: { ...blob.slots, biometry: slot } } })
        logger.info("biometry.enabled", {})
      }),

    disableBiometry: () =>
      Effect.gen(function* () {
        yield* biometry.updateToken("")
        const stored = yield* readBlob
        if (stored !== null && stored !== "corrupt" && stored.version === 2 && stored.blob.slots.biometry) {
          const { biometry: _removed, ...slots } = stored.blob.slots
          yield* writeBlob({ version: 2, blob: { ...stored.blob, slots } })
        }
        logger.info("biometry.disabled", {})
      }),

    changePasscode: ({ current, next }) =>
      Effect.gen(function* () {
        const { blob, dataKey, deviceKey } = yield* requireV2((yield* openWithPasscode(current)).opened)
        const added = yield* Effect.promise(() => passcodeSlot(header(blob), next, dataKey, deviceKey))
        yield* writeBlob({ version: 2, blob: { ...blob, slots: { ...blob.slots, passcode: [...(blob.slots.passcode ?? []), added] } } })
        logger.info("passcode.slot_added", { passcodeSlots: (blob.slots.passcode?.length ?? 0) + 1 })
      }),

    migratePlain: (proof) => migrate(proof),

    removePlainAfterBackup: (backupComplete) =>
      Effect.gen(function* () {
        if (!backupComplete) return false
        if ((yield* store.get(plainKey)) === null) return false
        const stored = yield* readBlob
        // Never remove the only copy on this device.
        if (stored === null || stored === "corrupt") return false
        yield* store.remove(plainKey)
        logger.info("plain.removed", {})
        return true
      }),

    exportRecovery: (passcode) =>
      Effect.gen(function* () {
        const payload = yield* reconcileWithPlain(openWithPasscode(passcode).pipe(Effect.map((r) => r.payload)))
        const split = yield* Effect.promise(() => createRecoverySplit(toCredentials(payload)))
        logger.info("recovery.exported", {})
        return split
      }),

    clear: (clearOptions) =>
      Effect.gen(function* () {
        unlocked = null
        const removeAll = Effect.gen(function* () {
          yield* store.remove(blobKey)
          yield* store.remove(plainKey)
        })
        yield* removeAll.pipe(Effect.retry({ times: 3 }))
        const keep = clearOptions?.biometryToken === "keep"
        if (!keep) {
          const info = yield* biometry.info()
          if (info.tokenSaved) yield* biometry.updateToken("")
        }
        logger.info("cleared", { biometryToken: keep ? "kept" : "removed" })
      }),
  }
  return vault
}
