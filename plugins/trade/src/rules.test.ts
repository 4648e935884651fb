import { describe, expect, it } from "vitest"
import {
  ALL_LIMIT,
  CATALOG_ENTRIES,
  compareDecimal,
  entryCoins,
  filterGainersLosers,
  GAINERS_LOSERS_MIN_CHANGE,
  inSearchTab,
  initialRanking,
  orderEntries,
  rankCoins,
  searchCoins,
  stockAccess,
  type RankedCoin,
} from "./rules.ts"

const coin = (symbol: string, change24h: number, extra: Partial<RankedCoin & { isNew: boolean }> = {}): RankedCoin & { isNew: boolean } => ({
  symbol,
  name: `${symbol} coin`,
  category: "coin",
  change24h,
  volume24h: "100",
  marketCap: "1000",
  isNew: false,
  ...extra,
})

describe("the gainers/losers rule (spec 1 §5: 0.02, in percent)", () => {
  it("drops the other sign and changes under 0.02 % when the first item moved at least 0.02 %", () => {
    const sorted = [coin("A", 5), coin("B", 0.02), coin("C", 0.019), coin("D", 0), coin("E", -0.5)]
    expect(filterGainersLosers(sorted).map((c) => c.symbol)).toEqual(["A", "B"])
    const losers = [coin("E", -3), coin("F", -0.02), coin("G", -0.0199), coin("H", 0.4)]
    expect(filterGainersLosers(losers).map((c) => c.symbol)).toEqual(["E", "F"])
  })

  it("keeps the list as it is when the first item is flat (under 0.02 % either way)", () => {
    const flat = [coin("A", 0.01), coin("B", 0), coin("C", -0.01)]
    expect(filterGainersLosers(flat)).toEqual(flat)
    expect(filterGainersLosers([])).toEqual([])
  })

  it("is 0.02 percentage points, not 2 %: a 1.5 % gainer stays", () => {
    expect(GAINERS_LOSERS_MIN_CHANGE).toBe(0.02)
    expect(filterGainersLosers([coin("A", 1.5), coin("B", 0.5)]).map((c) => c.symbol)).toEqual(["A", "B"])
  })
})

describe("rankings (spec 1 §3 sorting keys)", () => {
  const coins = [
    coin("TON", 1.2, { marketCap: "13000000000", volume24h: "800000000" }),
    coin("BTC", -0.8, { marketCap: "1900000000000", volume24h: "40000000000" }),
    coin("USDC", 0.005, { marketCap: "42000000000", volume24h: "6000000000" }),
    coin("NOT", 7.5, { category: "jetton", marketCap: "660000000", volume24h: "90000000" }),
    coin("TSLAx", -2.1, { category: "stock", marketCap: "1100000000000", volume24h: null }),
    coin("SPYx", 0.3, { category: "etf", marketCap: "550000000000", volume24h: "12000000" }),
  ]
  const symbols = (ranking: Parameters<typeof rankCoins>[1]) => rankCoins(coins, ranking).map((c) => c.symbol)

  it("gainers: largest rise first, only rises of at least 0.02 %", () => {
    expect(symbols("gainers")).toEqual(["NOT", "TON", "SPYx"])
  })
  it("losers: largest fall first, only falls", () => {
    expect(symbols("losers")).toEqual(["TSLAx", "BTC"])
  })
  it("volume24h: largest first, an unknown volume last (compared as decimals, not floats)", () => {
    expect(symbols("volume24h")).toEqual(["BTC", "USDC", "TON", "NOT", "SPYx", "TSLAx"])
  })
  it("tonAssets, stocks, etfs: their category by market cap; TON counts as a TON asset", () => {
    expect(symbols("tonAssets")).toEqual(["TON", "NOT"])
    expect(symbols("stocks")).toEqual(["TSLAx"])
    expect(symbols("etfs")).toEqual(["SPYx"])
  })
  it("all_limit: everything by market cap, at most ALL_LIMIT", () => {
    expect(symbols("all_limit")).toEqual(["BTC", "TSLAx", "SPYx", "USDC", "TON", "NOT"])
    const many = Array.from({ length: ALL_LIMIT + 20 }, (_, i) => coin(`C${i}`, 1, { marketCap: String(i) }))
    expect(rankCoins(many, "all_limit")).toHaveLength(ALL_LIMIT)
    expect(rankCoins(many, "all_limit")[0]!.symbol).toBe(`C${ALL_LIMIT + 19}`)
  })
  it("compares decimal strings by value", () => {
    expect(compareDecimal("9.5", "10")).toBeLessThan(0)
    expect(compareDecimal("10.05", "10.5")).toBeLessThan(0)
    expect(compareDecimal("123456789012345678901", "123456789012345678900.99")).toBeGreaterThan(0)
    expect(compareDecimal("1.50", "1.5")).toBe(0)
  })
})

