import { Check, definePlugin } from "@wallet/kernel"
import { PasscodeCreateSearch, PasscodeSettingsSearch } from "./routes.ts"

const count = (min: number) => Check.optional(Check.refine(Check.int, (n) => n >= min, `expected an integer >= ${min}`))

/**
 * The region config of the passcode plugin (`host/regions/<id>.ts`,
 * `plugins["@wallet/plugin-passcode"].config`: region files name plugins by package name); every
 * key is optional and falls back to the server's default (docs/decisions/0501).
 */
export const PasscodeRegionConfig = Check.struct(
  {
    maxPasscodeAttempts: count(1),
    unlockDurationSeconds: count(0),
    emailCodeTtlSeconds: count(1),
    emailCodeMaxAttempts: count(1),
    emailCodeMinIntervalSeconds: count(0),
    emailCodesPerHour: count(1),
    operationTokenTtlSeconds: count(1),
    challengeTtlSeconds: count(1),
    emailChallengeOperations: Check.optional(Check.array(Check.string)),
    /** USD cents from which a passcode is forced; 0 turns the rule off. */
    forcePasscodeUsdCents: count(0),
    /** USD cents from which a user with a passcode needs an operation token to move value; 0: always (decision 0550). */
    operationTokenAboveUsdCents: count(0),
  },
  { exact: true },
)
export type PasscodeRegionConfig = typeof PasscodeRegionConfig.Type

export { PasscodeCreateSearch, PasscodeSettingsSearch } from "./routes.ts"

/**
 * Passcode, device biometry, recovery email and security challenges (spec 3). Provides the kernel
 * Passcode service (loaded on first use); the server module is `@wallet/plugin-passcode/server`,
 * the contract `./api`.
 */
export const passcodePlugin = definePlugin({
  id: "passcode",
  version: "0.1.0",
  kernel: "^0.1.0",
  config: PasscodeRegionConfig,
  provides: { passcode: () => import("./client/service.tsx") },
  analytics: { events: [{ name: "passcode.created", description: "A passcode was created on the create screen (`source`: manual, recover, mnemonic)" }] },
  routes: [
    { id: "settings", parent: "wallet", path: "/passcode/settings", search: PasscodeSettingsSearch, component: () => import("./client/SettingsScreen.tsx") },
    { id: "create", parent: "scw", path: "/passcode/create", search: PasscodeCreateSearch, component: () => import("./client/CreateScreen.tsx") },
  ],
  // Spec 1 §2 start param: the passcode settings screen with the create flow open (decision 0380).
  deepLinks: [{ prefix: "turn_on_passcode", exact: true, to: "/passcode/settings", search: { action: "create" } }],
  settings: [{ id: "passcode", section: "cw", labelKey: "settingsEntry", to: "/passcode/settings", icon: "check", order: 30 }],
  // The view settings' `display_passcode_banner` on wallet main while there is no passcode (decision 0360).
  main: { sections: [{ id: "banner", order: 20, component: () => import("./client/MainBanner.tsx") }] },
  i18n: {
    namespace: "passcode",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})
