import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, tma, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin as custodyPlugin } from "@wallet/plugin-custody/server"
import { GAINERS_LOSERS_MIN_CHANGE } from "../rules.ts"
import { serverPlugin } from "./index.ts"

const BOT_TOKEN = "1234567:trade-test"
const HOUR = 3_600_000

describe("trade server on PGlite (issue 22)", () => {
  let database: TestDatabase
  let server: RunningServer
  // A fixed clock the tests move: the sandbox's prices are a function of the seed and the time.
  let clock = Date.parse("2026-11-20T12:00:00.000Z")
  let auth = ""

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({
      port: 0,
      database: database.options,
      botToken: BOT_TOKEN,
      now: () => clock,
      plugins: [custodyPlugin, serverPlugin],
      pluginConfig: { custody: { rates: { seed: 7 } } },
    })
    await signIn()
  })

  /** Signs the test's user in at the clock's time (moving the clock expires the access token). */
  const signIn = async () => {
    const initData = signInitData(
      { user: { id: 8_220_000_001, first_name: "Tia", language_code: "en" }, authDate: new Date(clock), queryId: `q-trade-${clock}`, chatType: "sender" },
      BOT_TOKEN,
    )
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    expect(reply.status).toBe(200)
    auth = bearer(reply.body.access_token as string)
  }

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const get = (path: string) => call(server.url, "GET", path, { authorization: auth })
  type Row = { symbol: string; category: string; change24h: number; price: string; volume24h: string | null; marketCap: string | null; custodial: boolean }
  const items = async (path: string): Promise<Array<Row>> => {
    const reply = await get(path)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body.items as Array<Row>
  }

  it("lists about fifty coins plus the stocks and ETFs, every price labelled sandbox", async () => {
    const reply = await get("/api/trade/coins?fiat=USD&ranking=all_limit")
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ source: "sandbox", fiat: "USD", ranking: "all_limit", updatedAt: new Date(clock).toISOString() })
    const rows = reply.body.items as Array<Row>
    expect(rows.filter((r) => r.category === "coin" || r.category === "jetton").length).toBeGreaterThanOrEqual(45)
    expect(rows.filter((r) => r.category === "stock").map((r) => r.symbol)).toContain("TSLAx")
    expect(rows.filter((r) => r.category === "etf").map((r) => r.symbol)).toContain("SPYx")
    // all_limit: by market cap, largest first.
    const caps = rows.map((r) => Number(r.marketCap))
    expect(caps).toEqual([...caps].sort((a, b) => b - a))
    expect(rows[0]!.symbol).toBe("BTC")
    for (const row of rows) expect(Number(row.price)).toBeGreaterThan(0)
  })

  it("gainers and losers follow the 0.02 % rule; pegged coins are flat and only in the other lists", async () => {
    const gainers = await items("/api/trade/coins?fiat=USD&ranking=gainers")
    const losers = await items("/api/trade/coins?fiat=USD&ranking=losers")
    const all = await items("/api/trade/coins?fiat=USD&ranking=all_limit")
    expect(gainers.length).toBeGreaterThan(0)
    expect(losers.length).toBeGreaterThan(0)
    for (const row of gainers) expect(row.change24h).toBeGreaterThanOrEqual(GAINERS_LOSERS_MIN_CHANGE)
    for (const row of losers) expect(row.change24h).toBeLessThanOrEqual(-GAINERS_LOSERS_MIN_CHANGE)
    expect(gainers.map((r) => r.change24h)).toEqual(gainers.map((r) => r.change24h).sort((a, b) => b - a))
    expect(losers.map((r) => r.change24h)).toEqual(losers.map((r) => r.change24h).sort((a, b) => a - b))
    const usdc = all.find((r) => r.symbol === "USDC")!
    expect(Math.abs(usdc.change24h)).toBeLessThan(GAINERS_LOSERS_MIN_CHANGE)
    expect([...gainers, ...losers].map((r) => r.symbol)).not.toContain("USDC")
    // Every coin that moved at least 0.02 % is in exactly one of the two lists.
    const moved = all.filter((r) => Math.abs(r.change24h) >= GAINERS_LOSERS_MIN_CHANGE).map((r) => r.symbol)
    expect([...gainers, ...losers].map((r) => r.symbol).sort()).toEqual(moved.sort())
  })

  it("sorts by volume and narrows to TON assets, stocks and ETFs", async () => {
    const volume = await items("/api/trade/coins?fiat=USD&ranking=volume24h")
    expect(volume.map((r) => Number(r.volume24h))).toEqual(volume.map((r) => Number(r.volume24h)).sort((a, b) => b - a))
    const ton = await items("/api/trade/coins?fiat=USD&ranking=tonAssets")
    expect(ton.map((r) => r.symbol)).toEqual(expect.arrayContaining(["TON", "NOT", "DOGS", "STON"]))
    expect(ton.every((r) => r.category === "jetton" || r.symbol === "TON")).toBe(true)
    expect((await items("/api/trade/coins?fiat=USD&ranking=stocks")).every((r) => r.category === "stock")).toBe(true)
    expect((await items("/api/trade/coins?fiat=USD&ranking=etfs")).every((r) => r.category === "etf")).toBe(true)
  })

  it("prices each list in the asked fiat", async () => {
    const usd = (await items("/api/trade/coins?fiat=USD&search=BTC"))[0]!
    const eur = (await items("/api/trade/coins?fiat=EUR&search=BTC"))[0]!
    const rub = (await items("/api/trade/coins?fiat=RUB&search=BTC"))[0]!
    expect(Number(eur.price)).toBeLessThan(Number(usd.price))
    expect(Number(rub.price) / Number(usd.price)).toBeGreaterThan(50)
    // A custodial coin has the same price as custody's own rates.
    const rates = await get("/api/custody/rates?tokens=BTC&currencies=USD")
    expect(Number(rates.body.rates.BTC.prices.USD)).toBeCloseTo(Number(usd.price), 6)
  })

  it("finds coins by symbol or name", async () => {
    expect((await items("/api/trade/coins?fiat=USD&search=tesla")).map((r) => r.symbol)).toEqual(["TSLAx"])
    expect((await items("/api/trade/coins?fiat=USD&search=ton"))[0]!.symbol).toBe("TON")
    expect(await items("/api/trade/coins?fiat=USD&search=nothing-like-this")).toEqual([])
  })

  it("answers coin details in the user's language, with source sandbox", async () => {
    const ru = await get("/api/trade/coins/TON/USD?lang=ru")
    expect(ru.status).toBe(200)
    expect(ru.body).toMatchObject({ source: "sandbox", fiat: "USD", descriptionLanguage: "ru", coin: { symbol: "TON", custodial: true, category: "coin" } })
    expect(ru.body.description).toMatch(/Telegram/)
    expect(ru.body.description).toMatch(/[а-я]/)
    const hi = await get("/api/trade/coins/TSLAx/EUR?lang=hi")
    expect(hi.body).toMatchObject({ descriptionLanguage: "en", coin: { symbol: "TSLAx", category: "stock" } })
    expect((await get("/api/trade/coins/DOGE/USD")).body.coin.custodial).toBe(false)
  })

  it("an unknown coin is a 404 with the API's error shape", async () => {
    const reply = await get("/api/trade/coins/NOPE/USD")
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({ _tag: "TradeNotFound", code: "coin_not_found" })
  })

  it("bad parameters are 400s, never 500s; no session is a 401", async () => {
    for (const path of [
      "/api/trade/coins?fiat=usd",
      "/api/trade/coins?fiat=USD&ranking=best",
      "/api/trade/coins",
      "/api/trade/coins/TON/dollars",
      "/api/trade/coins/T%21N/USD",
      "/api/trade/catalog/EURO",
      "/api/trade/trending/12",
    ]) {
      const reply = await get(path)
      expect(reply.status, path).toBe(400)
      expect(reply.body, path).toMatchObject({ _tag: expect.any(String), message: expect.any(String) })
    }
    const unknownFiat = await get("/api/trade/coins?fiat=XYZ")
    expect(unknownFiat.status).toBe(400)
    expect(unknownFiat.body).toMatchObject({ _tag: "TradeBadRequest", code: "unsupported_fiat" })
    expect((await get("/api/trade/catalog/XYZ")).status).toBe(400)
    expect((await call(server.url, "GET", "/api/trade/coins?fiat=USD")).status).toBe(401)
  })

  it("prices move with the clock and stay the same for the same time", async () => {
    const at = async () => (await items("/api/trade/coins?fiat=USD&search=BTC"))[0]!.price
    const first = await at()
    expect(await at()).toBe(first)
    clock += 6 * HOUR
    await signIn()
    const later = await at()
    expect(later).not.toBe(first)
    const details = await get("/api/trade/coins/BTC/USD")
    expect(details.body).toMatchObject({ source: "sandbox", updatedAt: new Date(clock).toISOString(), coin: { price: later } })
  })

  it("answers the trending list and the catalog per fiat", async () => {
    const trending = await get("/api/trade/trending/EUR")
    expect(trending.status).toBe(200)
    expect(trending.body).toMatchObject({ source: "sandbox", fiat: "EUR" })
    expect(trending.body.items).toHaveLength(10)
    const catalog = await get("/api/trade/catalog/EUR")
    expect(catalog.status).toBe(200)
    expect(catalog.body).toMatchObject({ source: "sandbox", fiat: "EUR", display_products_section: true })
    const entries = catalog.body.entries as Array<{ catalog_id: string; order: number; display_mode: string; items: Array<Row & { isNew: boolean }> }>
    expect(entries.map((e) => e.catalog_id)).toEqual(["stocks", "ton", "most-traded", "new"])
    expect(entries.map((e) => e.display_mode)).toEqual(["tile", "tile", "list", "list"])
    expect(entries.find((e) => e.catalog_id === "new")!.items.every((c) => c.isNew)).toBe(true)
    expect(entries.find((e) => e.catalog_id === "stocks")!.items.every((c) => c.category === "stock")).toBe(true)
  })
})
