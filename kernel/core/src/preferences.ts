import * as Check from "./check.ts"
import { defineStore } from "./storage.ts"

/** Spec 1 §9: default language and fiat USD. */
export const DEFAULT_FIAT_CURRENCY = "USD"

/**
 * The user's interface preferences (spec 1 §3 "Settings"), kept on the device so the first screen
 * renders in the right language before any request; the settings plugin also saves them on the server.
 */
export const PreferencesStore = defineStore({
  key: "preferences",
  version: 1,
  schema: Check.struct({
    languageCode: Check.optional(Check.literals(["en", "ru", "hi", "bn", "zh-TW"])),
    fiatCurrency: Check.string,
  }),
  initial: { fiatCurrency: DEFAULT_FIAT_CURRENCY },
})
export type Preferences = typeof PreferencesStore.initial
