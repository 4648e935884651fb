import { Check, definePlugin } from "@wallet/kernel"
import * as R from "./routes.ts"

export * from "./routes.ts"

/**
 * The exchange (spec 1 §2 "/exchange", issue 22, decision 1100): quotes priced from custody's Rates
 * with a spread and a fee, confirmed once as one Ledger conversion with the house. The server module
 * is `@wallet/plugin-exchange/server`, the contract `./api`.
 */
export const exchangePlugin = definePlugin({
  id: "exchange",
  version: "0.1.0",
  kernel: "^0.1.0",
  dependsOn: ["custody"],
  routes: [
    { id: "index", parent: "wallet", path: "/exchange", search: R.ExchangeSearch, component: () => import("./client/ExchangeScreen.tsx") },
    { id: "search", parent: "wallet", path: "/exchange/search", search: R.ExchangeSearchSearch, component: () => import("./client/SearchScreen.tsx") },
    {
      id: "confirmation",
      parent: "wallet",
      path: "/exchange/confirmation",
      search: R.ConfirmationSearch,
      component: () => import("./client/ConfirmationScreen.tsx"),
    },
  ],
  // Spec 1 §2 start params: `exchange` opens the exchange.
  deepLinks: [{ prefix: "exchange", exact: true, to: "/exchange" }],
  analytics: {
    events: [
      { name: "exchange.confirmed", description: "A quote was executed (`pay`, `receive`, `mode`: pay or receive)" },
      { name: "exchange.refused", description: "A confirm was refused (`code`: quote_expired, trading_closed, region_restricted, …)" },
    ],
  },
  // The region config the server reads too (`pluginConfig.exchange`, domain.ts `readConfig`).
  config: Check.struct(
    {
      spreadBps: Check.optional(Check.int),
      feeBps: Check.optional(Check.int),
      quoteTtlMs: Check.optional(Check.int),
      minUsdCents: Check.optional(Check.int),
      maxUsdCents: Check.optional(Check.int),
      currencies: Check.optional(Check.array(Check.string)),
      restrictedCountries: Check.optional(Check.array(Check.string)),
    },
    { exact: true },
  ),
  i18n: {
    namespace: "exchange",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})

export default exchangePlugin
