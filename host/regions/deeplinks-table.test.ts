import { describe, expect, it } from "vitest"
import { checkComposition, resolveStartParam } from "@wallet/kernel"
import { loadInstalledPlugins, regionById } from "./index.ts"

/**
 * Decision 0380: every start param of spec 1 §2 "Startup and deep links", with the route it must
 * open in the composed default region. A param whose plugin does not exist yet sits in PENDING
 * with the plugin that will own it; the test fails when a pending one starts resolving (move it to
 * LINKS) or a listed one stops (a manifest lost its `deepLinks` entry).
 */
const installed = await loadInstalledPlugins()
const composition = checkComposition({ region: regionById("default"), installed })
const resolve = (startParam: string) => resolveStartParam(composition.deepLinks, startParam)

/** Every start param the spec names, as it writes them (`{x}` placeholders, `_` ending a prefix). */
const SPEC = [
  "tonwallet_onboarding",
  "tonconnect",
  "tonwallet_main",
  "tonwallet_openleague",
  "tonwallet_viewer",
  "tonwallet_deposit",
  "tonwallet_swap",
  "collectible_{address}",
  "tonwallet_send",
  "tonwallet_send_options",
  "tonwallet_collectible_send_confirm",
  "tonwallet_action",
  "tonwallet_staking",
  "tonwallet_tg_transfer",
  "tonwallet_settings",
  "st",
  "wpay_order",
  "giveawayGift_",
  "giveawayUid_",
  "giveaway",
  "public_asset",
  "turn_on_passcode",
  "receiverSearch",
  "receive",
  "crypto_campaigns",
  "addcrypto",
  "sendcrypto",
  "exchange",
  "chooseAsset",
  "asset_purchase",
  "assets",
  "settings_language",
  "sendOptions",
  "kyc_start_{level}",
  "kyc_settings_{level}",
  "edd",
  "kyc_resubmission",
  "kyc_request",
  "send",
  "offerid_{id}_{userId}",
  "orderid_{id}",
  "marketads_{type}",
  "market",
  "profile",
  "express",
  "settings",
  "p2pPaymentSettings",
  "flexible_earn_list",
  "p2pOrderHelp",
  "p2pConfirmReceivedPayment",
  "p2pCreateOffer",
  "p2pTrustedMerchantApplication",
  "notifications",
  "earn_campaign",
  "trade_main",
] as const

type Spec = (typeof SPEC)[number]

const ADDRESS = "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG"
const RECIPIENT = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N"

interface Expected {
  /** The spec's param this example exercises. */
  readonly spec: Spec
  readonly startParam: string
  readonly plugin: string
  readonly to: string
  readonly search?: Readonly<Record<string, string>>
}

