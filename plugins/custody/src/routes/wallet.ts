import type { DeepLinkHandler, RouteDefinition, TabEntry } from "@wallet/kernel"
import { ChooseAssetSearch, PublicAssetSearch, ReceiveSearch, TransactionsListSearch, TransactionsSearch } from "../routes.ts"

/** Wallet views: assets, receive, choose asset/network, history, onboarding (spec 1 §2). */
export const walletRoutes: ReadonlyArray<RouteDefinition> = [
  { id: "asset", parent: "wallet", path: "/assets/$assetCurrency", component: () => import("../client/wallet/AssetScreen.tsx") },
  {
    id: "asset-public",
    parent: "wallet",
    path: "/assets-public/$assetCurrency",
    search: PublicAssetSearch,
    component: () => import("../client/wallet/PublicAssetScreen.tsx"),
  },
  { id: "receive", parent: "wallet", path: "/receive", search: ReceiveSearch, component: () => import("../client/wallet/ReceiveScreen.tsx") },
  {
    id: "choose-asset",
    parent: "wallet",
    path: "/choose-asset/$type",
    search: ChooseAssetSearch,
    component: () => import("../client/wallet/ChooseAssetScreen.tsx"),
  },
  { id: "choose-network", parent: "wallet", path: "/choose-network/$type/$assetCurrency", component: () => import("../client/wallet/ChooseNetworkScreen.tsx") },
  {
    id: "transactions",
    parent: "wallet",
    path: "/transactions",
    search: TransactionsSearch,
    component: () => import("../client/wallet/TransactionsScreen.tsx"),
  },
  {
    id: "transactions-list",
    parent: "wallet",
    path: "/transactions/list",
    search: TransactionsListSearch,
    component: () => import("../client/wallet/TransactionsScreen.tsx"),
  },
  { id: "transactions-landing", parent: "wallet", path: "/transactions/start-param-landing", component: () => import("../client/wallet/LandingScreen.tsx") },
  { id: "wallet-onboarding", parent: "wallet", path: "/wallet-onboarding", component: () => import("../client/wallet/OnboardingScreens.tsx") },
  { id: "wallet-onboarding-steps", parent: "wallet", path: "/wallet-onboarding/steps", component: () => import("../client/wallet/StepsScreen.tsx") },
  {
    id: "wallet-onboarding-incentive",
    parent: "wallet",
    path: "/wallet-onboarding/incentive",
    component: () => import("../client/wallet/IncentiveScreen.tsx"),
  },
]

/** Custodial tab bar: History, last (spec 1 §2 "Tab bar"). */
export const walletTabs: ReadonlyArray<TabEntry> = [{ id: "history", bar: "custodial", to: "/transactions", labelKey: "tab.history", icon: "check", order: 90 }]

/** Spec 1 §2 start params that lead to the wallet's receive flow. */
export const walletDeepLinks: ReadonlyArray<DeepLinkHandler> = [
  { prefix: "receive", exact: true, to: "/receive" },
  { prefix: "addcrypto", exact: true, to: "/choose-asset/receive" },
  { prefix: "chooseAsset", exact: true, to: "/choose-asset/receive" },
  // Decision 0380: `public_asset_<currency>` and `assets_<currency>` open that asset's page; `st`
  // lands on the start-param landing (new users to onboarding, others to history).
  {
    prefix: "public_asset_",
    pattern: "[A-Za-z0-9-]{1,32}",
    to: "/assets-public/$assetCurrency",
    params: { assetCurrency: "{rest}" },
    search: { source: "link" },
  },
  { prefix: "assets_", pattern: "[A-Za-z0-9-]{1,32}", to: "/assets/$assetCurrency", params: { assetCurrency: "{rest}" } },
  { prefix: "st", exact: true, to: "/transactions/start-param-landing" },
]
