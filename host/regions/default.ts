import { defineRegion } from "@wallet/kernel"

/** Every feature on. */
export default defineRegion({
  id: "default",
  plugins: {
    home: { enabled: true },
    passcode: { enabled: true },
    settings: { enabled: true },
  },
  defaults: { language: "en", fiatCurrency: "USD" },
})
