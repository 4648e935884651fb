// Small shared helpers: address parsing and rendering, BoC decoding, op codes.
import { Address, Cell, type Slice } from "@ton/core"

export const OP = {
  textComment: 0x00000000,
  encryptedComment: 0x2167da4b,
  jettonTransfer: 0x0f8a7ea5,
  jettonInternalTransfer: 0x178d4519,
  jettonNotify: 0x7362d09c,
  excesses: 0xd53276db,
  jettonBurn: 0x595f07bc,
  jettonBurnNotification: 0x7bdd97de,
  jettonMint: 0x00000015,
  nftTransfer: 0x5fcc3d14,
  nftOwnershipAssigned: 0x05138d91,
  w5SignedInternal: 0x73696e74,
  w5SignedExternal: 0x7369676e,
} as const

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: number,
  ) {
    super(message)
  }
}

/** `0:hex` form used by every tonapi response. */
export const raw = (a: Address): string => `${a.workChain}:${a.hash.toString("hex")}`

export const tryParseAddress = (s: string): Address | undefined => {
  try {
    return Address.parse(s.trim())
  } catch {
    return undefined
  }
}

/** Parse a BoC given as base64 or hex. */
export const parseBoc = (boc: string): Cell => {
  const s = boc.trim()
  const buf = /^[0-9a-fA-F]+$/.test(s) && s.length % 2 === 0 ? Buffer.from(s, "hex") : Buffer.from(s, "base64")
  const cells = Cell.fromBoc(buf)
  const first = cells[0]
  if (!first) throw new ApiError(400, "empty boc")
  return first
}

export const cellHex = (c: Cell): string => c.toBoc().toString("hex")

/** Reads op (32 bits) of a body; undefined for an empty body. */
export const opOf = (body: Cell | undefined): number | undefined => {
  if (!body) return undefined
  const s = body.beginParse()
  if (s.remainingBits < 32) return undefined
  return s.loadUint(32)
}

export const opHex = (op: number): string => `0x${op.toString(16).padStart(8, "0")}`

/** Reads snake-format text (op 0 comment body after the op). */
export const readSnakeText = (s: Slice): string => {
  try {
    return s.loadStringTail()
  } catch {
    return ""
  }
}

export interface Comment {
  readonly comment?: string
  readonly encrypted_comment?: { encryption_type: string; cipher_text: string }
}

/** Decodes a text or encrypted comment from a payload whose op is already known to be 0 or 0x2167da4b. */
export const decodeComment = (s: Slice): Comment => {
  if (s.remainingBits < 32) return {}
  const op = s.loadUint(32)
  if (op === OP.textComment) return { comment: readSnakeText(s) }
  if (op === OP.encryptedComment) {
    const chunks: Buffer[] = []
    let cur: Slice | undefined = s
    while (cur) {
      chunks.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)))
      cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : undefined
    }
    return { encrypted_comment: { encryption_type: "simple", cipher_text: Buffer.concat(chunks).toString("hex") } }
  }
  return {}
}

/** Forward payload (Either Cell ^Cell) as a slice, or undefined. */
export const loadEitherPayload = (s: Slice): Slice | undefined => {
  if (s.remainingBits < 1) return undefined
  const inRef = s.loadBit()
  if (inRef) return s.remainingRefs > 0 ? s.loadRef().beginParse() : undefined
  return s
}

export const nowSec = (): number => Math.floor(Date.now() / 1000)

export const toJsonSafe = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? Number(x) : x)))