describe("the default tab (spec 1 §2)", () => {
  it("opens gainers when the experiment says so, else all; a ranking in the link wins", () => {
    expect(initialRanking(undefined, true)).toBe("gainers")
    expect(initialRanking(undefined, false)).toBe("all_limit")
    expect(initialRanking("stocks", true)).toBe("stocks")
  })
})

describe("search", () => {
  const coins = [
    coin("TON", 1, { name: "Toncoin" }),
    coin("tsTON", 1, { name: "Tonstakers TON", category: "jetton" }),
    coin("TSLAx", 1, { name: "Tesla xStock", category: "stock" }),
  ]
  it("an exact symbol first, then symbol prefixes, then names; case-insensitive; empty finds nothing", () => {
    expect(searchCoins(coins, "ton").map((c) => c.symbol)).toEqual(["TON", "tsTON"])
    expect(searchCoins(coins, "ts").map((c) => c.symbol)).toEqual(["TSLAx", "tsTON"])
    expect(searchCoins(coins, "tesla").map((c) => c.symbol)).toEqual(["TSLAx"])
    expect(searchCoins(coins, "  ")).toEqual([])
    expect(searchCoins(coins, "zzz")).toEqual([])
  })
  it("narrows by tab", () => {
    expect(coins.filter((c) => inSearchTab(c, "crypto")).map((c) => c.symbol)).toEqual(["TON"])
    expect(coins.filter((c) => inSearchTab(c, "tonAssets")).map((c) => c.symbol)).toEqual(["TON", "tsTON"])
    expect(coins.filter((c) => inSearchTab(c, "stocks")).map((c) => c.symbol)).toEqual(["TSLAx"])
    expect(coins.filter((c) => inSearchTab(c, "all"))).toHaveLength(3)
  })
})

describe("the catalog (spec 1 §3)", () => {
  it("orders entries by `order`, then id", () => {
    expect(orderEntries(CATALOG_ENTRIES).map((e) => e.catalog_id)).toEqual(["stocks", "ton", "most-traded", "new"])
    expect(
      orderEntries([
        { order: 1, catalog_id: "b" },
        { order: 1, catalog_id: "a" },
        { order: 0, catalog_id: "z" },
      ]).map((e) => e.catalog_id),
    ).toEqual(["z", "a", "b"])
  })
  it("previews an entry with its first tab's ranking; the new-listings entry only new coins", () => {
    const coins = [coin("A", 1, { category: "stock", marketCap: "5" }), coin("B", 1, { category: "etf", marketCap: "9" }), coin("C", 1, { isNew: true })]
    const stocks = CATALOG_ENTRIES.find((e) => e.catalog_id === "stocks")!
    const fresh = CATALOG_ENTRIES.find((e) => e.catalog_id === "new")!
    expect(entryCoins(stocks, coins).map((c) => c.symbol)).toEqual(["A"])
    expect(entryCoins(fresh, coins).map((c) => c.symbol)).toEqual(["C"])
  })
})

describe("stock access (spec 1 §5)", () => {
  it("available below level 1 or with both flags; otherwise the country first, then the feature", () => {
    expect(stockAccess({ belowLevel1: true, accessToTradeStocksAndEtfs: false, accessToTradeStocksAndEtfsByCountry: false })).toBe("available")
    expect(stockAccess({ belowLevel1: false, accessToTradeStocksAndEtfs: true, accessToTradeStocksAndEtfsByCountry: true })).toBe("available")
    expect(stockAccess({ belowLevel1: false, accessToTradeStocksAndEtfs: true, accessToTradeStocksAndEtfsByCountry: false })).toBe("COUNTRY_CODE_RESTRICTION")
    expect(stockAccess({ belowLevel1: false, accessToTradeStocksAndEtfs: false, accessToTradeStocksAndEtfsByCountry: true })).toBe("FUNCTIONALITY_RESTRICTION")
  })
})
