import { Address, beginCell, Cell, internal, SendMode, storeStateInit } from "@ton/core"
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton"
import { Effect } from "effect"
import nacl from "tweetnacl"
import { describe, expect, it } from "vitest"
import { keyPairSigner, type TonNetwork } from "./signer.ts"
import { buildSignedTransfer, decodeBody, decodeTransaction, type DecodedMessage, validateTransaction, walletContractOf } from "./transaction.ts"

const keys = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(9))
const w5 = (networkGlobalId: -239 | -3) => WalletContractV5R1.create({ workchain: 0, publicKey: Buffer.from(keys.publicKey), walletId: { networkGlobalId } })
const wallet = w5(-239)
const me = wallet.address.toRawString()
const now = 1_800_000_000
const other = Address.parseRaw(`0:${"22".repeat(32)}`)
const run = (payload: object, ctx: { network?: TonNetwork; version?: "v5r1" | "v4r2" } = {}) =>
  Effect.runPromise(
    Effect.result(
      decodeTransaction(JSON.stringify(payload), { address: me, network: ctx.network ?? "-239", ...(ctx.version ? { version: ctx.version } : {}) }, now),
    ),
  )
const codeOf = async (payload: object, ctx?: { network?: TonNetwork; version?: "v5r1" | "v4r2" }) => {
  const result = await run(payload, ctx)
  return result._tag === "Failure" ? { code: result.failure.code, message: result.failure.message } : undefined
}
const msg = (n = 1) => Array.from({ length: n }, () => ({ address: other.toString(), amount: "1000" }))
const b64 = (cell: Cell) => cell.toBoc().toString("base64")

describe("sendTransaction decoding", () => {
  it("reads TON with a comment, jetton and NFT transfers and other calls", () => {
    expect(decodeBody(undefined)).toEqual({ kind: "ton" })
    expect(decodeBody(beginCell().storeUint(0, 32).storeStringTail("hi there").endCell())).toEqual({ kind: "ton", comment: "hi there" })
    expect(decodeBody(beginCell().storeUint(0x2167da4b, 32).storeUint(1, 8).endCell())).toEqual({ kind: "ton", encryptedComment: true })
    const jetton = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(7, 64)
      .storeCoins(25_000_000n)
      .storeAddress(other)
      .storeAddress(Address.parseRaw(me))
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeBit(1)
      .storeRef(beginCell().storeUint(0, 32).storeStringTail("rent").endCell())
      .endCell()
    expect(decodeBody(jetton)).toEqual({
      kind: "jetton",
      queryId: 7n,
      jettonAmount: 25_000_000n,
      recipient: other.toRawString(),
      responseDestination: me,
      forwardTonAmount: 1n,
      comment: "rent",
    })
    const nft = beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(1, 64)
      .storeAddress(other)
      .storeAddress(null)
      .storeMaybeRef(null)
      .storeCoins(0n)
      .storeBit(0)
      .endCell()
    expect(decodeBody(nft)).toEqual({ kind: "nft", queryId: 1n, newOwner: other.toRawString(), responseDestination: null, forwardAmount: 0n })
    expect(decodeBody(beginCell().storeUint(0x47d54391, 32).storeUint(0, 64).endCell())).toEqual({ kind: "call", op: 0x47d54391 })
    expect(decodeBody(beginCell().storeUint(0x0f8a7ea5, 32).endCell())).toEqual({ kind: "call", op: 0x0f8a7ea5 })
  })

  it("keeps the bounce flag of a friendly address and decodes payload and state init", async () => {
    const result = await run({
      valid_until: now + 100,
      messages: [
        { address: other.toString({ bounceable: false }), amount: "5", payload: b64(beginCell().storeUint(0, 32).storeStringTail("x").endCell()) },
        { address: other.toRawString(), amount: 6, stateInit: b64(beginCell().store(storeStateInit(wallet.init)).endCell()) },
      ],
    })
    if (result._tag !== "Success") throw new Error(result.failure.message)
    const [first, second] = result.success.messages as [DecodedMessage, DecodedMessage]
    expect(first).toMatchObject({ bounce: false, amount: 5n, action: { kind: "ton", comment: "x" } })
    expect(second.bounce).toBe(true)
    expect(second.stateInit?.hash().toString("hex")).toBe(beginCell().store(storeStateInit(wallet.init)).endCell().hash().toString("hex"))
    expect(result.success.validUntil).toBe(now + 100)
  })

  it("answers 1 (bad request) for an expired request, a wrong network or from, and bad messages", async () => {
    expect(await codeOf({ valid_until: now - 1, messages: msg() })).toMatchObject({ code: 1, message: expect.stringMatching(/expired/) })
    expect(await codeOf({ valid_until: (now - 1) * 1000, messages: msg() })).toMatchObject({ code: 1, message: expect.stringMatching(/expired/) })
    expect(await codeOf({ network: "-3", messages: msg() })).toMatchObject({ code: 1, message: expect.stringMatching(/network/) })
    expect(await codeOf({ from: other.toRawString(), messages: msg() })).toMatchObject({ code: 1, message: expect.stringMatching(/from/) })
    expect(await codeOf({ messages: [] })).toMatchObject({ code: 1 })
    expect(await codeOf({ messages: [{ address: "nope", amount: "1" }] })).toMatchObject({ code: 1, message: expect.stringMatching(/address/) })
    expect(await codeOf({ messages: [{ address: other.toString(), amount: "-1" }] })).toMatchObject({ code: 1 })
    expect(await codeOf({ messages: [{ address: other.toString(), amount: "1", payload: "!!" }] })).toMatchObject({
      code: 1,
      message: expect.stringMatching(/payload/),
    })
    expect(await codeOf({ messages: [{ address: other.toString(), amount: "1", extra_currency: { 100: "1" } }] })).toMatchObject({ code: 1 })
    expect(await codeOf({ messages: "x" })).toMatchObject({ code: 1 })
    // The wallet's own address in friendly form is the same wallet.
    expect(await codeOf({ from: Address.parseRaw(me).toString({ bounceable: false }), network: "-239", valid_until: now + 1, messages: msg() })).toBeUndefined()
  })

  it("allows 255 messages on W5R1 and 4 on v4R2, one more is refused with 1", async () => {
    expect(await codeOf({ messages: msg(255) })).toBeUndefined()
    expect(await codeOf({ messages: msg(256) })).toMatchObject({ code: 1, message: expect.stringMatching(/too many messages: 256/) })
    expect(await codeOf({ messages: msg(4) }, { version: "v4r2" })).toBeUndefined()
    expect(await codeOf({ messages: msg(5) }, { version: "v4r2" })).toMatchObject({ code: 1, message: expect.stringMatching(/at most 4/) })
  })
})

