/**
 * The recovery split (spec 2 section 3 "Encrypted credentials": key hex, iv hex, two encrypted
 * shards). The payload is AES-GCM-256 encrypted under a random key and iv; the ciphertext is then
 * split 2-of-2 by XOR with a random pad: shard 0 is the pad, shard 1 the ciphertext XOR the pad.
 * Either shard alone is uniformly random; key and iv alone decrypt nothing. The key and iv go to
 * the server's recovery keys (released after an email code of reason get-recovery-key), shard 0
 * to Telegram CloudStorage and shard 1 to the server beside the key (docs/decisions/0602).
 */
import { Redacted } from "effect"
import { aesDecrypt, aesEncrypt, fromBase64Url, fromHex, importAesKey, IV_BYTES, KEY_BYTES, randomBytes, toBase64Url, toHex, utf8, xor } from "./crypto.ts"
import type { Credentials } from "./vault.ts"

export const RECOVERY_SHARD_PREFIX = "rs1."
const AAD = utf8("wallet/keyvault/recovery/v1")

export interface RecoverySplit {
  /** 32-byte AES-256 key, hex. */
  readonly key: string
  /** 12-byte iv, hex. */
  readonly iv: string
  /** [pad, ciphertext XOR pad], each `rs1.<base64url>`. */
  readonly shards: readonly [string, string]
}

export const createRecoverySplit = async (credentials: Credentials): Promise<RecoverySplit> => {
  const key = randomBytes(KEY_BYTES)
  const iv = randomBytes(IV_BYTES)
  const plaintext = utf8(
    JSON.stringify({ address: credentials.address, mnemonic: Redacted.value(credentials.mnemonic), privateKey: Redacted.value(credentials.privateKey) }),
  )
  const ciphertext = await aesEncrypt(await importAesKey(key), iv, plaintext, AAD)
  const pad = randomBytes(ciphertext.length)
  return { key: toHex(key), iv: toHex(iv), shards: [RECOVERY_SHARD_PREFIX + toBase64Url(pad), RECOVERY_SHARD_PREFIX + toBase64Url(xor(ciphertext, pad))] }
}

const shardBytes = (shard: string) => {
  if (!shard.startsWith(RECOVERY_SHARD_PREFIX)) throw new Error("not a recovery shard")
  return fromBase64Url(shard.slice(RECOVERY_SHARD_PREFIX.length))
}

/** The plaintext JSON of a split, or null when any part is wrong or was tampered with. */
export const openRecoverySplitText = async (split: RecoverySplit): Promise<string | null> => {
  try {
    const key = fromHex(split.key)
    const iv = fromHex(split.iv)
    if (key.length !== KEY_BYTES || iv.length !== IV_BYTES) return null
    const ciphertext = xor(shardBytes(split.shards[0]), shardBytes(split.shards[1]))
    return new TextDecoder("utf-8", { fatal: true }).decode(await aesDecrypt(await importAesKey(key), iv, ciphertext, AAD))
  } catch {
    return null
  }
}
