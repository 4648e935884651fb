import { describe, expect, it } from "vitest"
import {
  exchangeRefusal,
  nextOpening,
  pairOffered,
  priceQuote,
  rateOf,
  readConfig,
  stocksRefusal,
  tradingOpen,
  usdCentsOf,
  type AccessFacts,
} from "./domain.ts"

const P = 10n ** 12n
/** 1 USDT = $1, 1 TON = $5 (exact), USDT 6 decimals, TON 9. */
const usdt = { decimals: 6, price: 1n * P }
const ton = { decimals: 9, price: 5n * P }

describe("priceQuote", () => {
  it("pay mode: the fee comes out of what the user pays, receive is the net at the rate less the spread, rounded down", () => {
    const q = priceQuote({ mode: "pay", amount: 10_000_000n, pay: usdt, receive: ton, spreadBps: 50, feeBps: 10 })!
    // net = floor(10 USDT / 1.001) = 9.990009 USDT; fee = 10 - net = 0.009991 (>= ceil(net x 0.1 %) = 0.009991)
    expect(q).toEqual({ payTotal: 10_000_000n, net: 9_990_009n, fee: 9_991n, receive: 1_988_011_791n })
    // receive = 9.990009 USDT / 5 x 0.995 = 1.988011791 TON (exact here)
    expect(q.receive).toBe((9_990_009n * 1000n * 995n) / (5n * 1000n))
  })

  it("receive mode: the user gets exactly the amount, paying the net rounded up and its fee rounded up", () => {
    const q = priceQuote({ mode: "receive", amount: 1_000_000_000n, pay: usdt, receive: ton, spreadBps: 50, feeBps: 10 })!
    // 1 TON at $5 less 0.5 %: net = ceil(5 / 0.995 USDT) = 5.025126 USDT, fee = ceil(0.005025126) = 0.005026
    expect(q).toEqual({ payTotal: 5_030_152n, net: 5_025_126n, fee: 5_026n, receive: 1_000_000_000n })
    // The net buys at least 1 TON; one unit less would not.
    const gets = (net: bigint) => (net * 10n ** 9n * 9_950n) / (5n * 10n ** 6n * 10_000n)
    expect(gets(q.net)).toBeGreaterThanOrEqual(1_000_000_000n)
    expect(gets(q.net - 1n)).toBeLessThan(1_000_000_000n)
  })

  it("no fee, no spread: a plain conversion; nothing for an amount that buys nothing or a missing price", () => {
    expect(priceQuote({ mode: "pay", amount: 5_000_000n, pay: usdt, receive: ton, spreadBps: 0, feeBps: 0 })).toEqual({
      payTotal: 5_000_000n,
      net: 5_000_000n,
      fee: 0n,
      receive: 1_000_000_000n,
    })
    expect(priceQuote({ mode: "pay", amount: 1n, pay: { decimals: 9, price: 1n }, receive: usdt, spreadBps: 50, feeBps: 0 })).toBeUndefined()
    expect(priceQuote({ mode: "pay", amount: 10n, pay: usdt, receive: { decimals: 9, price: 0n }, spreadBps: 50, feeBps: 0 })).toBeUndefined()
  })

  it("the rate and the USD value", () => {
    expect(rateOf(usdt, ton, 50)).toBe("0.199")
    expect(rateOf(ton, usdt, 0)).toBe("5")
    expect(usdCentsOf(10_000_000n, usdt)).toBe(1_000n)
    expect(usdCentsOf(1_000_000_000n, ton)).toBe(500n)
  })
})

