/**
 * The `KeyVault` service: the self-custody wallet's mnemonic and private key at rest on the device.
 * Threat model and key hierarchy: docs/decisions/0600-keyvault-threat-model.md; blob formats:
 * docs/decisions/0601-keyvault-blob-format.md.
 */
import { Clock, Context, Effect, Layer, Redacted } from "effect"
import {
  aesDecrypt,
  aesEncrypt,
  fromBase64Url,
  fromUtf8,
  generateTransportKeyPair,
  hkdfAesKey,
  importAesKey,
  IV_BYTES,
  KEY_BYTES,
  pbkdf2AesKey,
  pbkdf2Bits,
  randomBytes,
  rsaUnwrap,
  SALT_BYTES,
  toBase64Url,
  type TransportKeyPair,
  utf8,
} from "./crypto.ts"
import {
  BiometryFailed,
  CredsNotFound,
  DecryptFailed,
  DeviceKeyUnavailable,
  InvalidCredentials,
  MESSAGES,
  type DeviceKeyError,
  type SecureStorageFailed,
  VaultCancelled,
} from "./errors.ts"
import { type Blob, type BlobV2, type PasscodeSlot, type WrappedKey, decodeBlob, encodeBlob, v2AssociatedData } from "./format.ts"
import { BiometricManager, type DeviceKeyProof, DeviceKeyServer, type LogFields, VaultLogger, VaultStore } from "./ports.ts"
import { createRecoverySplit, openRecoverySplitText, type RecoverySplit } from "./recovery.ts"

type Bytes = Uint8Array<ArrayBuffer>

/** Unlocked credentials. Both secrets are Redacted: printing or serialising them shows `<redacted>`. */
export interface Credentials {
  readonly address: string
  readonly mnemonic: Redacted.Redacted<ReadonlyArray<string>>
  /** Hex of the 32-byte seed or 64-byte secret key. */
  readonly privateKey: Redacted.Redacted<string>
}

/** The plaintext shape, never leaves this module except Redacted. */
interface Payload {
  readonly address: string
  readonly mnemonic: ReadonlyArray<string>
  readonly privateKey: string
}

export const MNEMONIC_WORDS = 24

export const toCredentials = (payload: Payload): Credentials => ({
  address: payload.address,
  mnemonic: Redacted.make(payload.mnemonic, { label: "mnemonic" }),
  privateKey: Redacted.make(payload.privateKey, { label: "privateKey" }),
})

const toPayload = (credentials: Credentials): Payload => ({
  address: credentials.address,
  mnemonic: Redacted.value(credentials.mnemonic),
  privateKey: Redacted.value(credentials.privateKey),
})

/** Parses plaintext (decrypted or plain-stored) without ever letting the text into an error. */
export const parsePayload = (text: string): Payload | null => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== "object" || value === null) return null
  const { address, mnemonic, privateKey } = value as Record<string, unknown>
  if (typeof address !== "string" || typeof privateKey !== "string") return null
  if (!Array.isArray(mnemonic) || !mnemonic.every((w) => typeof w === "string")) return null
  return { address, mnemonic, privateKey }
}

const validatePayload = (payload: Payload): string | null => {
  if (payload.mnemonic.length !== MNEMONIC_WORDS || payload.mnemonic.some((w) => !/^[a-z]+$/.test(w))) return `a mnemonic is ${MNEMONIC_WORDS} lowercase words`
  if (!/^([0-9a-f]{64}|[0-9a-f]{128})$/.test(payload.privateKey)) return "a private key is 32 or 64 bytes of lowercase hex"
  if (payload.address.trim() === "") return "an address is required"
  return null
}

const sameMnemonic = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((w, i) => w === b[i])

/** Prefix of the token the vault keeps in Telegram's BiometricManager: `kvb1.<secret>.<server biometry token>`. */
const BIOMETRY_TOKEN_PREFIX = "kvb1"

export const encodeBiometryToken = (secret: Uint8Array, serverBiometryToken: string) =>
  `${BIOMETRY_TOKEN_PREFIX}.${toBase64Url(secret)}.${toBase64Url(utf8(serverBiometryToken))}`

