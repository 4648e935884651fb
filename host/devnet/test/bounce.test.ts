/* oxlint-disable typescript/no-explicit-any -- JSON responses are explored loosely in tests */
import { SendMode, beginCell, external, internal, storeMessage } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startDevnet, type RunningDevnet } from "../src/index.ts"
import { Api, keyFor } from "./helpers.ts"

describe("bounced TON transfers", () => {
  let dn: RunningDevnet
  beforeAll(async () => {
    dn = await startDevnet({ port: 0, blockMs: 0 })
  })
  afterAll(async () => {
    await dn.close()
  })

  it("a bounceable transfer to an uninit account is a failed TonTransfer and the value comes back", async () => {
    const api = new Api(dn.url)
    const key = keyFor("bounce-sender")
    const wallet = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: -239 } })
    const nobody = WalletContractV5R1.create({ publicKey: keyFor("bounce-nobody").publicKey, walletId: { networkGlobalId: -239 } })
    await dn.faucet({ address: wallet.address.toRawString(), ton: 10_000_000_000n })
    await dn.stepBlock()
    const body = wallet.createTransfer({
      seqno: 0,
      secretKey: key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      messages: [
        internal({ to: nobody.address, value: 1_000_000_000n, bounce: true, body: "bounce me" }),
        internal({ to: nobody.address, value: 2_000_000_000n, bounce: false, body: "keep" }),
      ],
    })
    const ext = beginCell()
      .store(storeMessage(external({ to: wallet.address, body, init: wallet.init })))
      .endCell()
    await api.post("/v2/blockchain/message", { boc: ext.toBoc().toString("base64") })
    await dn.stepBlock()
    const event = await api.get(`/v2/events/${ext.hash().toString("hex")}`)
    const transfers = event.actions.filter((a: any) => a.type === "TonTransfer").map((a: any) => [a.TonTransfer.comment, a.status])
    expect(transfers).toEqual([
      ["bounce me", "failed"],
      ["keep", "ok"],
    ])
    const balance = (await api.get(`/v2/accounts/${wallet.address.toRawString()}`)).balance
    // 10 TON - 2 TON kept by the receiver - fees: the bounced 1 TON is back
    expect(balance).toBeGreaterThan(7_900_000_000)
    expect((await api.get(`/v2/accounts/${nobody.address.toRawString()}`)).balance).toBe(2_000_000_000)
  })
})
