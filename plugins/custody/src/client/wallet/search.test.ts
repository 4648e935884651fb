import { describe, expect, it } from "vitest"
import { decodeSearch } from "@wallet/kernel"
import { ReceiveSearch, TransactionsSearch } from "./search.ts"

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
