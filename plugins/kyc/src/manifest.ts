import { Check, definePlugin } from "@wallet/kernel"

export const kycPlugin = definePlugin({
  id: "kyc",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [{ id: "index", parent: "root", path: "/kyc", component: () => import("./client/Screen.tsx") }],
  config: Check.struct({ title: Check.optional(Check.string) }, { exact: true }),
  i18n: { namespace: "kyc", bundles: { en: () => import("./i18n/en.json"), ru: () => import("./i18n/ru.json") } },
})

export default kycPlugin
