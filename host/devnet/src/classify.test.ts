// Classifier on traces produced in the sandbox: each case runs a real wallet message through the devnet.
import { Address, type Cell, SendMode, beginCell, external, internal, storeMessage, toNano } from "@ton/core"
import { keyPairFromSeed } from "@ton/crypto"
import { WalletContractV5R1 } from "@ton/ton"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Devnet } from "./devnet.ts"
import type { ActionJson } from "./model.ts"

let dn: Devnet
const key = keyPairFromSeed(Buffer.alloc(32, 9))
const wallet = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: -239 } })
const W = wallet.address.toRawString()
let seqno = 0

const signed = (messages: ReturnType<typeof internal>[]): Cell => {
  const body = wallet.createTransfer({ seqno, secretKey: key.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages })
  return beginCell()
    .store(storeMessage(external({ to: wallet.address, body, ...(seqno === 0 ? { init: wallet.init } : {}) })))
    .endCell()
}
/** Sends for real, produces a block and returns the wallet's newest event actions. */
const send = async (messages: ReturnType<typeof internal>[]): Promise<ActionJson[]> => {
  await dn.submit(signed(messages))
  await dn.stepBlock()
  seqno += 1
  return dn.listEvents(W, { limit: 1, subjectOnly: false }).events[0]!.actions
}

beforeAll(async () => {
  dn = await Devnet.open()
  await dn.faucet({ address: W, ton: toNano("10"), jetton: "dvc", amount: 5_000_000_000n })
  await dn.stepBlock()
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

describe("action classifier", { timeout: 60_000 }, () => {
  it("faucet mint: JettonMint for the owner, notification and excess folded", () => {
    const ev = dn.listEvents(W, { limit: 1, subjectOnly: false }).events[0]!
    expect(ev.actions.map((a) => a.type)).toEqual(["TonTransfer", "JettonMint"])
    const mint = ev.actions[1]!.JettonMint as { amount: string; recipient: { address: string }; jetton: { symbol: string } }
    expect(mint.amount).toBe("5000000000")
    expect(mint.recipient.address).toBe(W)
    expect(mint.jetton.symbol).toBe("DVC")
  })

  it("plain TON transfer with an encrypted comment", async () => {
    const cipher = Buffer.from("00112233445566778899aabbccddeeff", "hex")
    const body = beginCell().storeUint(0x2167da4b, 32).storeBuffer(cipher).endCell()
    const actions = await send([internal({ to: new Address(0, Buffer.alloc(32, 1)), value: toNano("0.5"), bounce: false, body })])
    expect(actions.map((a) => a.type)).toEqual(["ContractDeploy", "TonTransfer"])
    const t = actions[1]!.TonTransfer as { encrypted_comment: { cipher_text: string }; comment?: string; amount: number }
    expect(t.encrypted_comment.cipher_text).toBe(cipher.toString("hex"))
    expect(t.comment).toBeUndefined()
    expect(t.amount).toBe(500_000_000)
  })

  it("jetton burn: JettonBurn with the burnt amount; the balance drops", async () => {
    const dvc = dn.jettonByKey("dvc")!
    const jw = await dn.jettonWalletAddress(dvc, W)
    const body = beginCell().storeUint(0x595f07bc, 32).storeUint(0, 64).storeCoins(1_000_000_000n).storeAddress(wallet.address).storeMaybeRef(null).endCell()
    const actions = await send([internal({ to: Address.parse(jw), value: toNano("0.1"), body })])
    expect(actions.map((a) => [a.type, a.status])).toEqual([["JettonBurn", "ok"]])
    expect((actions[0]!.JettonBurn as { amount: string }).amount).toBe("1000000000")
    expect((await dn.jettonBalance(dvc, W))?.balance).toBe(4_000_000_000n)
    const ops = dn.jettonHistory(W, { limit: 10 }).operations as Array<{ operation: string }>
    expect(ops.map((o) => o.operation)).toEqual(["burn", "mint"])
  })

  it("an op to an active non-wallet contract is SmartContractExec (failed when it throws)", async () => {
    const body = beginCell().storeUint(0xdeadbeef, 32).storeUint(0, 64).endCell()
    const actions = await send([internal({ to: Address.parse(dn.meta.collection), value: toNano("0.2"), bounce: true, body })])
    expect(actions.map((a) => a.type)).toEqual(["SmartContractExec"])
    const exec = actions[0]!.SmartContractExec as { operation: string; gram_attached: number; contract: { address: string } }
    expect(exec.operation).toBe("0xdeadbeef")
    expect(exec.gram_attached).toBe(200_000_000)
    expect(exec.contract.address).toBe(dn.meta.collection)
    expect(actions[0]!.status).toBe("failed")
  })

  it("an op to an account with no code is Unknown: nothing else fits", async () => {
    const body = beginCell().storeUint(0x12345678, 32).endCell()
    const actions = await send([internal({ to: new Address(0, Buffer.alloc(32, 2)), value: toNano("0.05"), bounce: false, body })])
    expect(actions.map((a) => a.type)).toEqual(["Unknown"])
  })

  it("several messages in one external become one event with one action each, in order", async () => {
    const actions = await send([
      internal({ to: new Address(0, Buffer.alloc(32, 3)), value: toNano("0.01"), bounce: false, body: "one" }),
      internal({ to: new Address(0, Buffer.alloc(32, 4)), value: toNano("0.02"), bounce: false, body: "two" }),
    ])
    expect(actions.map((a) => (a.TonTransfer as { comment: string }).comment)).toEqual(["one", "two"])
  })
})
