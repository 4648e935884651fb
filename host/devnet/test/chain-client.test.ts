// The kernel's Chain client (the code that talks to tonapi.io in production) against the devnet.
import { SendMode, beginCell, external, internal, storeMessage, toNano, Address } from "@ton/core"
import { WalletContractV5R1 } from "@ton/ton"
import { Chain } from "@wallet/kernel/chain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningDevnet, startDevnet } from "../src/index.ts"
import { keyFor } from "./helpers.ts"

let dn: RunningDevnet
const key = keyFor("chain-client")
const wallet = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: -239 } })
const W = wallet.address.toRawString()
const to = new Address(0, Buffer.alloc(32, 0x42))

const run = <A, E>(f: (chain: Chain["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* Chain)
    }).pipe(Effect.provide(Chain.layer({ baseUrl: dn.url }))),
  )

beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
  await dn.faucet({ address: wallet.address.toString({ bounceable: false }), ton: toNano("3"), jetton: "usdt", amount: 7_000_000n })
  await dn.stepBlock()
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

describe("kernel Chain client against the devnet", { timeout: 60_000 }, () => {
  it("reads accounts, jettons and events with money as bigint", async () => {
    const account = await run((c) => c.getAccount(W))
    expect(account.balance).toBe(toNano("3.01")) // 3 TON plus the 0.01 TON the mint notification carries
    const jettons = await run((c) => c.getJettonBalances(W, { currencies: ["usd"] }))
    expect(jettons.map((j) => [j.jetton.symbol, j.balance])).toEqual([["USD₮", 7_000_000n]])
    const events = await run((c) => c.getEvents(W, { limit: 10 }))
    expect(events.events[0]!.actions.map((a) => a.type)).toEqual(["TonTransfer", "JettonMint"])
    expect(events.events[0]!.actions[0]!.TonTransfer!.amount).toBe(toNano("3"))
  })

  it("emulates, sends and sees the result after a block", async () => {
    const seqno = await run((c) => c.getSeqno(W))
    const body = wallet.createTransfer({
      seqno,
      secretKey: key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to, value: toNano("1"), bounce: false, body: "via Chain" })],
    })
    const boc = beginCell()
      .store(storeMessage(external({ to: wallet.address, body, init: wallet.init })))
      .endCell()
      .toBoc()
      .toString("base64")
    const em = await run((c) => c.emulate(boc))
    expect(em.risk.gram).toBe(toNano("1"))
    expect(em.event.actions.map((a) => a.type)).toEqual(["ContractDeploy", "TonTransfer"])
    await run((c) => c.sendBoc(boc))
    const dup = await run((c) => Effect.flip(c.sendBoc(boc)))
    expect(dup.status).toBe(400)
    await dn.stepBlock()
    expect(await run((c) => c.getSeqno(W))).toBe(1)
    const ev = await run((c) => c.getEvents(to.toRawString(), { limit: 1 }))
    expect(ev.events[0]!.actions[0]!.TonTransfer!.comment).toBe("via Chain")
  })

  it("resolves demo DNS names both ways and reads jetton info", async () => {
    const rec = await run((c) => c.resolveDns("faucet.ton"))
    expect(rec.wallet?.address).toBe(dn.devnet.meta.faucet)
    expect(await run((c) => c.backresolve(dn.devnet.meta.faucet))).toContain("faucet.ton")
    const info = await run((c) => c.getJettonInfo(dn.jetton("usdt")))
    expect(info.metadata.decimals).toBe("6")
    expect(info.verification).toBe("whitelist")
    expect(info.total_supply).toBeGreaterThanOrEqual(7_000_000n)
  })
})
