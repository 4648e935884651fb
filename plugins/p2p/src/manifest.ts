import { Check, definePlugin, type I18nBundle } from "@wallet/kernel"
import * as R from "./routes.ts"

export * from "./routes.ts"

/** The screens keep their strings in two files of one namespace (the market side, the maker side). */
const bundle = (parts: ReadonlyArray<Promise<{ readonly default: I18nBundle }>>) =>
  Promise.all(parts).then((loaded) => ({ default: Object.assign({}, ...loaded.map((part) => part.default)) as I18nBundle }))

/**
 * The P2P market (spec 3 §1, §2.1, §4.1; issue 20; decision 1000): offers, orders with the seller's
 * crypto held in the Ledger, payment methods, the P2P tab and the active-order strip. The server module
 * is `@wallet/plugin-p2p/server`, the contract `./api`.
 */
export const p2pPlugin = definePlugin({
  id: "p2p",
  version: "0.1.0",
  kernel: "^0.1.0",
  dependsOn: ["custody"],
  routes: [
    { id: "home", parent: "wallet", path: "/p2p", search: R.P2pHomeSearch, component: () => import("./client/HomeScreen.tsx") },
    {
      id: "unavailable",
      parent: "wallet",
      path: "/p2p/unavailable",
      search: R.P2pUnavailableSearch,
      component: () => import("./client/UnavailableScreen.tsx"),
    },
    // Issue 21: the trusted-merchant application and the order-history export.
    {
      id: "trustedMerchant",
      parent: "wallet",
      path: "/p2p/trusted-merchant-application",
      component: () => import("./client/TrustedMerchantScreen.tsx"),
    },
    { id: "exportHistory", parent: "wallet", path: "/p2p/export-order-history", component: () => import("./client/ExportScreen.tsx") },
    { id: "offerList", parent: "wallet", path: "/p2p/offers/list/$type", search: R.OfferListSearch, component: () => import("./client/OfferListScreen.tsx") },
    { id: "createOffer", parent: "wallet", path: "/p2p/offers/create", search: R.CreateOfferSearch, component: () => import("./client/OfferFormScreen.tsx") },
    {
      id: "offerUnavailable",
      parent: "wallet",
      path: "/p2p/offers/unavailable",
      search: R.OfferUnavailableSearch,
      component: () => import("./client/OfferUnavailableScreen.tsx"),
    },
    { id: "offer", parent: "wallet", path: "/p2p/offers/$id", search: R.OfferSearch, component: () => import("./client/OfferScreen.tsx") },
    { id: "editOffer", parent: "wallet", path: "/p2p/offers/$id/edit", search: R.EditOfferSearch, component: () => import("./client/OfferFormScreen.tsx") },
    { id: "offerPreview", parent: "wallet", path: "/p2p/offers/$id/preview", component: () => import("./client/OfferPreviewScreen.tsx") },
    {
      id: "offerSuccess",
      parent: "wallet",
      path: "/p2p/offers/$id/success",
      search: R.OfferSuccessSearch,
      component: () => import("./client/OfferSuccessScreen.tsx"),
    },
    {
      id: "offerLanding",
      parent: "wallet",
      path: "/p2p/offers/$id/start-param-landing",
      search: R.OfferLandingSearch,
      component: () => import("./client/OfferLandingScreen.tsx"),
    },
    { id: "selectPayment", parent: "wallet", path: "/p2p/offers/$id/select-payment", component: () => import("./client/SelectPaymentScreen.tsx") },
    { id: "order", parent: "wallet", path: "/p2p/orders/$id", search: R.OrderSearch, component: () => import("./client/OrderScreen.tsx") },
    { id: "orderDetails", parent: "wallet", path: "/p2p/orders/$id/details", component: () => import("./client/OrderDetailsScreen.tsx") },
    { id: "orderSuccess", parent: "wallet", path: "/p2p/orders/$id/success", component: () => import("./client/OrderSuccessScreen.tsx") },
    {
      id: "confirmSent",
      parent: "wallet",
      path: "/p2p/orders/$id/confirm-sent-payment",
      search: R.ConfirmSentSearch,
      component: () => import("./client/ConfirmSentScreen.tsx"),
    },
    {
      id: "confirmReceived",
      parent: "wallet",
      path: "/p2p/orders/$id/confirm-received-payment",
      search: R.ConfirmReceivedSearch,
      component: () => import("./client/ConfirmReceivedScreen.tsx"),
    },
    { id: "orderHelp", parent: "wallet", path: "/p2p/orders/$id/help", search: R.OrderHelpSearch, component: () => import("./client/HelpScreen.tsx") },
    {
      id: "orderHelpIssue",
      parent: "wallet",
      path: "/p2p/orders/$id/help/$issueType",
      search: R.OrderHelpSearch,
      component: () => import("./client/HelpScreen.tsx"),
    },
    { id: "orderChat", parent: "wallet", path: "/p2p/orders/$id/chat", component: () => import("./client/ChatScreen.tsx") },
    { id: "user", parent: "wallet", path: "/p2p/user", component: () => import("./client/UserScreen.tsx") },
    { id: "payments", parent: "wallet", path: "/p2p/user/payments", search: R.PaymentsSearch, component: () => import("./client/PaymentsScreen.tsx") },
    {
      id: "newPayment",
      parent: "wallet",
      path: "/p2p/user/payments/new",
      search: R.NewPaymentSearch,
      component: () => import("./client/NewPaymentScreen.tsx"),
    },
    {
      id: "newPaymentFiat",
      parent: "wallet",
      path: "/p2p/user/payments/new/select-fiat-currency",
      search: R.NewPaymentSearch,
      component: () => import("./client/SelectFiatScreen.tsx"),
    },
    {
      id: "createPayment",
      parent: "wallet",
      path: "/p2p/user/payments/create",
      search: R.NewPaymentSearch,
      component: () => import("./client/PaymentFormScreen.tsx"),
    },
    { id: "editPayment", parent: "wallet", path: "/p2p/user/payments/$id/edit", component: () => import("./client/PaymentFormScreen.tsx") },
    { id: "notifications", parent: "wallet", path: "/p2p/user/$id/notifications", component: () => import("./client/NotificationsScreen.tsx") },
    // Issue 21: express mode (spec 3 §2.1); the operation (buy or sell) is optional.
    {
      id: "expressOnboarding",
      parent: "wallet",
      path: "/p2p/express/onboarding",
      search: R.ExpressOnboardingSearch,
      component: () => import("./client/ExpressOnboardingScreen.tsx"),
    },
    { id: "express", parent: "wallet", path: "/p2p/express", search: R.ExpressSearch, component: () => import("./client/ExpressScreen.tsx") },
    {
      id: "expressOperation",
      parent: "wallet",
      path: "/p2p/express/$operation",
      search: R.ExpressSearch,
      component: () => import("./client/ExpressScreen.tsx"),
    },
  ],
  // Spec 3 §2.1: the tab shows only when P2P is available (the permission; the screen checks the rest of §4.1).
  tabs: [{ id: "p2p", bar: "custodial", to: "/p2p", labelKey: "tab", icon: "exchange", order: 30, permissions: ["canUseP2p"] }],
  // Spec 1 §2 start params.
  deepLinks: [
    {
      prefix: "offerid",
      pattern: "(?<id>\\d+)_(?<userId>\\d+)",
      to: "/p2p/offers/$id/start-param-landing",
      params: { id: "{id}" },
      search: { offerUserId: "{userId}" },
    },
    { prefix: "orderid", pattern: "(?<id>\\d+)", to: "/p2p/orders/$id", params: { id: "{id}" } },
    { prefix: "marketads", pattern: "(?<type>SALE|PURCHASE)", to: "/p2p/offers/list/$type", params: { type: "{type}" } },
    { prefix: "marketads", exact: true, to: "/p2p/offers/list/$type", params: { type: "SALE" } },
    { prefix: "market", exact: true, to: "/p2p" },
    { prefix: "profile", exact: true, to: "/p2p/user" },
    { prefix: "p2pPaymentSettings", exact: true, to: "/p2p/user/payments" },
    {
      prefix: "p2pConfirmReceivedPayment",
      pattern: "(?<id>\\d+)",
      to: "/p2p/orders/$id/confirm-received-payment",
      params: { id: "{id}" },
      search: { source: "notification" },
    },
    { prefix: "p2pCreateOffer", exact: true, to: "/p2p/offers/create" },
    // Issue 21: express mode, optionally on a pair (`express_USDT_RUB`) and a side (`express_sell_USDT_RUB`).
    { prefix: "express", exact: true, to: "/p2p/express" },
    {
      prefix: "express",
      pattern: "(?<crypto>USDT|TON|BTC|NOT)_(?<fiat>[A-Z]{3})",
      to: "/p2p/express",
      search: { crypto: "{crypto}", fiatCurrency: "{fiat}" },
    },
    {
      prefix: "express",
      pattern: "(?<operation>buy|sell)_(?<crypto>USDT|TON|BTC|NOT)_(?<fiat>[A-Z]{3})",
      to: "/p2p/express/$operation",
      params: { operation: "{operation}" },
      search: { crypto: "{crypto}", fiatCurrency: "{fiat}" },
    },
    { prefix: "p2pOrderHelp", pattern: "(?<id>\\d+)", to: "/p2p/orders/$id/help", params: { id: "{id}" } },
    { prefix: "p2pTrustedMerchantApplication", exact: true, to: "/p2p/trusted-merchant-application" },
  ],
  permissions: ["canUseP2p"],
  // Spec 1 §2: the active-order strip above the tab bar.
  tabStrip: { source: () => import("./client/stripSource.tsx"), permissions: ["canUseP2p"] },
  analytics: {
    events: [
      { name: "p2p.restricted_market_opened", description: "A restricted user opened the market or an ad list (`why`: generic, platform, region)" },
      { name: "p2p.offer_published", description: "An offer was published (`type`, `crypto`, `fiat`, `priceType`)" },
      { name: "p2p.order_created", description: "An offer was taken (`offerType`, `crypto`, `fiat`, `autoAccept`)" },
      { name: "p2p.order_moved", description: "An order was moved by its participant (`move`: accept, reject, paid, received, cancel)" },
      { name: "p2p.appeal_opened", description: "A side of a paid order asked support (`issue`, `side`)" },
      { name: "p2p.order_creation_back", description: "The back button on the order-creation skeleton was pressed" },
      { name: "p2p.express_order_created", description: "An express request placed an order (`side`, `crypto`, `fiat`, `calculationType`)" },
    ],
  },
  // Screens read the links; the server reads the rest (fees in bps, the open-orders cap, the restricted countries, the sweep's beat).
  config: Check.struct(
    {
      title: Check.optional(Check.string),
      learnMoreUrl: Check.optional(Check.string),
      purchaseOptionsUrl: Check.optional(Check.string),
      makerFeeBps: Check.optional(Check.int),
      takerFeeBps: Check.optional(Check.int),
      maxOpenOrdersPerOffer: Check.optional(Check.int),
      restrictedCountries: Check.optional(Check.array(Check.string)),
      floatingToleranceBps: Check.optional(Check.int),
      sweepMs: Check.optional(Check.int),
      // Issue 21: the trusted-merchant thresholds (merchantRules.ts has the defaults).
      trustedMerchant: Check.optional(
        Check.struct(
          {
            minLevel: Check.optional(Check.int),
            minCompletedOrders30d: Check.optional(Check.int),
            minCompletionRatePercent: Check.optional(Check.int),
            minAccountAgeDays: Check.optional(Check.int),
            reapplyCooldownDays: Check.optional(Check.int),
          },
          { exact: true },
        ),
      ),
    },
    { exact: true },
  ),
  i18n: {
    namespace: "p2p",
    bundles: {
      en: () =>
        bundle([
          import("./i18n/market.en.json"),
          import("./i18n/maker.en.json"),
          import("./i18n/chat.en.json"),
          import("./i18n/reputation.en.json"),
          import("./i18n/merchant.en.json"),
          import("./i18n/express.en.json"),
        ]),
      ru: () =>
        bundle([
          import("./i18n/market.ru.json"),
          import("./i18n/maker.ru.json"),
          import("./i18n/chat.ru.json"),
          import("./i18n/reputation.ru.json"),
          import("./i18n/merchant.ru.json"),
          import("./i18n/express.ru.json"),
        ]),
      hi: () =>
        bundle([
          import("./i18n/market.hi.json"),
          import("./i18n/maker.hi.json"),
          import("./i18n/chat.hi.json"),
          import("./i18n/reputation.hi.json"),
          import("./i18n/merchant.hi.json"),
          import("./i18n/express.hi.json"),
        ]),
      bn: () =>
        bundle([
          import("./i18n/market.bn.json"),
          import("./i18n/maker.bn.json"),
          import("./i18n/chat.bn.json"),
          import("./i18n/reputation.bn.json"),
          import("./i18n/merchant.bn.json"),
          import("./i18n/express.bn.json"),
        ]),
      "zh-TW": () =>
        bundle([
          import("./i18n/market.zh-TW.json"),
          import("./i18n/maker.zh-TW.json"),
          import("./i18n/chat.zh-TW.json"),
          import("./i18n/reputation.zh-TW.json"),
          import("./i18n/merchant.zh-TW.json"),
          import("./i18n/express.zh-TW.json"),
        ]),
    },
  },
})

export default p2pPlugin
