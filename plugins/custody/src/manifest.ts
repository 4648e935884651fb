import { definePlugin, type I18nBundle } from "@wallet/kernel"
import { mainSlots } from "./routes/main.ts"
import { sendDeepLinks, sendRoutes } from "./routes/send.ts"
import { walletDeepLinks, walletRoutes, walletTabs } from "./routes/wallet.ts"

/** The wallet and send halves keep their strings in separate files of one namespace. */
const bundle = (parts: ReadonlyArray<Promise<{ readonly default: I18nBundle }>>) =>
  Promise.all(parts).then((loaded) => ({ default: Object.assign({}, ...loaded.map((part) => part.default)) as I18nBundle }))

/** The custodial wallet (spec 1 §2 "Custodial area"; issue 5). */
export const custodyPlugin = definePlugin({
  id: "custody",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [...walletRoutes, ...sendRoutes],
  tabs: walletTabs,
  deepLinks: [...walletDeepLinks, ...sendDeepLinks],
  // Wallet main's QR button and action buttons (composed by the home plugin).
  main: mainSlots,
  analytics: { events: [{ name: "custody.send_submit", description: "The custodial send confirm button was pressed (`currency`, `network`, `kind`)" }] },
  i18n: {
    namespace: "custody",
    bundles: {
      en: () => bundle([import("./i18n/wallet.en.json"), import("./i18n/send.en.json")]),
      ru: () => bundle([import("./i18n/wallet.ru.json"), import("./i18n/send.ru.json")]),
      hi: () => bundle([import("./i18n/wallet.hi.json"), import("./i18n/send.hi.json")]),
      bn: () => bundle([import("./i18n/wallet.bn.json"), import("./i18n/send.bn.json")]),
      "zh-TW": () => bundle([import("./i18n/wallet.zh-TW.json"), import("./i18n/send.zh-TW.json")]),
    },
  },
})
