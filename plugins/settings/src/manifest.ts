import { definePlugin } from "@wallet/kernel"
import { SettingsConfigCheck } from "./config.ts"
import { SettingsSearch } from "./routes.ts"

export type { SettingsConfig } from "./config.ts"

export { SettingsSearch } from "./routes.ts"

export const settingsPlugin = definePlugin({
  id: "settings",
  version: "0.1.0",
  kernel: "^0.1.0",
  // The notification settings live in the custody contract.
  dependsOn: ["custody"],
  routes: [
    { id: "index", parent: "wallet", path: "/settings", search: SettingsSearch, component: () => import("./client/SettingsScreen.tsx") },
    { id: "language", parent: "settings/index", path: "/language", component: () => import("./client/LanguageScreen.tsx") },
    {
      id: "default-currency",
      parent: "settings/index",
      path: "/default-currency",
      // Spec 1 §3 access flag: setting the user currency can be switched off per user.
      permissions: ["accessToSetUserCurrency"],
      component: () => import("./client/CurrencyScreen.tsx"),
    },
    // Spec 1 §2: notification types saved on the server through the custody contract.
    { id: "notifications", parent: "settings/index", path: "/notifications", component: () => import("./client/NotificationsScreen.tsx") },
    { id: "notification-type", parent: "settings/index", path: "/notifications/$type", component: () => import("./client/NotificationTypeScreen.tsx") },
  ],
  deepLinks: [
    { prefix: "settings", exact: true, to: "/settings" },
    { prefix: "settings_language", exact: true, to: "/settings/language" },
    { prefix: "notifications", exact: true, to: "/settings/notifications" },
  ],
  settings: [
    { id: "language", section: "general", labelKey: "language", to: "/settings/language", icon: "globe", order: 10 },
    {
      id: "default-currency",
      section: "cw",
      labelKey: "defaultCurrency",
      to: "/settings/default-currency",
      icon: "currency",
      order: 20,
      permissions: ["accessToSetUserCurrency"],
    },
    { id: "notifications", section: "cw", labelKey: "notifications.title", to: "/settings/notifications", icon: "alert", order: 30 },
  ],
  // Wallet main's gear button (spec 1 §2), composed by the home plugin (decision 0140).
  main: { topBar: [{ id: "open", labelKey: "title", icon: "settings", order: 90, to: "/settings" }] },
  featureFlags: [{ key: "settings_currency_search", default: true, description: "Search field on the default currency list" }],
  permissions: ["accessToSetUserCurrency", "accessToSavingSettings"],
  analytics: { events: [{ name: "settings.language_change", description: "A language was chosen on the language screen (`language`)" }] },
  config: SettingsConfigCheck,
  i18n: {
    namespace: "settings",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})
