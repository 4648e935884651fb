/**
 * What the demo dApp page reads from its server at start (`GET /config.json`), so one build serves
 * any bridge and any wallet link: the harness fills it with the running stack's URLs.
 */
export interface DemoWallet {
  /** The wallet's app name in the list (`appName`), its shown name and icon. */
  readonly appName: string
  readonly name: string
  readonly imageUrl: string
  readonly aboutUrl: string
  /** A Telegram-style link (https://t.me/<bot>/<app>): the SDK packs the request into `startapp=tonconnect-…`. */
  readonly universalLink: string
  /** The wallet's HTTP bridge (`<api>/bridge`). */
  readonly bridgeUrl: string
  readonly platforms: ReadonlyArray<"ios" | "android" | "macos" | "windows" | "linux">
}

export interface DemoConfig {
  readonly manifestUrl: string
  /** A local wallets-list JSON: the SDK must not fetch the public list. */
  readonly walletsListUrl: string
  readonly wallet: DemoWallet
  /** Where "Send 0.1 TON" sends (friendly, non-bounceable: it may be undeployed). */
  readonly receiver: string
  /** Nano TON as a decimal string (0.1 TON = "100000000"). */
  readonly amount: string
  /** The text "Sign text" asks the wallet to sign. */
  readonly signText: string
}

/** The demo server's endpoints (same origin as the page). */
export const DEMO_PATHS = {
  config: "/config.json",
  manifest: "/tonconnect-manifest.json",
  wallets: "/wallets.json",
  icon: "/icon.png",
  proofPayload: "/api/ton-proof/payload",
  proofCheck: "/api/ton-proof/check",
  signDataCheck: "/api/sign-data/check",
} as const