/** Params of existing plugins: they work now. */
const LINKS: ReadonlyArray<Expected> = [
  { spec: "tonwallet_main", startParam: "tonwallet_main", plugin: "ton-space", to: "/scw" },
  { spec: "tonwallet_openleague", startParam: "tonwallet_openleague", plugin: "ton-space", to: "/scw" },
  { spec: "tonwallet_onboarding", startParam: "tonwallet_onboarding", plugin: "ton-space", to: "/scw/onboarding" },
  { spec: "tonwallet_viewer", startParam: "tonwallet_viewer", plugin: "ton-space", to: "/scw/viewer" },
  { spec: "tonwallet_deposit", startParam: "tonwallet_deposit", plugin: "ton-space", to: "/scw/qr" },
  { spec: "tonwallet_swap", startParam: "tonwallet_swap", plugin: "ton-space", to: "/scw/swap" },
  { spec: "tonwallet_staking", startParam: "tonwallet_staking", plugin: "ton-space", to: "/scw/earn" },
  { spec: "tonwallet_settings", startParam: "tonwallet_settings", plugin: "ton-space", to: "/scw/settings" },
  { spec: "collectible_{address}", startParam: `collectible_${ADDRESS}`, plugin: "ton-space", to: `/scw/collectible/${ADDRESS}` },
  // The send-link rules: address and value open the TON confirmation, anything less the form.
  {
    spec: "tonwallet_send",
    startParam: `tonwallet_send_${ADDRESS}_2500000000`,
    plugin: "ton-space",
    to: "/scw/send-ton-confirmation",
    search: { asset: "TON", to: ADDRESS, amount: "2500000000" },
  },
  { spec: "tonwallet_send", startParam: `tonwallet_send_${ADDRESS}`, plugin: "ton-space", to: "/scw/send", search: { to: ADDRESS } },
  { spec: "tonwallet_send", startParam: "tonwallet_send", plugin: "ton-space", to: "/scw/send" },
  {
    spec: "tonwallet_collectible_send_confirm",
    startParam: `tonwallet_collectible_send_confirm_${ADDRESS}_${RECIPIENT}`,
    plugin: "ton-space",
    to: `/scw/collectible/${ADDRESS}/send/${RECIPIENT}`,
  },
  { spec: "tonwallet_tg_transfer", startParam: "tonwallet_tg_transfer_7f3a", plugin: "custody", to: "/transfers/7f3a" },
  { spec: "tonconnect", startParam: "tonconnect-v__2-id__abc", plugin: "tonconnect", to: "/scw/tc/connect", search: { startapp: "v__2-id__abc" } },
  { spec: "turn_on_passcode", startParam: "turn_on_passcode", plugin: "passcode", to: "/passcode/settings", search: { action: "create" } },
  { spec: "kyc_start_{level}", startParam: "kyc_start_LEVEL_1", plugin: "kyc", to: "/kyc/main" },
  { spec: "kyc_settings_{level}", startParam: "kyc_settings_LEVEL_2", plugin: "kyc", to: "/kyc/settings", search: { level: "LEVEL_2" } },
  { spec: "kyc_resubmission", startParam: "kyc_resubmission", plugin: "kyc", to: "/kyc/verification-pending" },
  { spec: "kyc_request", startParam: "kyc_request", plugin: "kyc", to: "/kyc/settings" },
  { spec: "edd", startParam: "edd", plugin: "kyc", to: "/kyc/edd" },
  { spec: "public_asset", startParam: "public_asset_BTC", plugin: "custody", to: "/assets-public/BTC", search: { source: "link" } },
  { spec: "assets", startParam: "assets_USDT", plugin: "custody", to: "/assets/USDT" },
  { spec: "st", startParam: "st", plugin: "custody", to: "/transactions/start-param-landing" },
  { spec: "receive", startParam: "receive", plugin: "custody", to: "/receive" },
  { spec: "addcrypto", startParam: "addcrypto", plugin: "custody", to: "/choose-asset/receive" },
  { spec: "chooseAsset", startParam: "chooseAsset", plugin: "custody", to: "/choose-asset/receive" },
  { spec: "receiverSearch", startParam: "receiverSearch", plugin: "custody", to: "/assets/receiver-search" },
  { spec: "sendOptions", startParam: "sendOptions", plugin: "custody", to: "/send-options" },
  { spec: "sendcrypto", startParam: "sendcrypto", plugin: "custody", to: "/send-options" },
  { spec: "send", startParam: "send", plugin: "custody", to: "/assets/send" },
  { spec: "offerid_{id}_{userId}", startParam: "offerid_42_777", plugin: "p2p", to: "/p2p/offers/42/start-param-landing", search: { offerUserId: "777" } },
  { spec: "orderid_{id}", startParam: "orderid_42", plugin: "p2p", to: "/p2p/orders/42" },
  { spec: "marketads_{type}", startParam: "marketads_PURCHASE", plugin: "p2p", to: "/p2p/offers/list/PURCHASE" },
  { spec: "marketads_{type}", startParam: "marketads", plugin: "p2p", to: "/p2p/offers/list/SALE" },
  { spec: "market", startParam: "market", plugin: "p2p", to: "/p2p" },
  { spec: "profile", startParam: "profile", plugin: "p2p", to: "/p2p/user" },
  { spec: "p2pPaymentSettings", startParam: "p2pPaymentSettings", plugin: "p2p", to: "/p2p/user/payments" },
  {
    spec: "p2pConfirmReceivedPayment",
    startParam: "p2pConfirmReceivedPayment_42",
    plugin: "p2p",
    to: "/p2p/orders/42/confirm-received-payment",
    search: { source: "notification" },
  },
  { spec: "p2pCreateOffer", startParam: "p2pCreateOffer", plugin: "p2p", to: "/p2p/offers/create" },
  { spec: "p2pOrderHelp", startParam: "p2pOrderHelp_42", plugin: "p2p", to: "/p2p/orders/42/help" },
  { spec: "express", startParam: "express", plugin: "p2p", to: "/p2p/express" },
  { spec: "express", startParam: "express_USDT_RUB", plugin: "p2p", to: "/p2p/express", search: { crypto: "USDT", fiatCurrency: "RUB" } },
  { spec: "express", startParam: "express_sell_TON_EUR", plugin: "p2p", to: "/p2p/express/sell", search: { crypto: "TON", fiatCurrency: "EUR" } },
  { spec: "p2pTrustedMerchantApplication", startParam: "p2pTrustedMerchantApplication", plugin: "p2p", to: "/p2p/trusted-merchant-application" },
  { spec: "exchange", startParam: "exchange", plugin: "exchange", to: "/exchange" },
  { spec: "trade_main", startParam: "trade_main", plugin: "trade", to: "/trade" },
  { spec: "settings", startParam: "settings", plugin: "settings", to: "/settings" },
  { spec: "settings_language", startParam: "settings_language", plugin: "settings", to: "/settings/language" },
  { spec: "notifications", startParam: "notifications", plugin: "settings", to: "/settings/notifications" },
]

