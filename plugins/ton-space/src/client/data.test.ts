import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { startDevnet, type RunningDevnet } from "@wallet/devnet"
import * as ton from "../ton/wallet.ts"
import { loadExtraCurrencies, loadExtraHistory } from "./data.ts"

let dn: RunningDevnet
beforeAll(async () => {
  dn = await startDevnet({ blockMs: 0 })
}, 60_000)
afterAll(async () => {
  await dn?.close()
})

describe("extra currencies from the chain API", () => {
  it("reads extra_balance into assets and the currency's transfers from the events", async () => {
    const me = ton.identityOf((await ton.keysOf(await ton.newMnemonic())).publicKey, "v5r1", "mainnet")
    expect(await Effect.runPromise(loadExtraCurrencies(dn.url, me.raw))).toEqual([])
    await dn.faucet({ address: me.raw, ton: 1_000_000_000n, extraCurrency: { id: 100, amount: 1_234_500n } })
    await dn.faucet({ address: me.raw, extraCurrency: { id: 239, amount: 5n } })
    await dn.stepBlock()

    const assets = await Effect.runPromise(loadExtraCurrencies(dn.url, me.raw))
    expect(assets.map((a) => [a.extraCurrencyId, a.currency, a.balance, a.decimals])).toEqual([
      [100, "DXC", 1_234_500n, 5],
      [239, "FMS", 5n, 9],
    ])

    const rows = await Effect.runPromise(loadExtraHistory(dn.url, me.raw, 100))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ incoming: true, amount: 1_234_500n, inProgress: false, failed: false })
    expect(rows[0]!.counterparty).toBe(dn.devnet.meta.faucet)
    expect(await Effect.runPromise(loadExtraHistory(dn.url, me.raw, 7))).toEqual([])
  }, 60_000)

  it("fails with the status on a bad request instead of showing nothing", async () => {
    const result = await Effect.runPromise(Effect.result(loadExtraCurrencies(dn.url, "not-an-address")))
    expect(result._tag).toBe("Failure")
  })
})
