import { definePlugin } from "@wallet/kernel"

/**
 * TonConnect v2 on the wallet side (spec 2; issue 8). The engine (`./engine`) is framework-free and
 * lazily imported; the connect and request screens come with a later step.
 */
export const tonconnectPlugin = definePlugin({
  id: "tonconnect",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [],
})
