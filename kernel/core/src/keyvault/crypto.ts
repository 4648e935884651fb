/**
 * WebCrypto primitives of the key vault (browser and Node 20: `globalThis.crypto.subtle`).
 * Constants are the spec's (2-self-custody section 9 "Encryption"): PBKDF2 with 100000 iterations
 * and an 8-byte salt, AES-GCM 256 with a 12-byte iv, RSA-OAEP with SHA-256 on the server-key path.
 */
import { fromBase64Url, toBase64Url } from "../bytes.ts"

export const PBKDF2_ITERATIONS = 100_000
export const SALT_BYTES = 8
export const IV_BYTES = 12
export const AES_KEY_BITS = 256
/** The server-held device key and every other symmetric secret: 256 bits. */
export const KEY_BYTES = 32
export const RSA_MODULUS_BITS = 2048

type Bytes = Uint8Array<ArrayBuffer>

/** Hex and base64url: the kernel's byte helpers (decision 0130), re-exported where the vault always had them. */
export { fromBase64Url, fromHex, toBase64Url, toHex } from "../bytes.ts"

const subtle = (): SubtleCrypto => globalThis.crypto.subtle

export const randomBytes = (length: number): Bytes => globalThis.crypto.getRandomValues(new Uint8Array(length))

export const utf8 = (text: string): Bytes => new TextEncoder().encode(text) as Bytes
export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder("utf-8", { fatal: true }).decode(bytes)

export const concat = (...parts: ReadonlyArray<Uint8Array>): Bytes => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export const xor = (a: Uint8Array, b: Uint8Array): Bytes => {
  if (a.length !== b.length) throw new Error("xor of different lengths")
  const out = new Uint8Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = a[i]! ^ b[i]!
  return out
}

/** The spec's passphrase key: PBKDF2-SHA-256, 100000 iterations, 8-byte salt, AES-GCM 256 (format v1). */
export const pbkdf2AesKey = async (passphrase: string, salt: Bytes): Promise<CryptoKey> => {
  const material = await subtle().importKey("raw", utf8(passphrase), "PBKDF2", false, ["deriveKey"])
  return subtle().deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations: PBKDF2_ITERATIONS },
    material,
    { name: "AES-GCM", length: AES_KEY_BITS },
    false,
    ["encrypt", "decrypt"],
  )
}

/** The same derivation as raw 256 bits, to be combined with the server-held device key (format v2). */
export const pbkdf2Bits = async (passphrase: string, salt: Bytes): Promise<Bytes> => {
  const material = await subtle().importKey("raw", utf8(passphrase), "PBKDF2", false, ["deriveBits"])
  return new Uint8Array(await subtle().deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: PBKDF2_ITERATIONS }, material, AES_KEY_BITS))
}

/** HKDF-SHA-256 over the concatenated factors into a non-extractable AES-GCM 256 key. */
export const hkdfAesKey = async (factors: ReadonlyArray<Uint8Array>, info: string): Promise<CryptoKey> => {
  const material = await subtle().importKey("raw", concat(...factors), "HKDF", false, ["deriveKey"])
  return subtle().deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: utf8("wallet/keyvault/v2"), info: utf8(info) },
    material,
    { name: "AES-GCM", length: AES_KEY_BITS },
    false,
    ["encrypt", "decrypt"],
  )
}

export const importAesKey = (raw: Bytes): Promise<CryptoKey> =>
  subtle().importKey("raw", raw, { name: "AES-GCM", length: AES_KEY_BITS }, false, ["encrypt", "decrypt"])

export const aesEncrypt = async (key: CryptoKey, iv: Bytes, plaintext: Bytes, aad?: Bytes): Promise<Bytes> =>
  new Uint8Array(await subtle().encrypt({ name: "AES-GCM", iv, tagLength: 128, ...(aad ? { additionalData: aad } : {}) }, key, plaintext))

/** Rejects when the tag does not verify (wrong key, tampered iv, ciphertext or associated data). */
export const aesDecrypt = async (key: CryptoKey, iv: Bytes, ciphertext: Bytes, aad?: Bytes): Promise<Bytes> =>
  new Uint8Array(await subtle().decrypt({ name: "AES-GCM", iv, tagLength: 128, ...(aad ? { additionalData: aad } : {}) }, key, ciphertext))

const RSA_OAEP = { name: "RSA-OAEP", hash: "SHA-256" } as const

/**
 * The client's transport key pair for the server-key path: the server returns the device key
 * RSA-OAEP(SHA-256)-wrapped to `publicKey` (SPKI, base64url); the private key is non-extractable.
 */
export interface TransportKeyPair {
  readonly publicKey: string
  readonly privateKey: CryptoKey
}

export const generateTransportKeyPair = async (): Promise<TransportKeyPair> => {
  const pair = await subtle().generateKey({ ...RSA_OAEP, modulusLength: RSA_MODULUS_BITS, publicExponent: new Uint8Array([1, 0, 1]) }, false, [
    "encrypt",
    "decrypt",
  ])
  const spki = new Uint8Array(await subtle().exportKey("spki", pair.publicKey))
  return { publicKey: toBase64Url(spki), privateKey: pair.privateKey }
}

export const rsaUnwrap = async (privateKey: CryptoKey, wrapped: string): Promise<Bytes> =>
  new Uint8Array(await subtle().decrypt(RSA_OAEP, privateKey, fromBase64Url(wrapped)))

/** What the server does (and the test double): wrap bytes to the client's SPKI public key. */
export const rsaWrap = async (publicKeySpki: string, plaintext: Bytes): Promise<string> => {
  const key = await subtle().importKey("spki", fromBase64Url(publicKeySpki), RSA_OAEP, false, ["encrypt"])
  return toBase64Url(new Uint8Array(await subtle().encrypt(RSA_OAEP, key, plaintext)))
}
