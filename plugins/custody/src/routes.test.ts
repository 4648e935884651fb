import { describe, expect, it } from "vitest"
import { decodeSearch, hrefOf, targetOf } from "@wallet/kernel"
import { chooseNetworkRoute, ReceiveSearch, sendRoute, TransactionsSearch, transferRoute } from "./routes.ts"

describe("wallet search params", () => {
  it("keeps valid receive params and drops wrong ones instead of failing", () => {
    expect(decodeSearch(ReceiveSearch, { assetCurrency: "TON", assetNetwork: "ton", source: "main", freeze: "true" })).toEqual({
      assetCurrency: "TON",
      assetNetwork: "ton",
      source: "main",
      freeze: "true",
    })
    expect(decodeSearch(ReceiveSearch, { assetCurrency: ["x"], assetNetwork: "moon", source: "nowhere", freeze: "yes" })).toEqual({})
  })

  it("reads a numeric transaction id as text and drops an unknown 'from'", () => {
    expect(decodeSearch(TransactionsSearch, { transactionId: 42, from: "somewhere" })).toEqual({ transactionId: "42" })
  })
})

describe("custody's route references (decision 0170)", () => {
  it("build the same URLs the screens used before, and refuse a wrong param or search value at type level", () => {
    expect(hrefOf(transferRoute, { params: { transferId: "42" } })).toBe("/transfers/42")
    expect(hrefOf(chooseNetworkRoute, { params: { type: "receive", assetCurrency: "USDT" } })).toBe("/choose-network/receive/USDT")
    expect(targetOf(sendRoute, { search: { assetCurrency: "TON", assetNetwork: "ton", value: undefined }, replace: true })).toEqual({
      to: "/assets/send",
      search: { assetCurrency: "TON", assetNetwork: "ton" },
      replace: true,
    })
    // @ts-expect-error the transfer screen's param is `transferId`, not `id`
    targetOf(transferRoute, { params: { id: "42" } })
    // @ts-expect-error the path has params: they are required
    targetOf(chooseNetworkRoute)
    // @ts-expect-error the send route's network is one of custody's networks
    targetOf(sendRoute, { search: { assetNetwork: "moon" } })
  })
})
