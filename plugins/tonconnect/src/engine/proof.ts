/**
 * The bytes ton_proof and signData sign (PROTOCOLS.md "TonConnect v2"; the cell variant per the
 * TonConnect spec: `message#75569022 schema_hash:uint32 timestamp:uint64 userAddress:MsgAddress
 * appDomain:^(SnakeData) payload:^Cell`, domain in the TEP-81 DNS form, signature over the cell hash).
 */
import { Address, beginCell, Cell } from "@ton/core"
import { base64Bytes, concat, crc32, i32be, sha256, u32be, u32le, u64be, u64le, utf8 } from "./bytes.ts"
import type { SignDataPayload } from "./protocol.ts"

export interface ProofInput {
  /** The wallet address (raw or friendly). */
  readonly address: string
  /** host[:port] of the dApp. */
  readonly domain: string
  /** Unix seconds. */
  readonly timestamp: number
  readonly payload: string
}

/** "ton-proof-item-v2/" || wc int32 BE || hash || domainLen u32 LE || domain || timestamp u64 LE || payload */
export const tonProofMessage = (input: ProofInput): Uint8Array => {
  const address = Address.parse(input.address)
  const domain = utf8(input.domain)
  return concat(
    utf8("ton-proof-item-v2/"),
    i32be(address.workChain),
    new Uint8Array(address.hash),
    u32le(domain.length),
    domain,
    u64le(input.timestamp),
    utf8(input.payload),
  )
}

/** sha256(0xffff || "ton-connect" || sha256(message)): the 32 bytes the wallet key signs. */
export const tonProofDigest = async (input: ProofInput): Promise<Uint8Array> =>
  sha256(concat(new Uint8Array([0xff, 0xff]), utf8("ton-connect"), await sha256(tonProofMessage(input))))

/** TEP-81 internal form of a domain: labels reversed, each followed by a zero byte ("com\0stonfi\0"). */
export const dnsEncodeDomain = (domain: string): string =>
  domain
    .split(".")
    .toReversed()
    .map((label) => `${label}\0`)
    .join("")

export interface SignDataInput {
  readonly address: string
  readonly domain: string
  readonly timestamp: number
  readonly payload: SignDataPayload
}

/** 0xffff || "ton-connect/sign-data/" || wc int32 || hash || domainLen u32 || domain || ts u64 || "txt"|"bin" || len u32 || data (big-endian) */
export const signDataMessage = (input: SignDataInput & { readonly payload: { readonly type: "text" | "binary" } & SignDataPayload }): Uint8Array => {
  const address = Address.parse(input.address)
  const domain = utf8(input.domain)
  const payload = input.payload
  const data = payload.type === "text" ? utf8(payload.text) : payload.type === "binary" ? base64Bytes(payload.bytes) : new Uint8Array()
  return concat(
    new Uint8Array([0xff, 0xff]),
    utf8("ton-connect/sign-data/"),
    i32be(address.workChain),
    new Uint8Array(address.hash),
    u32be(domain.length),
    domain,
    u64be(input.timestamp),
    utf8(payload.type === "text" ? "txt" : "bin"),
    u32be(data.length),
    data,
  )
}

/** The cell whose hash a cell signData signs. */
export const signDataCell = (input: SignDataInput & { readonly payload: { readonly type: "cell"; readonly schema: string; readonly cell: string } }): Cell =>
  beginCell()
    .storeUint(0x75569022, 32)
    .storeUint(crc32(utf8(input.payload.schema)), 32)
    .storeUint(input.timestamp, 64)
    .storeAddress(Address.parse(input.address))
    .storeStringRefTail(dnsEncodeDomain(input.domain))
    .storeRef(Cell.fromBase64(input.payload.cell))
    .endCell()

/** The 32 bytes the wallet key signs for a signData request. */
export const signDataDigest = async (input: SignDataInput): Promise<Uint8Array> => {
  const payload = input.payload
  if (payload.type === "cell") return new Uint8Array(signDataCell({ ...input, payload }).hash())
  return sha256(signDataMessage({ ...input, payload }))
}
