import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Check } from "@wallet/kernel"
import { AccessFlagName, AccountsData, CUSTODY_API_PREFIX, FrozenBalances } from "@wallet/plugin-custody/api"
import { AccountsDataCheck, CUSTODY_PREFIX, FrozenBalancesCheck } from "./accountsCheck.ts"

const action = { isEnabled: true, isPopular: false, scheduledAt: null }
const asset = {
  currency: "USDT",
  name: "Tether",
  decimals: 6,
  category: "onchain",
  balance: "12.5",
  rate: "1",
  absoluteChange: "-0.001",
  percentChange: -0.1,
  usdBalance: "12.50",
  fiatBalance: "12.50",
  fiatCurrency: "USD",
  isCreated: true,
  isAlwaysOnMain: true,
  isPinnedWithoutBalance: false,
  isNewCurrency: false,
  networks: ["ton", "tron"],
  addresses: [{ address: "EQ...", networkCode: "ton", walletToReplace: null }],
  actions: { send: action, receive: action, exchange: action, buy: action, sell: { ...action, scheduledAt: "2026-01-01T00:00:00.000Z" } },
  marketCap: null,
  description: "A stablecoin",
}
const flags = Object.fromEntries(AccessFlagName.literals.map((flag) => [flag, true]))
const accounts = {
  assets: [asset],
  availableBalanceTotalFiatAmount: "12.50",
  availableBalanceTotalUsdAmount: "12.50",
  availableBalanceTotalFiatCurrency: "USD",
  promoFee: null,
  accessFlags: flags,
  isCustodyAvailable: true,
  restrictionCode: null,
}
const frozen = { items: [{ reason: "FR_1", currency: "TON", amount: "1", fiat_amount: "5.20", fiatCurrency: "USD" }] }

const bySchema = <A>(schema: Schema.Codec<A, any, never, never>, input: unknown) => {
  try {
    return { ok: true as const, value: Schema.decodeUnknownSync(schema)(input) }
  } catch {
    return { ok: false as const }
  }
}
const byCheck = <A>(check: Check.Check<A>, input: unknown) => {
  const result = check.run(input)
  return result.ok ? { ok: true as const, value: result.value } : { ok: false as const }
}

describe("wallet main's Check mirror of the custody accounts contract (decision 0007)", () => {
  it("accepts what the contract accepts, with the same value", () => {
    for (const input of [
      accounts,
      { ...accounts, assets: [] },
      { ...accounts, promoFee: "0.5", restrictionCode: "unsupported_region" },
      { ...accounts, addedLater: 1 },
    ]) {
      expect(byCheck(AccountsDataCheck, input)).toEqual(bySchema(AccountsData, input))
      expect(byCheck(AccountsDataCheck, input).ok).toBe(true)
    }
    expect(byCheck(FrozenBalancesCheck, frozen)).toEqual(bySchema(FrozenBalances, frozen))
  })

  it("refuses what the contract refuses", () => {
    const broken: ReadonlyArray<unknown> = [
      { ...accounts, availableBalanceTotalFiatAmount: "-1" },
      { ...accounts, availableBalanceTotalFiatCurrency: "usd" },
      { ...accounts, assets: [{ ...asset, balance: "1e5" }] },
      { ...accounts, assets: [{ ...asset, category: "magic" }] },
      { ...accounts, assets: [{ ...asset, networks: ["dogecoin"] }] },
      { ...accounts, assets: [{ ...asset, decimals: 1.5 }] },
      { ...accounts, accessFlags: { ...flags, accessToP2p: "yes" } },
      { ...accounts, isCustodyAvailable: undefined },
      null,
    ]
    for (const input of broken) {
      expect(bySchema(AccountsData, input).ok).toBe(false)
      expect(byCheck(AccountsDataCheck, input).ok).toBe(false)
    }
    const badFrozen = { items: [{ ...frozen.items[0], reason: "FR_9" }] }
    expect(bySchema(FrozenBalances, badFrozen).ok).toBe(false)
    expect(byCheck(FrozenBalancesCheck, badFrozen).ok).toBe(false)
  })

  it("calls the contract's path", () => {
    expect(CUSTODY_PREFIX).toBe(CUSTODY_API_PREFIX)
  })
})
