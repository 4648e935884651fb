import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { loadMessageRelaxed } from "@ton/core"
import { startDevnet, type RunningDevnet } from "@wallet/devnet"
import { makeChainClient } from "@wallet/kernel/chain"
import * as ton from "../ton/wallet.ts"
import { buildMessages, emulateSend, extraCurrencyMessage, signAndSend, type Receiver, type WalletRef } from "./transfer.ts"

let dn: RunningDevnet
beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

const receiverOf = (address: string, bounceable = false): Receiver => {
  const parsed = ton.parseAddress(address)!
  return { input: address, raw: parsed.raw, isFriendly: true, isBounceable: bounceable }
}

describe("extra-currency message", () => {
  it("carries the currency in the message's currency dictionary and no TON", () => {
    const to = ton.Address.parseRaw(`0:${"ab".repeat(32)}`)
    const message = extraCurrencyMessage({ to, id: 100, amount: 2_500n, bounce: false })
    expect(message).toEqual({ to, value: 0n, bounce: false, extraCurrency: { 100: 2_500n } })
    expect(() => extraCurrencyMessage({ to, id: 0, amount: 1n, bounce: false })).toThrow()
    expect(() => extraCurrencyMessage({ to, id: 2 ** 32, amount: 1n, bounce: false })).toThrow()
    expect(() => extraCurrencyMessage({ to, id: 100, amount: 0n, bounce: false })).toThrow()
  })

  it("a signed W5R1 transfer serialises the dictionary into the internal message", async () => {
    const keys = await ton.keysOf(await ton.newMnemonic())
    const to = ton.Address.parseRaw(`0:${"cd".repeat(32)}`)
    const signed = ton.signTransfer({
      keys,
      walletClass: "v5r1",
      network: "mainnet",
      seqno: 0,
      deployed: true,
      messages: [extraCurrencyMessage({ to, id: 239, amount: 77n, bounce: false })],
    })
    // external -> W5 body -> out list -> the one internal message: find its currency collection
    const external = ton.Cell.fromBase64(signed.boc)
    const refs: Array<ton.Cell> = [external]
    let found: bigint | undefined
    while (refs.length > 0 && found === undefined) {
      const cell = refs.pop()!
      try {
        const relaxed = loadMessageRelaxed(cell.beginParse())
        if (relaxed.info.type === "internal") found = relaxed.info.value.other?.get(239)
      } catch {
        // not a message cell
      }
      refs.push(...cell.refs)
    }
    expect(found).toBe(77n)
  })
})

describe("extra-currency send on the devnet", () => {
  it("builds, emulates (one ExtraCurrencyTransfer), signs and lands: the receiver holds the currency", async () => {
    const chain = makeChainClient({ baseUrl: dn.url })
    const words = await ton.newMnemonic()
    const keys = await ton.keysOf(words)
    const me = ton.identityOf(keys.publicKey, "v5r1", "mainnet")
    const friend = ton.identityOf((await ton.keysOf(await ton.newMnemonic())).publicKey, "v5r1", "mainnet")
    await dn.faucet({ address: me.raw, ton: 2_000_000_000n, extraCurrency: { id: 100, amount: 50_000n } })
    await dn.stepBlock()
    const wallet: WalletRef = { raw: me.raw, walletClass: "v5r1", network: "mainnet", publicKey: keys.publicKey }
    const request = { kind: "extra" as const, amount: 12_345n, extraCurrencyId: 100, receiver: receiverOf(friend.address) }

    const [message] = await buildMessages(ton, chain, wallet, request)
    expect(message).toMatchObject({ value: 0n, bounce: false, extraCurrency: { 100: 12_345n } })

    const emulation = await emulateSend(ton, chain, wallet, request)
    expect(emulation.ok).toBe(true)
    if (emulation.ok) {
      expect(emulation.fee).toBeGreaterThan(0n)
      expect(emulation.consequences.event.actions.map((a) => a.type)).toContain("ExtraCurrencyTransfer")
    }

    await signAndSend(ton, chain, wallet, request, words)
    await dn.stepBlock()
    const friendAccount = (await (await fetch(`${dn.url}/v2/accounts/${friend.raw}`)).json()) as {
      extra_balance?: Array<{ amount: string; preview: { id: number } }>
    }
    expect(friendAccount.extra_balance).toEqual([expect.objectContaining({ amount: "12345", preview: expect.objectContaining({ id: 100 }) })])
    const mine = (await (await fetch(`${dn.url}/v2/accounts/${me.raw}`)).json()) as { extra_balance?: Array<{ amount: string }> }
    expect(mine.extra_balance?.[0]?.amount).toBe("37655")
    expect(await Effect.runPromise(chain.getSeqno(me.raw))).toBe(1)
  }, 60_000)
})
