import { Check, definePlugin } from "@wallet/kernel"
import { KycMainSearch } from "./routes.ts"

export { KycMainSearch } from "./routes.ts"

/**
 * Identity verification (spec 3 §2.2, §3, §4.2): the verification status, the level-1 steps (phone,
 * country, name) and the screens around them. The server module is `@wallet/plugin-kyc/server`, the
 * contract `./api`.
 */
export const kycPlugin = definePlugin({
  id: "kyc",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [
    { id: "index", parent: "root", path: "/kyc", component: () => import("./client/IndexScreen.tsx") },
    { id: "main", parent: "root", path: "/kyc/main", search: KycMainSearch, component: () => import("./client/MainScreen.tsx") },
    { id: "verifyCountry", parent: "root", path: "/kyc/verify-country", component: () => import("./client/CountryScreen.tsx") },
    { id: "verifyName", parent: "root", path: "/kyc/verify-name", component: () => import("./client/NameScreen.tsx") },
    { id: "success", parent: "root", path: "/kyc/success", component: () => import("./client/SuccessScreen.tsx") },
  ],
  config: Check.struct({ title: Check.optional(Check.string) }, { exact: true }),
  i18n: { namespace: "kyc", bundles: { en: () => import("./i18n/en.json"), ru: () => import("./i18n/ru.json") } },
})

export default kycPlugin