const decodeBiometryToken = (token: string): { secret: Bytes; serverBiometryToken: string } | null => {
  const parts = token.split(".")
  if (parts.length !== 3 || parts[0] !== BIOMETRY_TOKEN_PREFIX) return null
  try {
    const secret = fromBase64Url(parts[1]!)
    if (secret.length !== KEY_BYTES) return null
    return { secret, serverBiometryToken: fromUtf8(fromBase64Url(parts[2]!)) }
  } catch {
    return null
  }
}

export interface VaultStatus {
  /** 0: no blob; "corrupt": a value that is not a blob of a known version. */
  readonly version: 0 | 1 | 2 | "corrupt"
  readonly address?: string
  readonly externalId?: string
  readonly passcodeSlots: number
  readonly biometry: boolean
  /** A device-key-only slot (from the migration of plain credentials). */
  readonly server: boolean
  /** Plain (unencrypted) credentials are still stored. */
  readonly plain: boolean
}

export interface UnlockOptions {
  /** Keep the credentials in memory for this long (the passcode info's unlockDuration); 0 or less: not at all. */
  readonly rememberForMs?: number
}

export interface BiometryUnlockOptions extends UnlockOptions {
  /**
   * The BiometricManager token a prompt already released (the Passcode service's biometry proof):
   * the vault then opens without a second prompt (decision 0520). Absent: the vault prompts.
   */
  readonly token?: string
}

export interface KeyVaultOptions {
  /** Store key of the blob; default "keyvault.blob". */
  readonly blobKey?: string
  /** Store key of legacy plain credentials (JSON {address, mnemonic, privateKey}); default "keyvault.plain". */
  readonly plainKey?: string
  /**
   * Keep a device-key-only slot beside the passcode slot. Then a passcode reset by email keeps the
   * wallet unlockable, at the price of the passcode no longer being a factor of the key (a server
   * compromise alone then opens a copied blob). Default false (docs/decisions/0600).
   */
  readonly keepServerSlot?: boolean
  /** Prompt text of the biometric dialog. */
  readonly biometryReason?: string
}

/** An opened v2 blob: what a rewrite of its slots needs. */
interface OpenedV2 {
  readonly blob: BlobV2
  readonly dataKey: Bytes
  readonly deviceKey: Bytes
}

type StorageError = SecureStorageFailed

/**
 * One transport key pair per page, made on first use: RSA-2048 generation takes hundreds of ms
 * (more on slow phones), so `warmUp` starts it while the user types the passcode. The private key
 * is non-extractable and lives only in memory; a failed generation is retried on the next call.
 */
let transportPromise: Promise<TransportKeyPair> | undefined
const sharedTransportKeyPair = (): Promise<TransportKeyPair> => {
  transportPromise ??= generateTransportKeyPair().catch((error: unknown) => {
    transportPromise = undefined
    throw error
  })
  return transportPromise
}

