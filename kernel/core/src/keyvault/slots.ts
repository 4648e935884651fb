/**
 * Key wrapping of the v2 blob (docs/decisions/0601): the key-encryption key of each slot (passcode,
 * biometry, server), wrapping the data key under it, sealing a payload under a fresh data key, and
 * the page's shared transport key pair the server wraps device keys for.
 */
import {
  aesDecrypt,
  aesEncrypt,
  fromBase64Url,
  generateTransportKeyPair,
  hkdfAesKey,
  importAesKey,
  IV_BYTES,
  KEY_BYTES,
  pbkdf2Bits,
  randomBytes,
  SALT_BYTES,
  toBase64Url,
  type TransportKeyPair,
  utf8,
} from "./crypto.ts"
import { type BlobV2, type PasscodeSlot, type WrappedKey, v2AssociatedData } from "./format.ts"
import type { Payload } from "./payload.ts"

type Bytes = Uint8Array<ArrayBuffer>

/**
 * One transport key pair per page, made on first use: RSA-2048 generation takes hundreds of ms
 * (more on slow phones), so `warmUp` starts it while the user types the passcode. The private key
 * is non-extractable and lives only in memory; a failed generation is retried on the next call.
 */
let transportPromise: Promise<TransportKeyPair> | undefined
export const sharedTransportKeyPair = (): Promise<TransportKeyPair> => {
  transportPromise ??= generateTransportKeyPair().catch((error: unknown) => {
    transportPromise = undefined
    throw error
  })
  return transportPromise
}

export const passcodeKek = async (passcode: string, salt: Bytes, deviceKey: Bytes) => hkdfAesKey([await pbkdf2Bits(passcode, salt), deviceKey], "slot:passcode")
export const biometryKek = (secret: Bytes, deviceKey: Bytes) => hkdfAesKey([secret, deviceKey], "slot:biometry")
export const serverKek = (deviceKey: Bytes) => hkdfAesKey([deviceKey], "slot:server")

export const header = (blob: Pick<BlobV2, "externalId" | "address">) => ({ externalId: blob.externalId, address: blob.address })

export const wrap = async (kek: CryptoKey, dataKey: Bytes, aad: Bytes): Promise<WrappedKey> => {
  const iv = randomBytes(IV_BYTES)
  return { iv: toBase64Url(iv), wk: toBase64Url(await aesEncrypt(kek, iv, dataKey, aad)) }
}
export const unwrap = async (kek: CryptoKey, slot: WrappedKey, aad: Bytes): Promise<Bytes> =>
  aesDecrypt(kek, fromBase64Url(slot.iv), fromBase64Url(slot.wk), aad)

export const passcodeSlot = async (h: Pick<BlobV2, "externalId" | "address">, passcode: string, dataKey: Bytes, deviceKey: Bytes): Promise<PasscodeSlot> => {
  const salt = randomBytes(SALT_BYTES)
  return { salt: toBase64Url(salt), ...(await wrap(await passcodeKek(passcode, salt, deviceKey), dataKey, v2AssociatedData(h, "slot:passcode"))) }
}
export const serverSlot = async (h: Pick<BlobV2, "externalId" | "address">, dataKey: Bytes, deviceKey: Bytes) =>
  wrap(await serverKek(deviceKey), dataKey, v2AssociatedData(h, "slot:server"))

/** A new v2 blob: a fresh data key encrypts the payload; the slots are added by the caller. */
export const seal = async (payload: Payload, h: { externalId: string; address: string }) => {
  const dataKey = randomBytes(KEY_BYTES)
  const iv = randomBytes(IV_BYTES)
  const ct = await aesEncrypt(await importAesKey(dataKey), iv, utf8(JSON.stringify(payload)), v2AssociatedData(h, "payload"))
  const blob: BlobV2 = { ...h, slots: {}, iv: toBase64Url(iv), ct: toBase64Url(ct) }
  return { blob, dataKey }
}
