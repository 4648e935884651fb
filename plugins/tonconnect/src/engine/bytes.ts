/**
 * Byte helpers without Node's Buffer (the engine also runs in the mini-app): hex, base64 (standard
 * and url-safe), UTF-8, big/little-endian integers, SHA-256 and CRC-32.
 */
import { sha256_sync } from "@ton/crypto"
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

export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

export const isHex = (text: string, bytes?: number): boolean =>
  /^(?:[0-9a-fA-F]{2})*$/.test(text) && (bytes === undefined || text.length === bytes * 2)

export const fromHex = (hex: string): Uint8Array => {
  if (!isHex(hex)) throw new Error("not a hex string")
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

export const toBase64 = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!
    const b = bytes[i + 1]
    const c = bytes[i + 2]
    out += B64[a >> 2]
    out += B64[((a & 3) << 4) | ((b ?? 0) >> 4)]
    out += b === undefined ? "=" : B64[((b & 15) << 2) | ((c ?? 0) >> 6)]
    out += c === undefined ? "=" : B64[c & 63]
  }
  return out
}

/** Standard or url-safe base64, padding optional; throws on anything else. */
export const fromBase64 = (text: string): Uint8Array => {
  const clean = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "")
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) throw new Error("not a base64 string")
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4))
  let bits = 0
  let value = 0
  let at = 0
  for (const ch of clean) {
    value = (value << 6) | B64.indexOf(ch)
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[at++] = (value >> bits) & 0xff
    }
  }
  return out
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
