/**
 * Reading and opening the stored blob for the KeyVault service: the blob and plain credentials in the
 * store, device keys from the server, opening with the passcode (upgrading a v1 blob, tidying the
 * slots), falling back to plain credentials, and migrating plain credentials into a blob.
 */
import { Effect } from "effect"
import { aesDecrypt, fromBase64Url, fromUtf8, importAesKey, KEY_BYTES, pbkdf2AesKey, rsaUnwrap } from "./crypto.ts"
import { CredsNotFound, DecryptFailed, DeviceKeyUnavailable, MESSAGES } from "./errors.ts"
import { type Blob, type BlobV2, type PasscodeSlot, decodeBlob, encodeBlob, v2AssociatedData } from "./format.ts"
import { parsePayload, parsePayloadBytes, type Payload, sameMnemonic } from "./payload.ts"
import type { DeviceKeyProof, DeviceKeyServer, LogFields, VaultLogger, VaultStore } from "./ports.ts"
import { header, passcodeKek, passcodeSlot, seal, serverKek, serverSlot, sharedTransportKeyPair, unwrap } from "./slots.ts"
import type { OpenedV2 } from "./vault-types.ts"

type Bytes = Uint8Array<ArrayBuffer>

export interface OpeningDeps {
  readonly blobKey: string
  readonly plainKey: string
  readonly keepServerSlot: boolean
  readonly server: DeviceKeyServer["Service"]
  readonly store: VaultStore["Service"]
  readonly logger: VaultLogger["Service"]
}

export const makeOpening = ({ blobKey, plainKey, keepServerSlot, server, store, logger }: OpeningDeps) => {
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
      Effect.filterOrFail(
        (key) => key.length === KEY_BYTES,
        () => "failed" as const,
      ),
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

  const openPayload = (blob: BlobV2, dataKey: Bytes) =>
    Effect.gen(function* () {
      const bytes = yield* attempt(
        async () => aesDecrypt(await importAesKey(dataKey), fromBase64Url(blob.iv), fromBase64Url(blob.ct), v2AssociatedData(header(blob), "payload")),
        { version: 2, part: "payload" },
      )
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
        const bytes = yield* attempt(async () => aesDecrypt(await pbkdf2AesKey(passcode, fromBase64Url(v1.salt)), fromBase64Url(v1.iv), fromBase64Url(v1.ct)), {
          version: 1,
        })
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
        dataKey = yield* attempt(async () => unwrap(await serverKek(deviceKey), slot, v2AssociatedData(header(blob), "slot:server")), {
          version: 2,
          part: "slot:server",
        })
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
        current = {
          ...blob,
          slots: { ...(blob.slots.biometry ? { biometry: blob.slots.biometry } : {}), passcode: [nextPasscode], ...(serverWrap ? { server: serverWrap } : {}) },
        }
        yield* writeBlob({ version: 2, blob: current })
        logger.info("blob.slots_rewritten", { passcodeSlots: 1, migrationSlotReplaced: needsPasscodeSlot, staleSlotsDropped: staleSlots })
      }
      return { payload, opened: { blob: current, dataKey, deviceKey } satisfies OpenedV2 }
    })

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

  /**
   * Seals stored plain credentials under a new device key (a server slot: no passcode is part of the
   * key). The server releases a new device key only with a proof (decision 0540).
   */
  const migrate = (proof: DeviceKeyProof) =>
    Effect.gen(function* () {
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

  return {
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
  }
}
