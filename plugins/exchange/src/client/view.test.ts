import { describe, expect, it } from "vitest"
import {
  apiAmount,
  errorKey,
  marketClosedFor,
  parseUnits,
  pickPair,
  searchCurrencies,
  secondsLeft,
  shortRate,
  successTarget,
  swapped,
  type ExchangeCurrency,
} from "./view.ts"

const currency = (code: string, marketHours = false): ExchangeCurrency => ({
  code,
  name: `${code} coin`,
  decimals: 6,
  category: marketHours ? "stock" : "onchain",
  marketHours,
})
const list = [currency("TON"), currency("USDT"), currency("BTC"), currency("TSLAx", true)]

describe("exchange view", () => {
  it("picks the asked pair, else USDT to TON, never one currency on both sides; sell pays with the asked stock", () => {
    expect(pickPair(list, {})).toEqual({ pay: "USDT", receive: "TON" })
    expect(pickPair(list, { pay: "BTC" })).toEqual({ pay: "BTC", receive: "TON" })
    expect(pickPair(list, { pay: "TON" })).toEqual({ pay: "TON", receive: "USDT" })
    expect(pickPair(list, { pay: "TON", receive: "TON" })).toEqual({ pay: "TON", receive: "USDT" })
    expect(pickPair(list, { receive: "TSLAx", tradingMode: "buy" })).toEqual({ pay: "USDT", receive: "TSLAx" })
    expect(pickPair(list, { receive: "TSLAx", tradingMode: "sell" })).toEqual({ pay: "TSLAx", receive: "TON" })
    expect(pickPair(list, { pay: "DOGE", receive: "USDT" })).toEqual({ pay: "TON", receive: "USDT" })
  })

  it("parses typed amounts exactly and refuses more decimals than the currency has", () => {
    expect(parseUnits("1.5", 6)).toBe(1_500_000n)
    expect(parseUnits("1,5", 6)).toBe(1_500_000n)
    expect(parseUnits("0.0000001", 6)).toBeNull()
    expect(parseUnits("", 6)).toBeNull()
    expect(parseUnits("10.", 6)).toBe(10_000_000n)
    expect(apiAmount("10,")).toBe("10")
    expect(apiAmount("1,25")).toBe("1.25")
  })

  it("swaps sides: currencies trade places and the typed value keeps its currency", () => {
    expect(swapped({ pay: "USDT", receive: "TON", mode: "pay", text: "10" })).toEqual({ pay: "TON", receive: "USDT", mode: "receive", text: "10" })
  })

  it("counts down by the server's clock, whatever the device's clock says", () => {
    const quote = { serverTime: "2030-01-07T15:00:00.000Z", expiresAt: "2030-01-07T15:00:15.000Z" }
    // The device is an hour off: only the time passed here counts.
    const arrived = Date.UTC(2030, 0, 7, 16, 0, 0)
    expect(secondsLeft(quote, arrived, arrived)).toBe(15)
    expect(secondsLeft(quote, arrived, arrived + 5_500)).toBe(10)
    expect(secondsLeft(quote, arrived, arrived + 20_000)).toBe(0)
  })

  it("maps refusal codes to messages, the region code to the popup's text", () => {
    expect(errorKey("insufficient_balance")).toBe("error.insufficient_balance")
    expect(errorKey("region_restricted")).toBe("error_region_restricted")
    expect(errorKey("something_new")).toBe("error.generic")
    expect(errorKey(undefined)).toBe("error.generic")
  })

  it("searches by code or name, and knows when a stock pair meets a closed market", () => {
    expect(searchCurrencies(list, "ts").map((c) => c.code)).toEqual(["TSLAx"])
    expect(searchCurrencies(list, "coin", "TON").map((c) => c.code)).toEqual(["USDT", "BTC", "TSLAx"])
    expect(marketClosedFor({ currencies: list, marketOpen: false }, "USDT", "TSLAx")).toBe(true)
    expect(marketClosedFor({ currencies: list, marketOpen: false }, "USDT", "TON")).toBe(false)
    expect(marketClosedFor({ currencies: list, marketOpen: true }, "USDT", "TSLAx")).toBe(false)
  })

  it("goes to successRedirect only when it is a plain in-app path", () => {
    expect(successTarget("/main", "TON")).toEqual({ path: "/main" })
    expect(successTarget("https://evil.example", "TON")).toEqual({ asset: "TON" })
    expect(successTarget("//evil.example/x", "TON")).toEqual({ asset: "TON" })
    expect(successTarget(undefined, "TON")).toEqual({ asset: "TON" })
  })

  it("shortens a rate to about six significant digits for reading", () => {
    expect(shortRate("0.161681977695")).toBe("0.161681")
    expect(shortRate("0.000012345678")).toBe("0.0000123456")
    expect(shortRate("6.184912")).toBe("6.18491")
    expect(shortRate("1234567.5")).toBe("1234567")
    expect(shortRate("5")).toBe("5")
  })
})
