import { describe, expect, it } from "vitest"
import { invalidateBalances, makeQueryClient, shouldPersistQuery, type Kernel } from "@wallet/kernel-react"
import type { AccountsData } from "../api.ts"
import { prefetchCustody } from "./prefetch.ts"
import { custodyKeys } from "./queryKeys.ts"

const accounts = { assets: [{ currency: "TON", balance: "1" }] } as unknown as AccountsData
const kernel = (custody: boolean) => ({ user: () => ({ id: 1, isCustodyAvailable: custody }) }) as unknown as Kernel

describe("start-time prefetch of custody's next screens (spec 1 §9)", () => {
  it("seeds the accounts from wallet main's data, with its age, as a persisted balances query", async () => {
    const client = makeQueryClient()
    const updatedAt = Date.now() - 10_000
    await prefetchCustody(kernel(true), client, { fiat: "EUR", accounts, updatedAt })
    const query = client.getQueryCache().find({ queryKey: custodyKeys.accounts("EUR") })!
    expect(query.state.data).toBe(accounts)
    expect(query.state.dataUpdatedAt).toBe(updatedAt)
    expect(shouldPersistQuery(query)).toBe(true)
    // Money moved: the seeded accounts are refreshed like every balances query.
    await invalidateBalances(client)
    expect(query.state.isInvalidated).toBe(true)
  })

  it("keeps accounts custody already holds, and does nothing for a user without custody", async () => {
    const client = makeQueryClient()
    const newer = { assets: [] } as unknown as AccountsData
    client.setQueryData(custodyKeys.accounts("EUR"), newer)
    await prefetchCustody(kernel(true), client, { fiat: "EUR", accounts, updatedAt: 0 })
    expect(client.getQueryData(custodyKeys.accounts("EUR"))).toBe(newer)
    const other = makeQueryClient()
    await prefetchCustody(kernel(false), other, { fiat: "EUR", accounts, updatedAt: 0 })
    expect(other.getQueryCache().getAll()).toHaveLength(0)
  })
})
