import { definePlugin } from "@wallet/kernel"
import { MainSearch } from "./routes.ts"

export { MainSearch } from "./routes.ts"

export const homePlugin = definePlugin({
  id: "home",
  version: "0.1.0",
  kernel: "^0.1.0",
  // Wallet main shows the custody accounts (the custody plugin's contract).
  dependsOn: ["custody"],
  routes: [
    { id: "main", parent: "wallet", path: "/main", search: MainSearch, component: () => import("./client/MainScreen.tsx") },
    { id: "wv", parent: "wallet", path: "/wv", redirectTo: "/main" },
    { id: "giveaway", parent: "wallet", path: "/giveaway", redirectTo: "/main" },
  ],
  tabs: [{ id: "wallet", bar: "custodial", to: "/main", labelKey: "tab", icon: "wallet", order: 10 }],
  analytics: {
    events: [
      { name: "home.switch_space", description: "The crypto / TON space switch on wallet main was pressed (`to`)" },
      { name: "home.slot_press", description: "A contributed top-bar or action button on wallet main was pressed (`slot`: its global id)" },
    ],
  },
  i18n: {
    namespace: "home",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})
