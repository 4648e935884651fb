import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { COIN_CATALOG } from "./catalog.ts"
import { chunksOf, JETTON_METRICS_CHUNK, percentChange, type MarketSnapshot } from "./market.ts"
import { makeFeedRates, makeSandboxRates } from "./Rates.ts"

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0)
const HOUR = 3_600_000

const sandboxAt = (at: number, fiat = "USD", seed = 1) => Effect.runSync(makeSandboxRates({ seed, now: () => at }).catalog(fiat))

describe("the coin catalog (issue 22)", () => {
  it("has about fifty coins and TON assets plus stocks and ETFs, each with en and ru text, symbols unique", () => {
    const crypto = COIN_CATALOG.filter((c) => c.category === "coin" || c.category === "jetton")
    expect(crypto.length).toBeGreaterThanOrEqual(45)
    expect(COIN_CATALOG.filter((c) => c.category === "stock").length).toBeGreaterThanOrEqual(2)
    expect(COIN_CATALOG.filter((c) => c.category === "etf").length).toBeGreaterThanOrEqual(2)
    expect(new Set(COIN_CATALOG.map((c) => c.symbol)).size).toBe(COIN_CATALOG.length)
    for (const c of COIN_CATALOG) {
      expect(c.description.en.length, c.symbol).toBeGreaterThan(10)
      expect(c.description.ru, c.symbol).toMatch(/[а-яё]/i)
    }
    // Stock tokens are named with an x (spec 1 §3).
    for (const security of COIN_CATALOG.filter((c) => c.category === "stock" || c.category === "etf")) expect(security.symbol).toMatch(/x$/)
  })
})

describe("the sandbox market", () => {
  it("prices every catalog coin, deterministic for a time, labelled sandbox", () => {
    const a = sandboxAt(T0)
    expect(a.source).toBe("sandbox")
    expect(a.coins).toHaveLength(COIN_CATALOG.length)
    expect(sandboxAt(T0)).toEqual(a)
    for (const coin of a.coins) {
      expect(coin.price > 0n, coin.symbol).toBe(true)
      expect(coin.volume24h !== null && coin.volume24h > 0n, coin.symbol).toBe(true)
      expect(coin.marketCap !== null && coin.marketCap > 0n, coin.symbol).toBe(true)
    }
  })

  it("moves over time; the custodial coins match the quotes", () => {
    const a = sandboxAt(T0)
    const b = sandboxAt(T0 + 2 * HOUR)
    const price = (s: MarketSnapshot, symbol: string) => s.coins.find((c) => c.symbol === symbol)!.price
    expect(price(b, "BTC")).not.toBe(price(a, "BTC"))
    expect(price(b, "NVDAx")).not.toBe(price(a, "NVDAx"))
    const quotes = Effect.runSync(makeSandboxRates({ seed: 1, now: () => T0 }).quotes(["TON", "TSLAx"], "EUR"))
    const eur = sandboxAt(T0, "EUR")
    expect(price(eur, "TON")).toBe(quotes.get("TON")!.price)
    expect(price(eur, "TSLAx")).toBe(quotes.get("TSLAx")!.price)
  })

  it("keeps pegged coins (USDC, DAI, USDe) under 0.02 % a day at any time, so they are never gainers or losers", () => {
    for (let h = 0; h < 24 * 365; h += 13) {
      const s = sandboxAt(T0 + h * HOUR)
      for (const symbol of ["USDC", "DAI", "USDe"]) {
        const coin = s.coins.find((c) => c.symbol === symbol)!
        expect(Math.abs(percentChange(coin.price, coin.price24hAgo))).toBeLessThan(0.02)
      }
    }
  })

  it("gives ten trending coins and one coin's details; an unknown symbol or fiat has none", () => {
    const rates = makeSandboxRates({ seed: 1, now: () => T0 })
    expect(Effect.runSync(rates.trending("USD")).coins).toHaveLength(10)
    expect(Effect.runSync(rates.coin("NOT", "USD"))?.coin.category).toBe("jetton")
    expect(Effect.runSync(rates.coin("NOPE", "USD"))).toBeUndefined()
    expect(Effect.runSync(Effect.result(rates.catalog("XYZ")))._tag).toBe("Failure")
  })
})

describe("the feed market", () => {
  it("splits jetton metrics into chunks of 500 (spec 1 §9)", () => {
    expect(JETTON_METRICS_CHUNK).toBe(500)
    expect(
      chunksOf(
        Array.from({ length: 1203 }, (_, i) => i),
        500,
      ).map((c) => c.length),
    ).toEqual([500, 500, 203])
    expect(chunksOf([], 500)).toEqual([])
  })

  it("takes prices from /v2/rates and jetton volumes from the metrics service, labelled feed", async () => {
    const calls: Array<{ url: string; body?: unknown }> = []
    const fetch = (async (input: string | URL, init?: RequestInit) => {
      const url = String(input)
      calls.push({ url, ...(init?.body ? { body: JSON.parse(String(init.body)) } : {}) })
      if (url.startsWith("https://metrics.test")) {
        return new Response(JSON.stringify({ items: [{ address: "EQ-not", volume24h: 1_000_000, marketCap: 650_000_000 }] }))
      }
      const tokens = new URL(url).searchParams.get("tokens")!.split(",")
      const rates = Object.fromEntries(
        tokens.filter((t) => t === "ton" || t === "EQ-not").map((t) => [t, { prices: { USD: t === "ton" ? 5 : 0.01 }, diff_24h: { USD: "+2.00%" } }]),
      )
      return new Response(JSON.stringify({ rates }))
    }) as typeof globalThis.fetch
    const rates = makeFeedRates({ url: "https://feed.test", tokens: { NOT: "EQ-not" }, jettonMetricsUrl: "https://metrics.test/jettons", now: () => T0, fetch })
    const snapshot = await Effect.runPromise(rates.catalog("USD"))
    expect(snapshot.source).toBe("feed")
    // Only what the feed prices; the rest is left out, not shown at zero.
    expect(snapshot.coins.map((c) => c.symbol)).toEqual(["TON", "NOT"])
    const not = snapshot.coins.find((c) => c.symbol === "NOT")!
    expect(not.volume24h).toBe(1_000_000n * 10n ** 12n)
    expect(snapshot.coins.find((c) => c.symbol === "TON")!.volume24h).toBeNull()
    expect(percentChange(not.price, not.price24hAgo)).toBeCloseTo(2, 2)
    const metrics = calls.filter((c) => c.url.startsWith("https://metrics.test"))
    expect(metrics).toHaveLength(1)
    expect(metrics[0]!.body).toMatchObject({ addresses: ["EQ-not"], currency: "usd" })
    // The rates calls ask at most 100 tokens each.
    for (const feedCall of calls.filter((c) => c.url.startsWith("https://feed.test")))
      expect(new URL(feedCall.url).searchParams.get("tokens")!.split(",").length).toBeLessThanOrEqual(100)
    // Cached for a minute.
    await Effect.runPromise(rates.catalog("USD"))
    expect(calls.filter((c) => c.url.startsWith("https://metrics.test"))).toHaveLength(1)
  })

  it("a feed that fails is RatesUnavailable", async () => {
    const fetch = (async () => new Response("down", { status: 502 })) as typeof globalThis.fetch
    const result = await Effect.runPromise(Effect.result(makeFeedRates({ url: "https://feed.test", tokens: {}, now: () => T0, fetch }).trending("USD")))
    expect(result._tag).toBe("Failure")
  })
})
