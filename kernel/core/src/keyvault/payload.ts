/**
 * The vault's plaintext: credentials (Redacted) and the payload JSON they are sealed as, its parsing
 * and validation, the BiometricManager token format, and opening a recovery split.
 */
import { Effect, Redacted } from "effect"
import { fromBase64Url, fromUtf8, KEY_BYTES, toBase64Url, utf8 } from "./crypto.ts"
import { DecryptFailed, MESSAGES } from "./errors.ts"
import { openRecoverySplitText, type RecoverySplit } from "./recovery.ts"

type Bytes = Uint8Array<ArrayBuffer>

/** Unlocked credentials. Both secrets are Redacted: printing or serialising them shows `<redacted>`. */
export interface Credentials {
  readonly address: string
  readonly mnemonic: Redacted.Redacted<ReadonlyArray<string>>
  /** Hex of the 32-byte seed or 64-byte secret key. */
  readonly privateKey: Redacted.Redacted<string>
}

/** The plaintext shape, never leaves the vault's modules except Redacted. */
export interface Payload {
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

export const toPayload = (credentials: Credentials): Payload => ({
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

export const parsePayloadBytes = (bytes: Uint8Array): Payload | null => {
  try {
    return parsePayload(fromUtf8(bytes))
  } catch {
    return null
  }
}

export const validatePayload = (payload: Payload): string | null => {
  if (payload.mnemonic.length !== MNEMONIC_WORDS || payload.mnemonic.some((w) => !/^[a-z]+$/.test(w))) return `a mnemonic is ${MNEMONIC_WORDS} lowercase words`
  if (!/^([0-9a-f]{64}|[0-9a-f]{128})$/.test(payload.privateKey)) return "a private key is 32 or 64 bytes of lowercase hex"
  if (payload.address.trim() === "") return "an address is required"
  return null
}

export const sameMnemonic = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((w, i) => w === b[i])

/** Prefix of the token the vault keeps in Telegram's BiometricManager: `kvb1.<secret>.<server biometry token>`. */
const BIOMETRY_TOKEN_PREFIX = "kvb1"

export const encodeBiometryToken = (secret: Uint8Array, serverBiometryToken: string) =>
  `${BIOMETRY_TOKEN_PREFIX}.${toBase64Url(secret)}.${toBase64Url(utf8(serverBiometryToken))}`

export const decodeBiometryToken = (token: string): { secret: Bytes; serverBiometryToken: string } | null => {
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

/** Opens a recovery split (after the key, iv and both shards were fetched) into credentials. */
export const openRecoverySplit = (split: RecoverySplit): Effect.Effect<Credentials, DecryptFailed> =>
  Effect.gen(function* () {
    const text = yield* Effect.promise(() => openRecoverySplitText(split))
    const payload = text === null ? null : parsePayload(text)
    if (payload === null) return yield* new DecryptFailed({ message: MESSAGES.decryptFailed })
    return toCredentials(payload)
  })
