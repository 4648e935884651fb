/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
// Gasless: estimate -> sign the relay's message list with W5 internal auth -> send; the relay wallet
// carries it, pays the gas and collects the jetton commission.
import { Address, Cell, SendMode, beginCell, external, internal, loadStateInit, storeMessage, storeMessageRelaxed, toNano } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningDevnet, startDevnet } from "../src/index.ts"
import { Api, keyFor, open } from "./helpers.ts"

let dn: RunningDevnet
let api: Api
const key = keyFor("gasless-carol")
const carol = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: -239 } })
const C = carol.address.toRawString()
const dave = new Address(0, Buffer.alloc(32, 0xda))

beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
  api = new Api(dn.url)
  await dn.faucet({ address: C, ton: toNano("0.1"), jetton: "usdt", amount: 50_000_000n })
  await dn.stepBlock()
  // deploy carol's wallet with a tiny self-transfer
  await open(api, carol).sendTransfer({
    seqno: 0,
    secretKey: key.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: carol.address, value: 1n })],
  })
  await dn.stepBlock()
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

describe("gasless", { timeout: 60_000 }, () => {
  it("relays a signed W5 transfer: the recipient gets the jetton, the relay the commission", async () => {
    const usdt = dn.jetton("usdt")
    const config = await api.get("/v2/gasless/config")
    expect(config.gas_jettons.map((j: any) => j.master_id)).toContain(usdt)
    const relay = Address.parse(config.relay_address)
    const carolJw = (await api.get(`/v2/accounts/${C}/jettons/${usdt}`)).wallet_address.address
    const transfer = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(0, 64)
      .storeCoins(10_000_000n)
      .storeAddress(dave)
      .storeAddress(relay)
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeBit(false)
      .endCell()
    const msg = beginCell()
      .store(storeMessageRelaxed(internal({ to: Address.parse(carolJw), value: toNano("0.05"), body: transfer })))
      .endCell()
    const est = await api.post(`/v2/gasless/estimate/${usdt}`, {
      wallet_address: C,
      wallet_public_key: key.publicKey.toString("hex"),
      messages: [{ boc: msg.toBoc().toString("hex") }],
    })
    expect(est.relay_address).toBe(config.relay_address)
    const commission = BigInt(est.commission)
    expect(commission).toBeGreaterThan(0n)
    expect(est.messages).toHaveLength(2)

    const tonBefore = BigInt((await api.get(`/v2/accounts/${C}`)).balance)
    const seqno = (await api.get(`/v2/wallet/${C}/seqno`)).seqno
    const body = await carol.createTransfer({
      seqno,
      secretKey: key.secretKey,
      authType: "internal",
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      messages: est.messages.map((m: any) =>
        internal({
          to: Address.parse(m.address),
          value: BigInt(m.amount),
          ...(m.payload ? { body: Cell.fromBoc(Buffer.from(m.payload, "hex"))[0]! } : {}),
          ...(m.stateInit ? { init: loadStateInit(Cell.fromBoc(Buffer.from(m.stateInit, "hex"))[0]!.beginParse()) } : {}),
        }),
      ),
    })
    const boc = beginCell()
      .store(storeMessage(external({ to: carol.address, body })))
      .endCell()
      .toBoc()
      .toString("hex")
    const sent = await api.post("/v2/gasless/send", { wallet_public_key: key.publicKey.toString("hex"), boc })
    expect(sent.protocol_name).toBe("gasless")
    await dn.stepBlock()

    expect((await api.get(`/v2/accounts/${dave.toRawString()}/jettons/${usdt}`)).balance).toBe("10000000")
    expect((await api.get(`/v2/accounts/${config.relay_address}/jettons/${usdt}`)).balance).toBe(commission.toString())
    expect((await api.get(`/v2/accounts/${C}/jettons/${usdt}`)).balance).toBe((40_000_000n - commission).toString())
    expect((await api.get(`/v2/wallet/${C}/seqno`)).seqno).toBe(seqno + 1)
    // the relay paid for gas: carol's TON balance did not pay the 0.1 TON the two messages carry
    expect(tonBefore - BigInt((await api.get(`/v2/accounts/${C}`)).balance)).toBeLessThan(toNano("0.01"))
    const ev = (await api.get(`/v2/accounts/${C}/events?limit=1`)).events[0]
    expect(ev.actions.filter((a: any) => a.type === "JettonTransfer").map((a: any) => a.JettonTransfer.recipient.address)).toEqual([
      dave.toRawString(),
      config.relay_address,
    ])
  })
})
