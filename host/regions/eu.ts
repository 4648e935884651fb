import { defineRegion } from "@wallet/kernel"

/**
 * A European deployment: a shorter fiat list, EUR by default. As P2P and ramp plugins arrive they
 * are listed here with `enabled: false`.
 */
export default defineRegion({
  id: "eu",
  plugins: {
    custody: { enabled: true },
    home: { enabled: true },
    passcode: { enabled: true },
    settings: { enabled: true, config: { fiatCurrencies: ["EUR", "USD", "GBP", "PLN", "CZK", "CHF", "SEK", "DKK", "NOK", "HUF", "RON", "BGN"] } },
    "ton-space": { enabled: true },
    tonconnect: { enabled: true },
  },
  defaults: { language: "en", fiatCurrency: "EUR" },
})
