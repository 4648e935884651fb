/**
 * Secrets at rest: passcodes as scrypt hashes (salted, slow, compared in constant time);
 * high-entropy tokens (biometry, operation) as SHA-256; email codes as salted SHA-256 (they live
 * minutes and are guarded by attempt limits, docs/decisions/0500).
 */
import { constants, createHash, createPublicKey, type KeyObject, publicEncrypt, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"

/** scrypt cost: N = 2^14, r = 8, p = 1 (16 MiB, tens of ms per hash). */
const SCRYPT = { N: 16_384, r: 8, p: 1, keyLength: 32, maxmem: 64 * 1024 * 1024 } as const

const scryptAsync = (secret: string, salt: Buffer, N: number, r: number, p: number, keyLength: number) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(secret, salt, keyLength, { N, r, p, maxmem: SCRYPT.maxmem }, (error, key) => {
      resume(error ? Effect.die(error) : Effect.succeed(key))
    })
  })

/** `scrypt$N$r$p$<salt b64>$<hash b64>` */
export const hashPasscode = (passcode: string) =>
  Effect.gen(function* () {
    const salt = randomBytes(16)
    const key = yield* scryptAsync(passcode, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength)
    return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${key.toString("base64")}`
  })

export const verifyPasscodeHash = (passcode: string, stored: string) =>
  Effect.gen(function* () {
    const [scheme, n, r, p, saltText, hashText] = stored.split("$")
    if (scheme !== "scrypt" || saltText === undefined || hashText === undefined) return false
    const expected = Buffer.from(hashText, "base64")
    const key = yield* scryptAsync(passcode, Buffer.from(saltText, "base64"), Number(n), Number(r), Number(p), expected.length)
    return key.length === expected.length && timingSafeEqual(key, expected)
  })

/** 256 random bits, URL-safe. */
export const randomToken = () => randomBytes(32).toString("base64url")
export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

export const newEmailCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0")
export const newSalt = () => randomBytes(16).toString("hex")
export const hashEmailCode = (salt: string, code: string) => sha256(`${salt}:${code}`)
export const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/**
 * The client's transport key (SPKI DER, base64url) when it is an RSA key of at least 2048 bits;
 * undefined for anything else (garbage, EC keys, RSA-PSS, short RSA), so callers answer a 400.
 */
export const parseTransportKey = (spkiBase64Url: string): KeyObject | undefined => {
  try {
    const key = createPublicKey({ key: Buffer.from(spkiBase64Url, "base64url"), format: "der", type: "spki" })
    if (key.asymmetricKeyType !== "rsa" || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return undefined
    return key
  } catch {
    return undefined
  }
}

/** RSA-OAEP with SHA-256 to the client's transport key: how a device key leaves the server (docs/decisions/0602). */
export const rsaOaepWrap = (key: KeyObject, plaintext: Uint8Array): string =>
  publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, plaintext).toString("base64url")
