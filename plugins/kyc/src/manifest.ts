import { Check, definePlugin } from "@wallet/kernel"
import { KycMainSearch, KycPartialBlockSearch, KycPendingSearch, KycSettingsSearch, KycSumsubSearch } from "./routes.ts"

export { KycMainSearch, KycPartialBlockSearch, KycPendingSearch, KycSettingsSearch, KycSumsubSearch } from "./routes.ts"

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
    // Spec 3 §2.2: /kyc leads to a verification screen. Every route needs a session (the wallet parent).
    { id: "index", parent: "wallet", path: "/kyc", redirectTo: "/kyc/main" },
    { id: "main", parent: "wallet", path: "/kyc/main", search: KycMainSearch, component: () => import("./client/MainScreen.tsx") },
    { id: "confirmation", parent: "wallet", path: "/kyc/confirmation", component: () => import("./client/ConfirmationScreen.tsx") },
    { id: "verifyCountry", parent: "wallet", path: "/kyc/verify-country", component: () => import("./client/CountryScreen.tsx") },
    { id: "verifyName", parent: "wallet", path: "/kyc/verify-name", component: () => import("./client/NameScreen.tsx") },
    { id: "success", parent: "wallet", path: "/kyc/success", component: () => import("./client/SuccessScreen.tsx") },
    { id: "sumsub", parent: "wallet", path: "/kyc/sumsub", search: KycSumsubSearch, component: () => import("./client/SumsubScreen.tsx") },
    { id: "settings", parent: "wallet", path: "/kyc/settings", search: KycSettingsSearch, component: () => import("./client/SettingsScreen.tsx") },
    {
      id: "verificationPending",
      parent: "wallet",
      path: "/kyc/verification-pending",
      search: KycPendingSearch,
      component: () => import("./client/VerificationPendingScreen.tsx"),
    },
    { id: "edd", parent: "wallet", path: "/kyc/edd", component: () => import("./client/EddScreen.tsx") },
    { id: "eddBlocked", parent: "wallet", path: "/kyc/edd-blocked", component: () => import("./client/EddBlockedScreen.tsx") },
    // Level 1 awaiting completion (spec 3 §4.2): the same waiting screen, polled every 2 s.
    { id: "pending", parent: "wallet", path: "/kyc/pending", search: KycPendingSearch, component: () => import("./client/VerificationPendingScreen.tsx") },
    { id: "blocked", parent: "wallet", path: "/kyc/blocked", component: () => import("./client/BlockedScreen.tsx") },
    {
      id: "partiallyBlocked",
      parent: "wallet",
      path: "/kyc/partially-blocked",
      search: KycPartialBlockSearch,
      component: () => import("./client/PartialBlockScreen.tsx"),
    },
  ],
  // Spec 1 §2 start params: open a level's flow, the levels screen, or the resubmission after a rejection.
  deepLinks: [
    { prefix: "kyc_start", pattern: "(?:LEVEL_)?(?<level>[23])", to: "/kyc/main", search: { level: "LEVEL_{level}" } },
    { prefix: "kyc_start", pattern: "(?:LEVEL_)?1", to: "/kyc/main" },
    { prefix: "kyc_start", exact: true, to: "/kyc/main" },
    { prefix: "kyc_settings", pattern: "(?:LEVEL_)?(?<level>[23])", to: "/kyc/settings", search: { level: "LEVEL_{level}" } },
    { prefix: "kyc_settings", exact: true, to: "/kyc/settings" },
    { prefix: "kyc_resubmission", exact: true, to: "/kyc/verification-pending" },
    { prefix: "kyc_request", exact: true, to: "/kyc/settings" },
    { prefix: "edd", exact: true, to: "/kyc/edd" },
  ],
  // A blocked user is sent to the blocked screen from any screen (unless staff let them past it).
  hooks: { afterStart: () => import("./client/gate.ts") },
  settings: [{ id: "verification", section: "cw", labelKey: "settingsEntry", to: "/kyc/settings", icon: "check", order: 35 }],
  analytics: {
    events: [
      { name: "kyc.step_completed", description: "A verification step was saved (`step`: phoneNumber, country, basicInfo; `level` after it)" },
      { name: "kyc.consent_given", description: "The user accepted a consent that lifts a block (`consent`: CS_001, CS_002)" },
      { name: "kyc.partner_opened", description: "The partner's frame was opened (`level`: LEVEL_2, LEVEL_3)" },
      { name: "kyc.partner_submitted", description: "The documents were sent for review in the partner's frame (`level`)" },
    ],
  },
  config: Check.struct(
    { title: Check.optional(Check.string), agreementUrl: Check.optional(Check.string), learnMoreUrl: Check.optional(Check.string) },
    { exact: true },
  ),
  i18n: {
    namespace: "kyc",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})

export default kycPlugin
