/**
 * The stored blob formats (docs/decisions/0601-keyvault-blob-format.md).
 *
 * - `v1:<base64url(JSON {salt, iv, ct})>`: the spec's plain client-side encryption, the payload under
 *   PBKDF2(passphrase). A copy can be brute-forced offline with a 4-6 digit passcode: it is read
 *   for compatibility and rewritten as v2 on the next successful passcode unlock.
 * - `v2:<base64url(JSON)>`: a random data key encrypts the payload; key slots wrap the data key under
 *   keys that all include the server-held device key (released only after online verification).
 *
 * Everything here is ciphertext, salts, ivs and ids: nothing in a blob is secret on its own.
 */
import { Exit, Schema } from "effect"

const B64 = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]*$/))

export const WrappedKey = Schema.Struct({ iv: B64, wk: B64 })
export type WrappedKey = typeof WrappedKey.Type
export const PasscodeSlot = Schema.Struct({ salt: B64, iv: B64, wk: B64 })
export type PasscodeSlot = typeof PasscodeSlot.Type

export const BlobV1 = Schema.Struct({ salt: B64, iv: B64, ct: B64 })
export type BlobV1 = typeof BlobV1.Type

export const BlobV2 = Schema.Struct({
  /** The id of the server-held device key (the spec's externalId). */
  externalId: Schema.String,
  /** The wallet address the credentials belong to (bound as associated data). */
  address: Schema.String,
  slots: Schema.Struct({
    /** Passcode AND device key. Up to two while a passcode change is not yet confirmed by an unlock. */
    passcode: Schema.optionalKey(Schema.Array(PasscodeSlot)),
    /** Biometric secret (kept by Telegram's BiometricManager) AND device key. */
    biometry: Schema.optionalKey(WrappedKey),
    /** Device key alone: written by the background migration of plain credentials (no passcode known). */
    server: Schema.optionalKey(WrappedKey),
  }),
  iv: B64,
  ct: B64,
})
export type BlobV2 = typeof BlobV2.Type

export const CURRENT_VERSION = 2 as const

export type Blob = { readonly version: 1; readonly blob: BlobV1 } | { readonly version: 2; readonly blob: BlobV2 }

const toB64Json = (value: unknown): string => {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")
}

const fromB64Json = (text: string): unknown => {
  const normal = text.replaceAll("-", "+").replaceAll("_", "/")
  const binary = atob(normal.padEnd(Math.ceil(normal.length / 4) * 4, "="))
  return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))))
}

export const encodeBlob = (blob: Blob): string => `v${blob.version}:${toB64Json(blob.blob)}`

/** The version of a stored string, or null when it is not a blob at all. */
export const blobVersion = (text: string): number | null => {
  const match = /^v(\d+):/.exec(text)
  return match ? Number(match[1]) : null
}

/**
 * Parses a stored blob; null when it is malformed or of an unknown (newer) version. The stored text
 * is ciphertext only, so no plaintext can surface from a parse failure.
 */
export const decodeBlob = (text: string): Blob | null => {
  const version = blobVersion(text)
  let json: unknown
  try {
    json = fromB64Json(text.slice(text.indexOf(":") + 1))
  } catch {
    return null
  }
  if (version === 1) {
    const decoded = Schema.decodeUnknownExit(BlobV1)(json)
    return Exit.isSuccess(decoded) ? { version: 1, blob: decoded.value } : null
  }
  if (version === 2) {
    const decoded = Schema.decodeUnknownExit(BlobV2)(json)
    return Exit.isSuccess(decoded) ? { version: 2, blob: decoded.value } : null
  }
  return null
}

/** Associated data of a v2 blob: the header, so swapping an externalId or address breaks the tags. */
export const v2AssociatedData = (blob: Pick<BlobV2, "externalId" | "address">, part: string): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(`wallet/keyvault/v2|${part}|${blob.externalId}|${blob.address}`) as Uint8Array<ArrayBuffer>