const relaxedOf = (messages: ReadonlyArray<DecodedMessage>) =>
  messages.map((m) => internal({ to: Address.parseRaw(m.to), value: m.amount, bounce: m.bounce, ...(m.payload ? { body: m.payload } : {}) }))

/** The body of an external message without a state init. */
const bodyOf = (external: Cell): Cell => {
  const slice = external.beginParse()
  slice.loadUint(2) // ext_in_msg_info$10
  slice.loadMaybeAddress()
  slice.loadAddress()
  slice.loadCoins()
  expect(slice.loadBit()).toBe(false) // no state init
  return slice.loadBit() ? slice.loadRef() : slice.asCell()
}

describe("the signed external message", () => {
  const request = Effect.runSync(
    validateTransaction(
      {
        messages: [
          { address: other.toString({ bounceable: false }), amount: "100", payload: b64(beginCell().storeUint(0, 32).storeStringTail("a").endCell()) },
          { address: other.toString(), amount: "200" },
        ],
      },
      { address: me, network: "-239" },
      now,
    ),
  )

  it("is byte for byte what @ton/ton builds for W5R1 (both networks) and v4R2", async () => {
    for (const [network, globalId] of [
      ["-239", -239],
      ["-3", -3],
    ] as const) {
      const contract = w5(globalId)
      const signer = keyPairSigner({ secretKey: keys.secretKey, address: contract.address.toRawString(), stateInit: "", network })
      const ours = await Effect.runPromise(buildSignedTransfer({ signer, seqno: 3, deploy: false, request, nowSeconds: now }))
      const theirs: Cell = contract.createTransfer({
        seqno: 3,
        secretKey: Buffer.from(keys.secretKey),
        sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
        timeout: now + 60,
        messages: relaxedOf(request.messages),
      })
      expect(bodyOf(ours.cell).hash().toString("hex")).toBe(theirs.hash().toString("hex"))
    }
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: Buffer.from(keys.publicKey) })
    const signer = keyPairSigner({ secretKey: keys.secretKey, address: v4.address.toRawString(), stateInit: "", network: "-239", version: "v4r2" })
    const ours = await Effect.runPromise(buildSignedTransfer({ signer, seqno: 1, deploy: false, request, nowSeconds: now }))
    const theirs = v4.createTransfer({
      seqno: 1,
      secretKey: Buffer.from(keys.secretKey),
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      timeout: now + 60,
      messages: relaxedOf(request.messages),
    })
    expect(bodyOf(ours.cell).hash().toString("hex")).toBe(theirs.hash().toString("hex"))
  })

  it("uses the network's wallet id and carries the state init on the first transfer", async () => {
    const mainnet = walletContractOf({ publicKey: keys.publicKey, network: "-239" })
    expect(mainnet.address.toRawString()).toBe(me)
    expect(walletContractOf({ publicKey: keys.publicKey, network: "-3" }).address.equals(mainnet.address)).toBe(false)
    const stateInit = b64(beginCell().store(storeStateInit(wallet.init)).endCell())
    const signer = keyPairSigner({ secretKey: keys.secretKey, address: me, stateInit, network: "-239" })
    const { cell } = await Effect.runPromise(buildSignedTransfer({ signer, seqno: 0, deploy: true, request, nowSeconds: now }))
    const slice = cell.beginParse()
    slice.loadUint(2)
    slice.loadMaybeAddress()
    expect(slice.loadAddress().toRawString()).toBe(me)
    slice.loadCoins()
    expect(slice.loadBit()).toBe(true)
  })
})
