import { describe, expect, it } from "vitest"
import type { JettonBalance } from "@wallet/kernel/chain"
import type { AccountEvent } from "@wallet/kernel/chain"
import {
  buildAssetList,
  buildExtraCurrencyAssets,
  eventsOfAsset,
  extraCurrencySymbol,
  isListedToken,
  jettonFlags,
  MIN_VERIFIED_TON_VALUE,
  tonValueOf,
  type ExtraCurrencyEntry,
} from "./assets.ts"
import { formatDisplay } from "./amount.ts"

const jetton = (over: {
  address: string
  symbol: string
  name?: string
  verification: "whitelist" | "graylist" | "blacklist" | "none"
  balance: bigint
  decimals?: number
  priceTon?: number
  isScam?: boolean
}): JettonBalance => ({
  balance: over.balance,
  wallet_address: { address: `0:${"1".repeat(63)}${over.symbol.length}`, is_scam: over.isScam ?? false, is_wallet: false },
  jetton: {
    address: over.address,
    name: over.name ?? over.symbol,
    symbol: over.symbol,
    decimals: over.decimals ?? 9,
    image: "",
    verification: over.verification,
  },
  ...(over.priceTon !== undefined ? { price: { prices: { TON: over.priceTon } } } : {}),
})

describe("jetton flags (spec 2 §5)", () => {
  it("scam when flagged and not whitelisted, or blacklisted", () => {
    expect(jettonFlags({ verification: "none", flaggedScam: true, whitelisted: false, riskChecked: false }).isScam).toBe(true)
    expect(jettonFlags({ verification: "none", flaggedScam: true, whitelisted: true, riskChecked: false }).isScam).toBe(false)
    expect(jettonFlags({ verification: "blacklist", flaggedScam: false, whitelisted: true, riskChecked: true }).isScam).toBe(true)
    expect(jettonFlags({ verification: "graylist", flaggedScam: false, whitelisted: false, riskChecked: false }).isScam).toBe(false)
  })
  it("verified when verified or whitelisted", () => {
    expect(jettonFlags({ verification: "whitelist", flaggedScam: false, whitelisted: false, riskChecked: false }).verified).toBe(true)
    expect(jettonFlags({ verification: "none", flaggedScam: false, whitelisted: true, riskChecked: false }).verified).toBe(true)
    expect(jettonFlags({ verification: "graylist", flaggedScam: false, whitelisted: false, riskChecked: false }).verified).toBe(false)
  })
  it("risky when scam, or unverified and not risk-checked", () => {
    expect(jettonFlags({ verification: "none", flaggedScam: false, whitelisted: false, riskChecked: false }).risky).toBe(true)
    expect(jettonFlags({ verification: "none", flaggedScam: false, whitelisted: false, riskChecked: true }).risky).toBe(false)
    expect(jettonFlags({ verification: "blacklist", flaggedScam: false, whitelisted: false, riskChecked: true }).risky).toBe(true)
    expect(jettonFlags({ verification: "whitelist", flaggedScam: false, whitelisted: false, riskChecked: false }).risky).toBe(false)
  })
})

describe("asset list", () => {
  const usdt = jetton({ address: "0:aa", symbol: "USD₮", name: "Tether USD", verification: "whitelist", balance: 25_000_000n, decimals: 6, priceTon: 0.31 })
  const scam = jetton({ address: "0:bb", symbol: "USDT", name: "Tether USD", verification: "blacklist", balance: 999_000_000n, decimals: 6, priceTon: 0.31 })
  const dust = jetton({ address: "0:cc", symbol: "DVC", verification: "whitelist", balance: 30_000_000n, priceTon: 0.3 })
  const rich = jetton({ address: "0:dd", symbol: "DVC2", verification: "whitelist", balance: 10n * 1_000_000_000n, priceTon: 0.08 })
  const unverified = jetton({ address: "0:ee", symbol: "MEME", verification: "none", balance: 5n * 1_000_000_000n, priceTon: 2 })

  it("renames USDT to the product's symbol and treats it as whitelisted", () => {
    const list = buildAssetList({ network: "mainnet", tonBalance: 1n, jettons: [usdt] })
    expect(list[1]).toMatchObject({ currency: "USDT", name: "Dollars", verified: true, isScam: false, major: true })
  })
  it("shows a scam asset with balance 0 and keeps the raw balance", () => {
    const asset = buildAssetList({ network: "mainnet", tonBalance: 1n, jettons: [scam] }).find((a) => a.address === "0:bb")!
    expect(asset).toMatchObject({ isScam: true, balance: 0n, rawBalance: 999_000_000n, currency: "USDT", name: "Tether USD", major: false })
    expect(asset.tonValue).toBeUndefined()
  })
  it("counts a verified jetton only from 0.01 TON of value", () => {
    const list = buildAssetList({ network: "testnet", tonBalance: 1n, jettons: [dust, rich] })
    expect(tonValueOf(30_000_000n, 9, 0.3)).toBe(9_000_000n)
    expect(9_000_000n < MIN_VERIFIED_TON_VALUE).toBe(true)
    expect(list.find((a) => a.address === "0:cc")!.major).toBe(false)
    expect(list.find((a) => a.address === "0:dd")!.major).toBe(true)
    // Major first: TON, then the counted jetton, then the dust.
    expect(list.map((a) => a.address)).toEqual(["TON", "0:dd", "0:cc"])
  })
  it("hides an unverified asset's TON value on mainnet only", () => {
    expect(buildAssetList({ network: "mainnet", tonBalance: 0n, jettons: [unverified] })[1]!.tonValue).toBeUndefined()
    expect(buildAssetList({ network: "testnet", tonBalance: 0n, jettons: [unverified] })[1]!.tonValue).toBe(10n * 1_000_000_000n)
  })
  it("a risk-checked unverified asset is no longer risky", () => {
    expect(buildAssetList({ network: "mainnet", tonBalance: 0n, jettons: [unverified] })[1]!.risky).toBe(true)
    expect(buildAssetList({ network: "mainnet", tonBalance: 0n, jettons: [unverified], riskChecked: new Set(["0:ee"]) })[1]!.risky).toBe(false)
  })
  it("rejects listed tokens for payments", () => {
    expect(isListedToken("WLFI")).toBe(true)
    expect(isListedToken("TSLAx")).toBe(true)
    expect(isListedToken("USDT")).toBe(false)
  })
})