export class KeyVault extends Context.Service<
  KeyVault,
  {
    readonly status: () => Effect.Effect<VaultStatus, StorageError>
    /** Starts generating the transport key pair (call when a passcode screen opens). */
    readonly warmUp: () => Effect.Effect<void>
    /** Seals new credentials (created or imported) under the passcode and a new server device key. */
    readonly create: (input: { readonly credentials: Credentials; readonly passcode: string }) => Effect.Effect<void, InvalidCredentials | DeviceKeyError | StorageError>
    /**
     * Opens the credentials: the server verifies the passcode (attempts counted there) and releases
     * the device key; both open the data key. A v1 blob is rewritten as v2; a migration slot is
     * replaced by a passcode slot; a stale slot of a passcode change is dropped.
     */
    readonly unlockWithPasscode: (passcode: string, options?: UnlockOptions) => Effect.Effect<Credentials, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError>
    /** Biometric prompt, then the same with the secret the BiometricManager kept. */
    readonly unlockWithBiometry: (options?: BiometryUnlockOptions) => Effect.Effect<Credentials, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError | BiometryFailed | VaultCancelled>
    /** Adds a biometry slot; `serverBiometryToken` is what the passcode plugin's biometry setup returned. */
    readonly enableBiometry: (input: { readonly passcode: string; readonly serverBiometryToken: string }) => Effect.Effect<void, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError | BiometryFailed>
    readonly disableBiometry: () => Effect.Effect<void, StorageError>
    /**
     * Adds a slot for `next` beside the current one. Call before changing the passcode on the server;
     * the first unlock afterwards keeps only the slot that matched.
     */
    readonly changePasscode: (input: { readonly current: string; readonly next: string }) => Effect.Effect<void, CredsNotFound | DecryptFailed | DeviceKeyError | StorageError>
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

  const transport = Effect.tryPromise({
    try: sharedTransportKeyPair,
    catch: () => new DeviceKeyUnavailable({ message: "Unable to create the transport key" }),
  })

  const decryptFailed = (fields: LogFields) =>
    Effect.suspend(() => {
      logger.report("decrypt.failed", fields)
      return Effect.fail(new DecryptFailed({ message: MESSAGES.decryptFailed }))
    })

  /** Any WebCrypto rejection during opening means wrong key material or a tampered blob. */
  const attempt = <A>(run: () => Promise<A>, fields: LogFields) =>
    Effect.tryPromise({ try: run, catch: () => "failed" as const }).pipe(Effect.catch(() => decryptFailed(fields)))

  const readBlob = Effect.gen(function* () {
    const text = yield* store.get(blobKey)
    if (text === null) return null
    const blob = decodeBlob(text)
    if (blob === null) logger.report("blob.corrupt", { length: text.length })
    return blob ?? ("corrupt" as const)
  })

  const writeBlob = (blob: Blob) => store.set(blobKey, encodeBlob(blob))

  const readPlain = Effect.gen(function* () {
    const text = yield* store.get(plainKey)
    if (text === null) return null
    const payload = parsePayload(text)
    if (payload === null) logger.report("plain.unreadable", {})
    return payload
  })

  const fetchDeviceKey = (request: { externalId: string; address: string }, proof: DeviceKeyProof) =>
    Effect.gen(function* () {
      const keys = yield* transport
      const answer = yield* server.get({ ...request, transportPublicKey: keys.publicKey, proof })
      return yield* unwrapDeviceKey(keys.privateKey, answer.deviceEncryptionKey)
    })

  const unwrapDeviceKey = (privateKey: CryptoKey, wrapped: string) =>
    Effect.tryPromise({ try: () => rsaUnwrap(privateKey, wrapped), catch: () => "failed" as const }).pipe(
      Effect.filterOrFail((key) => key.length === KEY_BYTES, () => "failed" as const),
      Effect.catch(() => Effect.fail(new DeviceKeyUnavailable({ message: "The device key could not be unwrapped" }))),
    )

  /** A new device key; the server checks `proof` first (decision 0540), so nothing is sealed under an unproven passcode. */
  const newDeviceKey = (address: string, proof: DeviceKeyProof) =>
    Effect.gen(function* () {
      const keys = yield* transport
      const answer = yield* server.generate({ address, transportPublicKey: keys.publicKey, proof })
      const deviceKey = yield* unwrapDeviceKey(keys.privateKey, answer.deviceEncryptionKey)
      return { externalId: answer.externalId, deviceKey }
    })

  const passcodeKek = async (passcode: string, salt: Bytes, deviceKey: Bytes) => hkdfAesKey([await pbkdf2Bits(passcode, salt), deviceKey], "slot:passcode")
  const biometryKek = (secret: Bytes, deviceKey: Bytes) => hkdfAesKey([secret, deviceKey], "slot:biometry")
  const serverKek = (deviceKey: Bytes) => hkdfAesKey([deviceKey], "slot:server")

  const header = (blob: Pick<BlobV2, "externalId" | "address">) => ({ externalId: blob.externalId, address: blob.address })

  const wrap = async (kek: CryptoKey, dataKey: Bytes, aad: Bytes): Promise<WrappedKey> => {
    const iv = randomBytes(IV_BYTES)
    return { iv: toBase64Url(iv), wk: toBase64Url(await aesEncrypt(kek, iv, dataKey, aad)) }
  }
  const unwrap = async (kek: CryptoKey, slot: WrappedKey, aad: Bytes): Promise<Bytes> => aesDecrypt(kek, fromBase64Url(slot.iv), fromBase64Url(slot.wk), aad)

  const passcodeSlot = async (h: Pick<BlobV2, "externalId" | "address">, passcode: string, dataKey: Bytes, deviceKey: Bytes): Promise<PasscodeSlot> => {
    const salt = randomBytes(SALT_BYTES)
    return { salt: toBase64Url(salt), ...(await wrap(await passcodeKek(passcode, salt, deviceKey), dataKey, v2AssociatedData(h, "slot:passcode"))) }
  }
  const serverSlot = async (h: Pick<BlobV2, "externalId" | "address">, dataKey: Bytes, deviceKey: Bytes) =>
    wrap(await serverKek(deviceKey), dataKey, v2AssociatedData(h, "slot:server"))

  /** A new v2 blob: a fresh data key encrypts the payload; the slots are added by the caller. */
  const seal = async (payload: Payload, h: { externalId: string; address: string }) => {
    const dataKey = randomBytes(KEY_BYTES)
    const iv = randomBytes(IV_BYTES)
    const ct = await aesEncrypt(await importAesKey(dataKey), iv, utf8(JSON.stringify(payload)), v2AssociatedData(h, "payload"))
    const blob: BlobV2 = { ...h, slots: {}, iv: toBase64Url(iv), ct: toBase64Url(ct) }
    return { blob, dataKey }
  }

  const openPayload = (blob: BlobV2, dataKey: Bytes) =>
    Effect.gen(function* () {
      const bytes = yield* attempt(async () => aesDecrypt(await importAesKey(dataKey), fromBase64Url(blob.iv), fromBase64Url(blob.ct), v2AssociatedData(header(blob), "payload")), { version: 2, part: "payload" })
      const payload = (() => {
        try {
          return parsePayload(fromUtf8(bytes))
        } catch {
          return null
        }
      })()
      if (payload === null) return yield* decryptFailed({ version: 2, part: "payload-shape" })
      return payload
    })

  /**
   * Spec: a decryption failure falls back to stored plain credentials; a decrypted mnemonic that
   * differs from the stored one yields the stored credentials.
   */
  const reconcileWithPlain = <E, R>(opened: Effect.Effect<Payload, E | DecryptFailed, R>) =>
    Effect.gen(function* () {
      const plain = yield* readPlain
      const payload = yield* opened.pipe(
        Effect.catchTag("DecryptFailed", (error) => {
          if (plain === null) return Effect.fail(error)
          logger.report("decrypt.fallback_to_plain", {})
          return Effect.succeed(plain)
        }),
      )
      if (plain !== null && !sameMnemonic(plain.mnemonic, payload.mnemonic)) {
        logger.report("mnemonic.mismatch_with_plain", {})
        return plain
      }
      return payload
    })

  /** Opens with the passcode; rewrites a v1 blob as v2 and tidies the slots of a v2 blob. */
  const openWithPasscode = (passcode: string) =>
    Effect.gen(function* () {
      const stored = yield* readBlob
      if (stored === null || stored === "corrupt") {
        if (stored === "corrupt") return yield* decryptFailed({ version: "corrupt" })
        return yield* new CredsNotFound({ message: MESSAGES.clientCredsNotFound })
      }
      if (stored.version === 1) {
        const v1 = stored.blob
        const bytes = yield* attempt(async () => aesDecrypt(await pbkdf2AesKey(passcode, fromBase64Url(v1.salt)), fromBase64Url(v1.iv), fromBase64Url(v1.ct)), { version: 1 })
        const payload = parsePayloadBytes(bytes)
        if (payload === null) return yield* decryptFailed({ version: 1, part: "payload-shape" })
        const upgraded = yield* upgradeV1(payload, passcode).pipe(
          Effect.catch((error) => {
            // The credentials are open; the upgrade is retried on the next unlock.
            logger.report("blob.upgrade_failed", { from: 1, to: 2, reason: error._tag })
            return Effect.succeed(null)
          }),
        )
        return { payload, opened: upgraded }
      }
      const blob = stored.blob
      const deviceKey = yield* fetchDeviceKey(header(blob), { passcode })
      const slots = blob.slots.passcode ?? []
      let dataKey: Bytes | null = null
      let matched: PasscodeSlot | null = null
      for (const slot of slots) {
        dataKey = yield* Effect.promise(() =>
          passcodeKek(passcode, fromBase64Url(slot.salt), deviceKey)
            .then((kek) => unwrap(kek, slot, v2AssociatedData(header(blob), "slot:passcode")))
            .catch(() => null),
        )
        if (dataKey !== null) {
          matched = slot
          break
        }
      }
      if (dataKey === null && blob.slots.server) {
        const slot = blob.slots.server
        dataKey = yield* attempt(async () => unwrap(await serverKek(deviceKey), slot, v2AssociatedData(header(blob), "slot:server")), { version: 2, part: "slot:server" })
      }
      if (dataKey === null) {
        if (slots.length === 0) return yield* new CredsNotFound({ message: MESSAGES.serverCredsNotFound })
        return yield* decryptFailed({ version: 2, part: "slot:passcode" })
      }
      const payload = yield* openPayload(blob, dataKey)
      // Tidy: exactly one passcode slot (the matched one, or a new one after the migration slot).
      const needsPasscodeSlot = matched === null
      const staleSlots = matched !== null && slots.length > 1
      const dropServer = !keepServerSlot && blob.slots.server !== undefined
      const addServer = keepServerSlot && blob.slots.server === undefined
      let current = blob
      if (needsPasscodeSlot || staleSlots || dropServer || addServer) {
        const dk = dataKey
        const nextPasscode = matched ?? (yield* Effect.promise(() => passcodeSlot(header(blob), passcode, dk, deviceKey)))
        const serverWrap = keepServerSlot ? (blob.slots.server ?? (yield* Effect.promise(() => serverSlot(header(blob), dk, deviceKey)))) : undefined
        current = { ...blob, slots: { ...(blob.slots.biometry ? { biometry: blob.slots.biometry } : {}), passcode: [nextPasscode], ...(serverWrap ? { server: serverWrap } : {}) } }
        yield* writeBlob({ version: 2, blob: current })
        logger.info("blob.slots_rewritten", { passcodeSlots: 1, migrationSlotReplaced: needsPasscodeSlot, staleSlotsDropped: staleSlots })
      }
      return { payload, opened: { blob: current, dataKey, deviceKey } satisfies OpenedV2 }
    })

  const parsePayloadBytes = (bytes: Uint8Array): Payload | null => {
    try {
      return parsePayload(fromUtf8(bytes))
    } catch {
      return null
    }
  }

  /**
   * v1 -> v2: a new device key from the server, then a `get` with the passcode so the server confirms
   * the passcode the new slot is sealed under (else the upgrade waits for the next unlock).
   */
  const upgradeV1 = (payload: Payload, passcode: string) =>
    Effect.gen(function* () {
      const { externalId } = yield* newDeviceKey(payload.address, { passcode })
      const h = { externalId, address: payload.address }
      const deviceKey = yield* fetchDeviceKey(h, { passcode })
      const { blob, dataKey } = yield* Effect.promise(() => seal(payload, h))
      const slot = yield* Effect.promise(() => passcodeSlot(h, passcode, dataKey, deviceKey))
      const serverWrap = keepServerSlot ? yield* Effect.promise(() => serverSlot(h, dataKey, deviceKey)) : undefined
      const upgraded: BlobV2 = { ...blob, slots: { passcode: [slot], ...(serverWrap ? { server: serverWrap } : {}) } }
      yield* writeBlob({ version: 2, blob: upgraded })
      logger.info("blob.upgraded", { from: 1, to: 2 })
      return { blob: upgraded, dataKey, deviceKey } satisfies OpenedV2
    })

  const requireV2 = (opened: OpenedV2 | null) =>
    opened === null ? Effect.fail(new CredsNotFound({ message: MESSAGES.serverCredsNotFound })) : Effect.succeed(opened)

  const biometryReady = Effect.gen(function* () {
    const info = yield* biometry.info()
    if (!info.available) return yield* new BiometryFailed({ message: MESSAGES.biometryNotAvailable })
    return info
  })

  /**
   * Seals stored plain credentials under a new device key (a server slot: no passcode is part of the
   * key). The server releases a new device key only with a proof (decision 0540).
   */
  const migrate = (proof: DeviceKeyProof) => Effect.gen(function* () {
    if ((yield* store.get(blobKey)) !== null) return "already" as const
    const plain = yield* readPlain
    if (plain === null) return "nothing" as const
    const { externalId, deviceKey } = yield* newDeviceKey(plain.address, proof)
    const h = { externalId, address: plain.address }
    const { blob, dataKey } = yield* Effect.promise(() => seal(plain, h))
    const serverWrap = yield* Effect.promise(() => serverSlot(h, dataKey, deviceKey))
    yield* writeBlob({ version: 2, blob: { ...blob, slots: { server: serverWrap } } })
    logger.info("plain.migrated", { version: 2 })
    return "migrated" as const
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
        return { version: 2, address: b.address, externalId: b.externalId, passcodeSlots: b.slots.passcode?.length ?? 0, biometry: b.slots.biometry !== undefined, server: b.slots.server !== undefined, plain }
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
                const bytes = yield* attempt(async () => aesDecrypt(await pbkdf2AesKey(token, fromBase64Url(v1.salt)), fromBase64Url(v1.iv), fromBase64Url(v1.ct)), { version: 1, method: "biometry" })
                const payload = parsePayloadBytes(bytes)
                return payload ?? (yield* decryptFailed({ version: 1, part: "payload-shape" }))
              })
            : Effect.gen(function* () {
                const blob = stored.blob
                const slot = blob.slots.biometry
                const parsed = decodeBiometryToken(token)
                if (slot === undefined || parsed === null) return yield* new CredsNotFound({ message: MESSAGES.clientCredsNotFound })
                const deviceKey = yield* fetchDeviceKey(header(blob), { biometryToken: parsed.serverBiometryToken })
                const dataKey = yield* attempt(async () => unwrap(await biometryKek(parsed.secret, deviceKey), slot, v2AssociatedData(header(blob), "slot:biometry")), { version: 2, part: "slot:biometry" })
                return yield* openPayload(blob, dataKey)
              })
        const payload = yield* reconcileWithPlain(opened)
        logger.info("unlock.ok", { method: "biometry" })
        return yield* remember(toCredentials(payload), unlockOptions)
      }),

    enableBiometry: ({ passcode, serverBiometryToken }) =>
      Effect.gen(function* () {
        const info = yield* biometryReady
        if (!info.accessGranted && !(yield* biometry.requestAccess(biometryReason))) return yield* new BiometryFailed({ message: MESSAGES.biometryAccessNotGranted })
        const { blob, dataKey, deviceKey } = yield* requireV2((yield* openWithPasscode(passcode)).opened)
        const secret = randomBytes(KEY_BYTES)
        const slot = yield* Effect.promise(async () => wrap(await biometryKek(secret, deviceKey), dataKey, v2AssociatedData(header(blob), "slot:biometry")))
        if (!(yield* biometry.updateToken(encodeBiometryToken(secret, serverBiometryToken)))) return yield* new BiometryFailed({ message: MESSAGES.biometryNotUpdated })
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


/** Opens a recovery split (after the key, iv and both shards were fetched) into credentials. */
export const openRecoverySplit = (split: RecoverySplit): Effect.Effect<Credentials, DecryptFailed> =>
  Effect.gen(function* () {
    const text = yield* Effect.promise(() => openRecoverySplitText(split))
    const payload = text === null ? null : parsePayload(text)
    if (payload === null) return yield* new DecryptFailed({ message: MESSAGES.decryptFailed })
    return toCredentials(payload)
  })

/**
 * Spec 2 section 4 "Logout": a forced logout happens when an address exists but there are no
 * credentials and no server-side encryption (no blob of any kind and no plain credentials).
 */
export const needsForcedLogout = (status: VaultStatus, hasAddress: boolean): boolean =>
  hasAddress && status.version === 0 && !status.plain
