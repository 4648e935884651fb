/**
 * Byte helpers the proofs need without Node's Buffer (the engine also runs in the mini-app): UTF-8,
 * big/little-endian integers, SHA-256 and CRC-32. Hex and base64 come from `@tonconnect/protocol`
 * (`toHexString`, `hexToByteArray`, `Base64`); `base64Bytes` only widens what its decoder accepts.
 */
import { sha256_sync } from "@ton/crypto"
import { Base64 } from "@tonconnect/protocol"
import { Buffer } from "buffer"

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder("utf-8", { fatal: true }).decode(bytes)

export const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

export const isHex = (text: string, bytes?: number): boolean => /^(?:[0-9a-fA-F]{2})*$/.test(text) && (bytes === undefined || text.length === bytes * 2)

/**
 * Base64 from dApps into bytes through the protocol package's `Base64`: standard or url-safe,
 * padding optional (dApps send all four); throws on anything else.
 */
export const base64Bytes = (text: string): Uint8Array => {
  const clean = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "")
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) throw new Error("not a base64 string")
  return Base64.decode(clean + "=".repeat((4 - (clean.length % 4)) % 4)).toUint8Array()
}

export const u32be = (n: number): Uint8Array => {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, n >>> 0, false)
  return out
}
export const i32be = (n: number): Uint8Array => {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setInt32(0, n, false)
  return out
}
export const u32le = (n: number): Uint8Array => {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, n >>> 0, true)
  return out
}
export const u64be = (n: number | bigint): Uint8Array => {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, BigInt(n), false)
  return out
}
export const u64le = (n: number | bigint): Uint8Array => {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, BigInt(n), true)
  return out
}

/**
 * SHA-256 in pure JS (the one @ton/core uses): WebCrypto's `subtle` exists only in secure contexts,
 * and a mini-app opened over plain http in development is not one.
 */
export const sha256 = async (data: Uint8Array): Promise<Uint8Array> => new Uint8Array(sha256_sync(Buffer.from(data)))

let crcTable: Uint32Array | undefined
/** CRC-32 (IEEE 802.3, the one of zlib), unsigned. */
export const crc32 = (data: Uint8Array): number => {
  if (!crcTable) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

export const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i])
