import { defineRegion } from "@wallet/kernel"

/**
 * Every feature on. Plugins are named by package name (decision 0120): the app build and the API
 * server resolve each one's `./manifest` and `./server` exports from here; nothing else lists them.
 */
export default defineRegion({
  id: "default",
  plugins: {
    "@wallet/plugin-home": { enabled: true },
    "@wallet/plugin-settings": { enabled: true },
    "@wallet/plugin-passcode": { enabled: true },
    "@wallet/plugin-custody": { enabled: true },
    "@wallet/plugin-ton-space": { enabled: true },
    "@wallet/plugin-tonconnect": { enabled: true },
    "@wallet/plugin-kyc": { enabled: true },
    "@wallet/plugin-p2p": { enabled: true },
    "@wallet/plugin-trade": { enabled: true },
    "@wallet/plugin-exchange": { enabled: true },
    "@wallet/plugin-ramp": { enabled: true },
  },
  defaults: { language: "en", fiatCurrency: "USD" },
})
