import { definePlugin } from "@wallet/kernel"

/** The self-custody TON wallet (spec 2; issue 6). Every route is lazy: TON code never loads on the first screen. */
export const tonSpacePlugin = definePlugin({
  id: "ton-space",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [],
  i18n: { namespace: "tonSpace", bundles: { en: () => import("./i18n/en.json"), ru: () => import("./i18n/ru.json") } },
})