describe("extra currencies (spec 2 extra-currency asset)", () => {
  const ec = (id: number, amount: string, symbol = "DXC", decimals = 5): ExtraCurrencyEntry => ({ amount, preview: { id, symbol, decimals, image: "" } })

  it("keeps positive balances as assets with their id, symbol and decimals", () => {
    const [asset, ...rest] = buildExtraCurrencyAssets([ec(100, "123456789")])
    expect(rest).toHaveLength(0)
    expect(asset).toMatchObject({
      kind: "extra",
      extraCurrencyId: 100,
      address: "ec:100",
      currency: "DXC",
      name: "DXC",
      balance: 123_456_789n,
      rawBalance: 123_456_789n,
      decimals: 5,
    })
    expect(formatDisplay(asset!.balance, asset!.decimals)).toBe("1 234.56")
  })

  it("drops zero balances, invalid ids and amounts that are not whole numbers", () => {
    const assets = buildExtraCurrencyAssets([ec(1, "0"), ec(0, "5"), ec(-3, "5"), ec(2.5, "5"), ec(7, "1.5"), ec(8, "-1"), ec(9, "1e3"), ec(10, "42")])
    expect(assets.map((a) => a.extraCurrencyId)).toEqual([10])
  })

  it("bounds decimals (fallback 9) and gives a symbol to a currency without one", () => {
    const [a, b] = buildExtraCurrencyAssets([ec(5, "1", "AAA", 40), ec(6, "1", "  ", 2)])
    expect(a).toMatchObject({ currency: "AAA", decimals: 9 })
    expect(b).toMatchObject({ currency: "EC6", decimals: 2 })
    expect(extraCurrencySymbol(3, "A_VERY_LONG_SYMBOL_NAME")).toBe("A_VERY_LONG_SYMB")
  })

  it("orders by symbol, keeps one entry per id (the last one)", () => {
    const assets = buildExtraCurrencyAssets([ec(2, "5", "ZED"), ec(1, "5", "ABC"), ec(2, "9", "ZED")])
    expect(assets.map((a) => [a.currency, a.balance])).toEqual([
      ["ABC", 5n],
      ["ZED", 9n],
    ])
  })
})

describe("eventsOfAsset", () => {
  const addr = (address: string) => ({ address, is_scam: false, is_wallet: true })
  const preview = { name: "", description: "", accounts: [] }
  const usdt = { address: "0:usdt", name: "Tether", symbol: "USD₮", decimals: 6, image: "", verification: "whitelist" as const }
  const dvc = { ...usdt, address: "0:dvc", symbol: "DVC" }
  const event = (id: string, actions: AccountEvent["actions"]): AccountEvent => ({
    event_id: id,
    account: addr("0:me"),
    timestamp: 1,
    actions,
    is_scam: false,
    lt: 1,
    in_progress: false,
    extra: 0n,
  })
  const ton = {
    type: "TonTransfer",
    status: "ok" as const,
    TonTransfer: { sender: addr("0:f"), recipient: addr("0:me"), amount: 5n },
    simple_preview: preview,
    base_transactions: [],
  }
  const mint = (master: typeof usdt) => ({
    type: "JettonMint",
    status: "ok" as const,
    JettonMint: { recipient: addr("0:me"), recipients_wallet: "0:w", amount: 25n, jetton: master },
    simple_preview: preview,
    base_transactions: [],
  })

  it("keeps the events that moved the asset, cut down to its actions", () => {
    const events = [event("faucet", [ton, mint(usdt)]), event("dvc", [mint(dvc)]), event("plain", [ton])]
    const forUsdt = eventsOfAsset(events, "0:USDT")
    expect(forUsdt.map((e) => e.event_id)).toEqual(["faucet"])
    expect(forUsdt[0]!.actions.map((a) => a.type)).toEqual(["JettonMint"])
    const forTon = eventsOfAsset(events, "TON")
    expect(forTon.map((e) => e.event_id)).toEqual(["faucet", "plain"])
    expect(forTon[0]!.actions.map((a) => a.type)).toEqual(["TonTransfer"])
  })
})