/** Params whose screens belong to plugins not built yet: ONE list, each with its future owner. */
const PENDING: ReadonlyArray<{ readonly spec: Spec; readonly startParam: string; readonly owner: string }> = [
  { spec: "tonwallet_send_options", startParam: "tonwallet_send_options", owner: "ton-space (the /scw/send-options screen is not built)" },
  { spec: "tonwallet_action", startParam: "tonwallet_action", owner: "ton-space (the spec names no screen for it yet)" },
  { spec: "wpay_order", startParam: "wpay_order_123", owner: "wpay" },
  { spec: "giveawayGift_", startParam: "giveawayGift_abc", owner: "giveaway" },
  { spec: "giveawayUid_", startParam: "giveawayUid_abc", owner: "giveaway" },
  { spec: "giveaway", startParam: "giveaway", owner: "giveaway" },
  { spec: "crypto_campaigns", startParam: "crypto_campaigns", owner: "earn" },
  { spec: "flexible_earn_list", startParam: "flexible_earn_list", owner: "earn" },
  { spec: "earn_campaign", startParam: "earn_campaign_5", owner: "earn" },
  { spec: "asset_purchase", startParam: "asset_purchase_BTC_EUR", owner: "ramp" },
]

/** A composed route that the resolved path opens (`$param` segments match any one segment). */
const routeMatching = (path: string) => composition.routes.find((route) => new RegExp(`^${route.fullPath.replace(/\$\w+/g, "[^/]+")}/?$`).test(path))

describe("every start param of spec 1 §2 (decision 0380)", () => {
  it("each spec param is either listed with its route or pending with its future plugin, once", () => {
    const covered = new Set<string>([...LINKS.map((l) => l.spec), ...PENDING.map((p) => p.spec)])
    expect(SPEC.filter((s) => !covered.has(s))).toEqual([])
    const pending = PENDING.map((p) => p.spec)
    expect(pending.filter((s, i) => pending.indexOf(s) !== i)).toEqual([])
    expect(LINKS.filter((l) => pending.includes(l.spec)).map((l) => l.spec)).toEqual([])
  })

  it.each(LINKS.map((link) => [link.startParam, link] as const))("%s opens its screen", (_, link) => {
    const target = resolve(link.startParam)
    expect(target).toMatchObject({ kind: "route", pluginId: link.plugin, to: link.to })
    if (target.kind !== "route") return
    expect(target.search).toEqual(link.search ?? {})
    // The path names a route of the composed region (not a stale path after a rename).
    expect(routeMatching(target.to)?.fullPath, target.to).toBeDefined()
  })

  it.each(PENDING.map((p) => [p.startParam, p] as const))("%s is pending (no plugin claims it yet)", (_, pending) => {
    // When this fails, the owner plugin arrived: move the param to LINKS with its route.
    expect(resolve(pending.startParam), `${pending.startParam} (owner: ${pending.owner})`).toEqual({ kind: "not-found", startParam: pending.startParam })
  })

  it("an unknown or malformed param is not-found (the host opens main and logs it)", () => {
    for (const startParam of ["nonsense_param", "tonwallet_send_short_1", "collectible_", "public_asset_", "bad param!"]) {
      expect(resolve(startParam)).toEqual({ kind: "not-found", startParam })
    }
  })
})
