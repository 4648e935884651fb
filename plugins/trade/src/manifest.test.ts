import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, composePlugins, decodeSearch, defineRegion, resolveStartParam } from "@wallet/kernel"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import bn from "./i18n/bn.json"
import en from "./i18n/en.json"
import hi from "./i18n/hi.json"
import ru from "./i18n/ru.json"
import zhTW from "./i18n/zh-TW.json"
import { CoinPageSearch, TradeSearch, TradeSearchPageSearch, tradePlugin } from "./manifest.ts"

const region = (config?: Record<string, unknown>) =>
  defineRegion({ id: "test", plugins: { custody: { enabled: true }, trade: { enabled: true, ...(config ? { config } : {}) } } })
const compose = (config?: Record<string, unknown>) => composePlugins({ region: region(config), installed: [custodyPlugin, tradePlugin] })

describe("trade manifest", () => {
  it("composes /trade, its search, gallery and coin pages, and /stocks-bonus", () => {
    const composed = compose({ displayProductsSection: false })
    expect(composed.routes.filter((route) => route.pluginId === "trade").map((route) => route.fullPath)).toEqual([
      "/trade",
      "/stocks-bonus",
      "/trade/search",
      "/trade/ui-gallery",
      "/trade/coins/$symbol",
    ])
    expect(composed.pluginConfig.get("trade")).toEqual({ displayProductsSection: false })
  })

  it("adds the Trade tab after Wallet's place with its tooltip, and the trade_main start param", () => {
    const composed = compose()
    expect(composed.tabs.custodial.find((tab) => tab.pluginId === "trade")).toMatchObject({ to: "/trade", order: 20, tooltip: { textKey: "tabTooltip" } })
    expect(resolveStartParam(composed.deepLinks, "trade_main")).toMatchObject({ to: "/trade" })
    expect(resolveStartParam(composed.deepLinks, "trade_mainx")).toMatchObject({ kind: "not-found" })
  })

  it("refuses unknown config keys", () => {
    expect(() => compose({ colour: "red" })).toThrow("Invalid config for plugin 'trade'")
  })

  it("checks its search params leniently (spec 1 §2): an unknown ranking or tab becomes the default", () => {
    expect(decodeSearch(TradeSearch, { ranking: "gainers", searchAutoFocus: "true", searchQuery: "ton" })).toEqual({
      ranking: "gainers",
      searchAutoFocus: true,
      searchQuery: "ton",
    })
    expect(decodeSearch(TradeSearch, { ranking: "best" })).toEqual({})
    expect(decodeSearch(TradeSearchPageSearch, { activeTab: "bonds" })).toEqual({ activeTab: "all" })
    expect(decodeSearch(TradeSearchPageSearch, { activeTab: "stocks" })).toEqual({ activeTab: "stocks" })
    expect(decodeSearch(CoinPageSearch, { assetNoticeModal: "yes" })).toEqual({})
  })

  it("has every string in all five languages", () => {
    for (const bundle of [ru, hi, bn, zhTW]) expect(bundleKeyDifferences(en, bundle)).toEqual({ missing: [], extra: [] })
  })
})
