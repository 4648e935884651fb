import { createHash } from "node:crypto"
import { Address, beginCell } from "@ton/core"
import { describe, expect, it } from "vitest"
import { Base64, toHexString as toHex } from "@tonconnect/protocol"
import { base64Bytes, crc32, utf8 } from "./bytes.ts"
import { dnsEncodeDomain, signDataCell, signDataDigest, tonProofDigest, tonProofMessage } from "./proof.ts"

const address = `-1:${"0f".repeat(32)}`
const sha = (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest())

describe("signed messages", () => {
  it("lays out ton_proof per spec (wc BE, domain length and timestamp LE)", async () => {
    const message = tonProofMessage({ address, domain: "dapp.example", timestamp: 0x0102030405, payload: "nonce" })
    const expected = Buffer.concat([
      Buffer.from("ton-proof-item-v2/"),
      Buffer.from([0xff, 0xff, 0xff, 0xff]),
      Buffer.alloc(32, 0x0f),
      Buffer.from([12, 0, 0, 0]),
      Buffer.from("dapp.example"),
      Buffer.from([5, 4, 3, 2, 1, 0, 0, 0]),
      Buffer.from("nonce"),
    ])
    expect(toHex(message)).toBe(expected.toString("hex"))
    const digest = await tonProofDigest({ address, domain: "dapp.example", timestamp: 0x0102030405, payload: "nonce" })
    expect(toHex(digest)).toBe(toHex(sha(Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from("ton-connect"), sha(expected)]))))
  })

  it("lays out text and binary signData big-endian and hashes it", async () => {
    const digest = await signDataDigest({ address, domain: "a.b", timestamp: 258, payload: { type: "binary", bytes: Base64.encode(new Uint8Array([9, 8])) } })
    const expected = Buffer.concat([
      Buffer.from([0xff, 0xff]),
      Buffer.from("ton-connect/sign-data/"),
      Buffer.from([0xff, 0xff, 0xff, 0xff]),
      Buffer.alloc(32, 0x0f),
      Buffer.from([0, 0, 0, 3]),
      Buffer.from("a.b"),
      Buffer.from([0, 0, 0, 0, 0, 0, 1, 2]),
      Buffer.from("bin"),
      Buffer.from([0, 0, 0, 2, 9, 8]),
    ])
    expect(toHex(digest)).toBe(toHex(sha(expected)))
    const text = await signDataDigest({ address, domain: "a.b", timestamp: 258, payload: { type: "text", text: "é" } })
    expect(toHex(text)).not.toBe(toHex(digest))
  })

  it("builds the cell variant with the schema CRC and the TEP-81 domain", async () => {
    expect(crc32(utf8("123456789"))).toBe(0xcbf43926)
    expect(dnsEncodeDomain("app.ston.fi")).toBe("fi\0ston\0app\0")
    const payload = beginCell().storeUint(5, 8).endCell()
    const cell = signDataCell({
      address,
      domain: "ston.fi",
      timestamp: 7,
      payload: { type: "cell", schema: "x#_ v:uint8 = X;", cell: payload.toBoc().toString("base64") },
    })
    const slice = cell.beginParse()
    expect(slice.loadUint(32)).toBe(0x75569022)
    expect(slice.loadUint(32)).toBe(crc32(utf8("x#_ v:uint8 = X;")))
    expect(slice.loadUint(64)).toBe(7)
    expect(slice.loadAddress().equals(Address.parse(address))).toBe(true)
    expect(slice.loadRef().beginParse().loadStringTail()).toBe("fi\0ston\0")
    expect(slice.loadRef().hash().equals(payload.hash())).toBe(true)
    const digest = await signDataDigest({
      address,
      domain: "ston.fi",
      timestamp: 7,
      payload: { type: "cell", schema: "x#_ v:uint8 = X;", cell: payload.toBoc().toString("base64") },
    })
    expect(toHex(digest)).toBe(cell.hash().toString("hex"))
  })

  it("reads dApp base64 in both alphabets, padded or not, through the protocol's Base64", () => {
    const bytes = new Uint8Array(256).map((_, i) => i)
    expect(Base64.encode(bytes)).toBe(Buffer.from(bytes).toString("base64"))
    expect([...base64Bytes(Buffer.from(bytes).toString("base64url"))]).toEqual([...bytes])
    expect([...base64Bytes(Buffer.from(bytes).toString("base64"))]).toEqual([...bytes])
    expect([...base64Bytes("AQI")]).toEqual([1, 2])
    expect(() => base64Bytes("a$b")).toThrow()
  })
})
