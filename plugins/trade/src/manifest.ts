import { Check, definePlugin } from "@wallet/kernel"
import * as R from "./routes.ts"

export * from "./routes.ts"

/**
 * The trade catalog (spec 1 §2 /trade, /stocks-bonus, §3 coin catalog, §5 gainers/losers; issue 22):
 * the ranking tabs, search, the catalog entries and the products section, coin pages, the stocks
 * bonus page and the Trade tab. The server module is `@wallet/plugin-trade/server`, the contract `./api`.
 */
export const tradePlugin = definePlugin({
  id: "trade",
  version: "0.1.0",
  kernel: "^0.1.0",
  dependsOn: ["custody"],
  routes: [
    { id: "index", parent: "wallet", path: "/trade", search: R.TradeSearch, component: () => import("./client/TradeScreen.tsx") },
    { id: "search", parent: "trade/index", path: "/search", search: R.TradeSearchPageSearch, component: () => import("./client/SearchScreen.tsx") },
    { id: "ui-gallery", parent: "trade/index", path: "/ui-gallery", component: () => import("./client/GalleryScreen.tsx") },
    { id: "coin", parent: "trade/index", path: "/coins/$symbol", search: R.CoinPageSearch, component: () => import("./client/CoinScreen.tsx") },
    { id: "stocks-bonus", parent: "wallet", path: "/stocks-bonus", component: () => import("./client/StocksBonusScreen.tsx") },
  ],
  // Spec 1 §2: Trade after Wallet; its tooltip gives way to Earn's (a higher priority) when both exist.
  tabs: [{ id: "trade", bar: "custodial", to: "/trade", labelKey: "tab", icon: "currency", order: 20, tooltip: { textKey: "tabTooltip", priority: 10 } }],
  deepLinks: [{ prefix: "trade_main", exact: true, to: "/trade" }],
  analytics: {
    events: [
      { name: "trade.ranking_opened", description: "A ranking tab of /trade was chosen (`ranking`)" },
      { name: "trade.coin_opened", description: "A coin page was opened (`symbol`, `from`: list, search, catalog)" },
      { name: "trade.trade_pressed", description: "Buy or Sell on a coin page (`symbol`, `side`, `outcome`: exchange, never_available, trades_unavailable)" },
    ],
  },
  // displayProductsSection: the catalog's products section (spec 1 §3 display_products_section), on unless false.
  config: Check.struct({ displayProductsSection: Check.optional(Check.boolean) }, { exact: true }),
  i18n: {
    namespace: "trade",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})

export default tradePlugin
