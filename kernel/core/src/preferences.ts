import { Schema } from "effect"
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
  schema: Schema.Struct({
    languageCode: Schema.optionalKey(Schema.Literals(["en", "ru"])),
    fiatCurrency: Schema.String,
  }),
  initial: { fiatCurrency: DEFAULT_FIAT_CURRENCY },
})
export type Preferences = typeof PreferencesStore.initial
