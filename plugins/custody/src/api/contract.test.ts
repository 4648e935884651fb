import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { CustodyApi, CustodyChainGroup } from "../api.ts"
import { serverPlugin } from "../server/index.ts"

// Issue 14: custody had two contracts (`./api` and `./chain-api`, each with its own HttpApi object).
// Now one object and one entry: every group the server serves is a group of `CustodyApi`.
const groupNames = (groups: Iterable<{ readonly identifier: string }>) => [...groups].map((group) => group.identifier).sort()

describe("custody's one contract", () => {
  it("issue 14: CustodyApi holds every group, the on-chain one included, and the server serves exactly those", () => {
    const contract = groupNames(Object.values(CustodyApi.groups))
    expect(contract).toEqual(["custodyAccounts", "custodyChain", "custodyNotifications", "custodyRates", "custodyTransactions", "custodyTransfers"])
    expect(groupNames(serverPlugin.groups as ReadonlyArray<{ readonly identifier: string }>)).toEqual(contract)
    expect(CustodyApi.groups[CustodyChainGroup.identifier]).toBe(CustodyChainGroup)
  })

  it("is published as one `./api` entry (no `./chain-api`)", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as { exports: Record<string, unknown> }
    expect(Object.keys(pkg.exports).filter((subpath) => subpath.includes("api"))).toEqual(["./api"])
  })
})
