/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
// Extra currencies: the faucet mints them, /v2/accounts shows extra_balance, a W5R1 wallet sends them
// in a plain message's currency dictionary and both sides see an ExtraCurrencyTransfer.
import { Address, internal, SendMode, toNano } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningDevnet, startDevnet } from "../src/index.ts"
import { Api, keyFor, open } from "./helpers.ts"

let dn: RunningDevnet
let api: Api
const key = keyFor("extra-currency-alice")
const alice = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: -239 } })
const A = alice.address.toRawString()
const carol = new Address(0, Buffer.alloc(32, 0xc3)).toRawString()

const extraOf = async (account: string) =>
  ((await api.get(`/v2/accounts/${account}`)).extra_balance ?? []) as Array<{ amount: string; preview: { id: number; symbol: string; decimals: number } }>

beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
  api = new Api(dn.url)
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

describe("extra currencies", { timeout: 60_000 }, () => {
  it("the faucet mints an extra currency into an account's extra_balance with its preview", async () => {
    await dn.faucet({ address: A, ton: toNano("2"), extraCurrency: { id: 100, amount: 1_000_000n } })
    await api.post("/v2/devnet/faucet", { address: A, extraCurrency: { id: 7777, amount: "5" } })
    await dn.stepBlock()
    expect(await extraOf(A)).toEqual([
      { amount: "1000000", preview: { id: 100, symbol: "DXC", decimals: 5, image: "https://devnet.local/extra/dxc.png" } },
      { amount: "5", preview: { id: 7777, symbol: "EC7777", decimals: 9, image: "https://devnet.local/extra/unknown.png" } },
    ])
    const actions = (await api.get(`/v2/accounts/${A}/events?limit=10`)).events.flatMap((e: any) => e.actions)
    const received = actions.find((a: any) => a.type === "ExtraCurrencyTransfer" && a.ExtraCurrencyTransfer.currency.id === 100)
    expect(received.status).toBe("ok")
    expect(received.ExtraCurrencyTransfer).toMatchObject({ recipient: { address: A }, amount: "1000000" })
    expect(received.simple_preview.value).toBe("10 DXC")
  })

  it("refuses a malformed extraCurrency request", async () => {
    for (const extraCurrency of [
      { id: 0, amount: "1" },
      { id: 1, amount: "-5" },
      { id: "x", amount: "1" },
      { id: 1, amount: "0" },
    ]) {
      const r = await api.req("POST", "/v2/devnet/faucet", { address: A, extraCurrency })
      expect(r.status, JSON.stringify(extraCurrency)).toBe(400)
    }
  })

  it("a W5R1 wallet sends part of it: emulation shows the transfer, the block moves the balance", async () => {
    const message = internal({ to: Address.parse(carol), value: 0n, bounce: false, extracurrency: { 100: 2_500n } })
    const w = open(api, alice)
    await w.sendTransfer({ seqno: 0, secretKey: key.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS, messages: [message] })
    // in progress until the block: the provisional event already names the currency
    const pending = (await api.get(`/v2/accounts/${A}/events?limit=1`)).events[0]
    expect(pending.in_progress).toBe(true)
    await dn.stepBlock()
    expect((await extraOf(A)).find((e) => e.preview.id === 100)?.amount).toBe("997500")
    expect(await extraOf(carol)).toEqual([expect.objectContaining({ amount: "2500", preview: expect.objectContaining({ id: 100, symbol: "DXC" }) })])
    const sent = (await api.get(`/v2/accounts/${A}/events?limit=1`)).events[0]
    expect(sent.in_progress).toBe(false)
    expect(sent.actions.map((a: any) => a.type)).toEqual(["ContractDeploy", "ExtraCurrencyTransfer"])
    expect(sent.actions[1].ExtraCurrencyTransfer).toMatchObject({
      sender: { address: A },
      recipient: { address: carol },
      amount: "2500",
      currency: { id: 100 },
    })
    // no TON moved explicitly: the event's extra is the fee alone
    expect(sent.extra).toBeLessThan(0)
    const incoming = (await api.get(`/v2/accounts/${carol}/events?limit=1`)).events[0]
    expect(incoming.actions[0].type).toBe("ExtraCurrencyTransfer")
  })
})
