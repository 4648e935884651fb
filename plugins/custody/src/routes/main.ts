import type { MainSlots } from "@wallet/kernel"

/**
 * What custody puts on wallet main (decision 0140; spec 1 §2, §4): the QR scan button in the top
 * bar and the receive / send / exchange / buy buttons, whose availability over all assets its
 * lazily loaded module decides. Labels are custody's `actions.*` strings. Buy leads to the purchase
 * screen only where a plugin serves it.
 */
const availability = () => import("../client/main/actions.ts")

export const mainSlots: MainSlots = {
  topBar: [{ id: "scan-qr", labelKey: "actions.scanQr", icon: "qr", order: 10, requiresCustody: true, run: () => import("../client/main/scanButton.ts") }],
  actions: [
    { id: "receive", labelKey: "actions.receive", icon: "receive", order: 10, accessFlag: "accessToCreateAddress", to: "/choose-asset/receive", availability },
    { id: "send", labelKey: "actions.send", icon: "send", order: 20, accessFlag: "accessToWithdraws", to: "/send-options", availability },
    {
      id: "exchange",
      labelKey: "actions.exchange",
      icon: "exchange",
      order: 30,
      accessFlag: "accessToExchanges",
      to: "/exchange",
      whenTargetMissing: "hide",
      availability,
    },
    { id: "buy", labelKey: "actions.buy", icon: "buy", order: 40, to: "/purchase-options", whenTargetMissing: "hide", availability },
  ],
  // The view settings' `display_terms_banner` (decision 0360): shown while true, closing saves false.
  sections: [{ id: "terms-banner", order: 10, requiresCustody: true, component: () => import("../client/main/TermsBanner.tsx") }],
}
