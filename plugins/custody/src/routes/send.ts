import type { DeepLinkHandler, RouteDefinition } from "@wallet/kernel"

/** Money leaving: send to an address or a Telegram user, transfers, QR, first transaction (spec 1 §2). */
export const sendRoutes: ReadonlyArray<RouteDefinition> = []
export const sendDeepLinks: ReadonlyArray<DeepLinkHandler> = []
