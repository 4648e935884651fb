import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { CURRENCIES } from "../../currencies.ts"
import { chartTimes, makeFeedRates, makeSandboxRates, PRICE_SCALE, type Quote } from "./Rates.ts"
import { SANDBOX_FIAT_CODES } from "./fiat.ts"

const T0 = Date.UTC(2026, 4, 6, 12, 0, 0)
const HOUR = 3_600_000
const codes = CURRENCIES.map((currency) => currency.code)

const quotesAt = (seed: number, at: number, fiat = "USD") =>
  Effect.runSync(makeSandboxRates({ seed, now: () => at }).quotes(codes, fiat)) as ReadonlyMap<string, Quote>

describe("sandbox rates", () => {
  it("are deterministic per seed and time, and differ between seeds", () => {
    const a = quotesAt(1, T0)
    const b = quotesAt(1, T0)
    const other = quotesAt(2, T0)
    expect([...a.entries()]).toEqual([...b.entries()])
    expect(a.get("TON")!.price).not.toBe(other.get("TON")!.price)
    expect(a.size).toBe(codes.length)
  })

  it("drift over time and give the 24h change against the price a day earlier", () => {
    const now = quotesAt(1, T0)
    const later = quotesAt(1, T0 + 6 * HOUR)
    const dayLater = quotesAt(1, T0 + 24 * HOUR)
    expect(later.get("TON")!.price).not.toBe(now.get("TON")!.price)
    expect(dayLater.get("TON")!.price24hAgo).toBe(now.get("TON")!.price)
    // A stable coin stays within half a percent of a dollar; volatile prices stay positive and plausible.
    for (let h = 0; h < 24 * 30; h += 7) {
      const q = quotesAt(3, T0 + h * HOUR)
      const usdt = q.get("USDT")!.price
      expect(usdt > (PRICE_SCALE * 995n) / 1000n && usdt < (PRICE_SCALE * 1005n) / 1000n).toBe(true)
      const tonPrice = q.get("TON")!.price
      expect(tonPrice > PRICE_SCALE && tonPrice < 20n * PRICE_SCALE).toBe(true)
    }
  })

  it("prices every fiat of the list, consistently with the dollar price", () => {
    expect(SANDBOX_FIAT_CODES.length).toBeGreaterThanOrEqual(180)
    const usd = quotesAt(1, T0, "USD").get("BTC")!.price
    for (const fiat of SANDBOX_FIAT_CODES) {
      const price = quotesAt(1, T0, fiat).get("BTC")!.price
      expect(price > 0n).toBe(true)
    }
    const eur = quotesAt(1, T0, "EUR").get("BTC")!.price
    // EUR is about 0.92 per USD (base) within the sandbox's few percent of drift.
    expect(Number((eur * 1000n) / usd) / 1000).toBeGreaterThan(0.85)
    expect(Number((eur * 1000n) / usd) / 1000).toBeLessThan(0.99)
    expect(() => Effect.runSync(makeSandboxRates({ seed: 1, now: () => T0 }).quotes(codes, "ZZZ"))).toThrow()
  })

  it("charts end at the current price with evenly spaced samples", () => {
    const rates = makeSandboxRates({ seed: 1, now: () => T0 + 1234 })
    const series = Effect.runSync(rates.chart("TON", "USD", "day"))
    expect(series).toHaveLength(97)
    expect(series.at(-1)!.price).toBe(Effect.runSync(rates.quotes(["TON"], "USD")).get("TON")!.price)
    expect(series[1]!.time.getTime() - series[0]!.time.getTime()).toBe(15 * 60_000)
    expect(chartTimes("all", T0).length).toBeGreaterThan(150)
  })
})

describe("feed rates", () => {
  it("reads a tonapi-compatible /v2/rates answer and caches it for a minute", async () => {
    let calls = 0
    let clock = T0
    const fetch = (async (url: string) => {
      calls++
      expect(url).toContain("/v2/rates?tokens=ton%2Cusdt-master&currencies=eur")
      return new Response(JSON.stringify({ rates: { ton: { prices: { EUR: 5 }, diff_24h: { EUR: "+25.00%" } }, "usdt-master": { prices: { EUR: 0.92 } } } }))
    }) as unknown as typeof globalThis.fetch
    const rates = makeFeedRates({ url: "https://feed.example/", tokens: { USDT: "usdt-master" }, now: () => clock, fetch })
    const quotes = await Effect.runPromise(rates.quotes(["TON", "USDT"], "EUR"))
    expect(quotes.get("TON")).toEqual({ price: 5n * PRICE_SCALE, price24hAgo: 4n * PRICE_SCALE })
    expect(quotes.get("USDT")!.price).toBe((92n * PRICE_SCALE) / 100n)
    await Effect.runPromise(rates.quotes(["TON"], "EUR"))
    expect(calls).toBe(1)
    clock += 61_000
    await Effect.runPromise(rates.quotes(["TON", "USDT"], "EUR"))
    expect(calls).toBe(2)
  })

  it("fails with RatesUnavailable when the feed is down", async () => {
    const fetch = (async () => new Response("down", { status: 503 })) as unknown as typeof globalThis.fetch
    const rates = makeFeedRates({ url: "https://feed.example", tokens: {}, now: () => T0, fetch })
    const exit = await Effect.runPromise(Effect.result(rates.quotes(["TON"], "USD")))
    expect(exit._tag).toBe("Failure")
  })
})