describe("trading hours (the US market: 9:30-16:00 New York time, custody's rule)", () => {
  it("open Monday to Friday in New York's hours, which move in UTC with daylight saving; closed at weekends", () => {
    // January (EST, UTC-5): 14:30-21:00 UTC.
    expect(tradingOpen(Date.UTC(2030, 0, 7, 14, 30))).toBe(true) // Monday
    expect(tradingOpen(Date.UTC(2030, 0, 7, 14, 29))).toBe(false)
    expect(tradingOpen(Date.UTC(2030, 0, 11, 20, 59))).toBe(true) // Friday
    expect(tradingOpen(Date.UTC(2030, 0, 11, 21, 0))).toBe(false)
    // July (EDT, UTC-4): 13:30-20:00 UTC.
    expect(tradingOpen(Date.UTC(2030, 6, 8, 13, 30))).toBe(true) // Monday
    expect(tradingOpen(Date.UTC(2030, 6, 8, 20, 0))).toBe(false)
    expect(tradingOpen(Date.UTC(2030, 0, 5, 15, 0))).toBe(false) // Saturday
    expect(tradingOpen(Date.UTC(2030, 0, 6, 15, 0))).toBe(false) // Sunday
  })

  it("the next opening: later today, the next weekday, Monday after a weekend, across the change of clocks", () => {
    expect(nextOpening(Date.UTC(2030, 0, 7, 9, 0)).toISOString()).toBe("2030-01-07T14:30:00.000Z")
    expect(nextOpening(Date.UTC(2030, 0, 7, 21, 0)).toISOString()).toBe("2030-01-08T14:30:00.000Z")
    expect(nextOpening(Date.UTC(2030, 0, 11, 21, 0)).toISOString()).toBe("2030-01-14T14:30:00.000Z")
    expect(nextOpening(Date.UTC(2030, 0, 5, 15, 0)).toISOString()).toBe("2030-01-07T14:30:00.000Z")
    expect(nextOpening(Date.UTC(2030, 0, 7, 15, 0)).toISOString()).toBe("2030-01-07T15:00:00.000Z")
    expect(nextOpening(Date.UTC(2030, 6, 8, 3, 0)).toISOString()).toBe("2030-07-08T13:30:00.000Z")
    // US clocks go forward on Sunday 10 March 2030: Friday's close is 21:00 UTC, Monday opens at 13:30 UTC.
    expect(nextOpening(Date.UTC(2030, 2, 8, 21, 0)).toISOString()).toBe("2030-03-11T13:30:00.000Z")
    // Late evening in New York is already the next day in UTC: the opening is still that New York morning.
    expect(nextOpening(Date.UTC(2030, 0, 8, 2, 0)).toISOString()).toBe("2030-01-08T14:30:00.000Z")
  })
})

describe("access rules (spec 3 §4.2)", () => {
  const facts = (overrides: Partial<AccessFacts> = {}): AccessFacts => ({
    accessToExchanges: true,
    accessToExchangesByCountry: true,
    level: "LEVEL_1",
    platform: "android",
    ...overrides,
  })
  it("iOS and macOS at level 1 without accessToExchangesByCountry are region_restricted; others not", () => {
    expect(exchangeRefusal(facts({ platform: "ios", accessToExchangesByCountry: false }))).toBe("region_restricted")
    expect(exchangeRefusal(facts({ platform: "macos", accessToExchangesByCountry: false }))).toBe("region_restricted")
    expect(exchangeRefusal(facts({ platform: "android", accessToExchangesByCountry: false }))).toBeNull()
    expect(exchangeRefusal(facts({ platform: "ios", level: "LEVEL_2", accessToExchangesByCountry: false }))).toBeNull()
    expect(exchangeRefusal(facts({ accessToExchanges: false }))).toBe("exchange_unavailable")
    expect(exchangeRefusal(facts({ level: "BLOCKED" }))).toBe("exchange_unavailable")
  })
  it("stocks below level 1, or with both flags", () => {
    expect(stocksRefusal(facts({ level: "LEVEL_0", accessToExchangesByCountry: false }))).toBeNull()
    expect(stocksRefusal(facts({ level: "LEVEL_2" }))).toBeNull()
    expect(stocksRefusal(facts({ level: "LEVEL_2", accessToExchangesByCountry: false }))).toBe("stocks_unavailable")
  })
})

describe("config and pairs", () => {
  it("defaults, bounds and unknown currencies dropped", () => {
    const config = readConfig({ spreadBps: 30, feeBps: -1, quoteTtlMs: 5, currencies: ["USDT", "TON", "NOPE"], minUsdCents: 500, maxUsdCents: 100 })
    expect(config).toMatchObject({ spreadBps: 30, feeBps: 10, quoteTtlMs: 15_000, currencies: ["USDT", "TON"], minUsdCents: 500, maxUsdCents: 500 })
    expect(pairOffered(config, "USDT", "TON")).toBe(true)
    expect(pairOffered(config, "USDT", "USDT")).toBe(false)
    expect(pairOffered(config, "USDT", "BTC")).toBe(false)
    expect(readConfig(undefined).currencies).toContain("TSLAx")
  })
})
