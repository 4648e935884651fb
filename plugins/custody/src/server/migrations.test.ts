import { describe, expect, it } from "vitest"
import { serverPlugin } from "./index.ts"
import { custodyMigrations } from "./migrations.ts"

// Issue 14: custody had two migration lists (the chain half's and the rest), merged in id order at
// boot. Now there is one; a database migrated before must see exactly the migrations it recorded
// (module "custody", these ids and names, this order): nothing re-runs, nothing is skipped.
const before: ReadonlyArray<readonly [number, string]> = [
  [501, "chain_addresses_deposits_withdrawals"],
  [1001, "custody transfers, history rows, frozen balances, seen currencies, notification settings"],
  [1002, "history sync cursor per user (Ledger entries imported into the history)"],
  [1003, "history ordered by date"],
  [1004, "transfers by hold (orphan hold repair)"],
  [1005, "sender history rows imported before their transfer rows get the transfer link (docs/decisions/0801)"],
]

describe("custody migrations", () => {
  it("issue 14: one list that starts with the same ids and names in the same order as the two lists merged", () => {
    // Later migrations (1006 on) come after them.
    expect(custodyMigrations.slice(0, before.length).map((m) => [m.id, m.name])).toEqual(before)
    expect(custodyMigrations.slice(before.length).every((m) => m.id > 1005)).toBe(true)
  })

  it("is the list the server plugin runs, ids strictly increasing", () => {
    expect(serverPlugin.migrations).toBe(custodyMigrations)
    const ids = custodyMigrations.map((m) => m.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)
  })
})
