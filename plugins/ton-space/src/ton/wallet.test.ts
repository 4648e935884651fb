import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { startDevnet, type RunningDevnet } from "@wallet/devnet"
import { makeChainClient } from "@wallet/kernel/chain"
import { emulationReject } from "../core/emulation.ts"
import { identitiesOf, jettonTransferBody, keysOf, newMnemonic, parseAddress, signTransfer, walletContract, commentBody, Address } from "./wallet.ts"

let dn: RunningDevnet
beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

describe("TON wallet (W5R1 on the devnet)", () => {
  it("one mnemonic: the same address every time, different per network, newest version first", async () => {
    const words = await newMnemonic()
    expect(words).toHaveLength(24)
    const a = await keysOf(words)
    const b = await keysOf([...words])
    expect(identitiesOf(a.publicKey, "mainnet")[0]).toEqual(identitiesOf(b.publicKey, "mainnet")[0])
    expect(identitiesOf(a.publicKey, "mainnet")[0]!.walletClass).toBe("v5r1")
    expect(identitiesOf(a.publicKey, "mainnet")[0]!.address.startsWith("UQ")).toBe(true)
    expect(identitiesOf(a.publicKey, "testnet")[0]!.address.startsWith("0Q")).toBe(true)
    expect(identitiesOf(a.publicKey, "testnet")[0]!.raw).not.toBe(identitiesOf(a.publicKey, "mainnet")[0]!.raw)
  })

  it("parses friendly and raw addresses with their bounce flag", () => {
    const raw = `0:${"ab".repeat(32)}`
    const parsed = parseAddress(raw)!
    const bounceable = parsed.address.toString({ bounceable: true })
    const nonBounceable = parsed.address.toString({ bounceable: false })
    expect(parseAddress(bounceable)).toMatchObject({ raw, isFriendly: true, isBounceable: true })
    expect(parseAddress(nonBounceable)).toMatchObject({ raw, isFriendly: true, isBounceable: false })
    expect(parseAddress("not an address")).toBeNull()
  })

  it("a signed first transfer deploys the wallet, passes the emulation rules and lands with its message hash", async () => {
    const chain = makeChainClient({ baseUrl: dn.url })
    const keys = await keysOf(await newMnemonic())
    const me = walletContract(keys.publicKey, "v5r1", "mainnet")
    const friend = walletContract((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet")
    await dn.faucet({ address: me.address.toRawString(), ton: 3_000_000_000n })
    await dn.stepBlock()
    const signed = signTransfer({
      keys,
      walletClass: "v5r1",
      network: "mainnet",
      seqno: 0,
      deployed: false,
      messages: [{ to: friend.address, value: 1_000_000_000n, bounce: false, body: commentBody("hi") }],
    })
    const emulated = await Effect.runPromise(chain.emulate(signed.boc))
    expect(emulationReject(emulated, { expectedActions: 1 })).toBeNull()
    await Effect.runPromise(chain.sendBoc(signed.boc))
    await dn.stepBlock()
    const event = await Effect.runPromise(chain.getAccountEvent(me.address.toRawString(), signed.messageHash))
    expect(event.in_progress).toBe(false)
    const transfer = event.actions.find((a) => a.type === "TonTransfer")!
    expect(transfer.status).toBe("ok")
    expect(transfer.TonTransfer).toMatchObject({ amount: 1_000_000_000n, comment: "hi" })
    expect(await Effect.runPromise(chain.getSeqno(me.address.toRawString()))).toBe(1)
  }, 60_000)

  it("a jetton transfer body carries the TEP-74 fields", () => {
    const dest = Address.parseRaw(`0:${"cd".repeat(32)}`)
    const resp = Address.parseRaw(`0:${"ef".repeat(32)}`)
    const slice = jettonTransferBody({ queryId: 7n, amount: 25n, destination: dest, responseDestination: resp, comment: "x" }).beginParse()
    expect(slice.loadUint(32)).toBe(0x0f8a7ea5)
    expect(slice.loadUintBig(64)).toBe(7n)
    expect(slice.loadCoins()).toBe(25n)
    expect(slice.loadAddress().equals(dest)).toBe(true)
    expect(slice.loadAddress().equals(resp)).toBe(true)
    expect(slice.loadBit()).toBe(false)
    expect(slice.loadCoins()).toBe(1n)
    expect(slice.loadBit()).toBe(true)
  })
})
