import type { DeepLinkHandler, RouteDefinition, TabEntry } from "@wallet/kernel"

/** Wallet views: assets, receive, choose asset/network, history, onboarding (spec 1 §2). */
export const walletRoutes: ReadonlyArray<RouteDefinition> = []
export const walletTabs: ReadonlyArray<TabEntry> = []
export const walletDeepLinks: ReadonlyArray<DeepLinkHandler> = []
