import { describe, expect, it } from "vitest"
import type { Action } from "@wallet/kernel/chain"
import { viewAction } from "./events.tsx"

const me = "0:" + "ab".repeat(32)
const friend = "0:" + "cd".repeat(32)
const party = (address: string) => ({ address, is_scam: false, is_wallet: true })
const extra = (from: string, to: string): Action => ({
  type: "ExtraCurrencyTransfer",
  status: "ok",
  ExtraCurrencyTransfer: {
    sender: party(from),
    recipient: party(to),
    amount: 25_000n,
    comment: "gift",
    currency: { id: 100, symbol: "DXC", decimals: 4, image: "" },
  },
  simple_preview: { name: "Extra currency transfer", description: "", accounts: [] },
  base_transactions: [],
})

describe("history rows", () => {
  it("show an extra-currency transfer with its amount and symbol, in and out (was a bare 'Transaction' row)", () => {
    expect(viewAction(extra(friend, me), me)).toEqual({
      kind: "in",
      title: "received",
      amount: "2.5 DXC",
      counterparty: friend,
      comment: "gift",
      failed: false,
    })
    expect(viewAction(extra(me, friend), me)).toMatchObject({ kind: "out", title: "sent", amount: "2.5 DXC", counterparty: friend })
  })
})
