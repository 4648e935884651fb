import { defineRegion } from "@wallet/kernel"

/** Every feature on. */
export default defineRegion({
  id: "default",
  plugins: {
    custody: { enabled: true },
    home: { enabled: true },
    passcode: { enabled: true },
    settings: { enabled: true },
    "ton-space": { enabled: true },
    tonconnect: { enabled: true },
  },
  defaults: { language: "en", fiatCurrency: "USD" },
})
