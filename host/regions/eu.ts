import { defineRegion } from "@wallet/kernel"

/**
 * A European deployment: a shorter fiat list, EUR by default. As P2P and ramp plugins arrive they
 * are listed here by package name with `enabled: false`.
 */
export default defineRegion({
  id: "eu",
  plugins: {
    "@wallet/plugin-home": { enabled: true },
    "@wallet/plugin-settings": {
      enabled: true,
      config: { fiatCurrencies: ["EUR", "USD", "GBP", "PLN", "CZK", "CHF", "SEK", "DKK", "NOK", "HUF", "RON", "BGN"] },
    },
    "@wallet/plugin-passcode": { enabled: true },
    "@wallet/plugin-custody": { enabled: true },
    "@wallet/plugin-ton-space": { enabled: true },
    "@wallet/plugin-tonconnect": { enabled: true },
  },
  defaults: { language: "en", fiatCurrency: "EUR" },
})
