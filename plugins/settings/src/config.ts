import { Check, type Composition } from "@wallet/kernel"

/**
 * The settings plugin's region config (`host/regions/<id>.ts`, `plugins["@wallet/plugin-settings"].config`):
 * the manifest declares the check, the screens read the checked value here (no screen imports the
 * manifest, decision 0160).
 */
export const SettingsConfigCheck = Check.struct(
  {
    /** Limits the default-currency list in a region (ISO codes). */
    fiatCurrencies: Check.optional(Check.array(Check.refine(Check.string, (s) => /^[A-Z]{3}$/.test(s), "expected an ISO 4217 code"))),
  },
  { exact: true },
)
export type SettingsConfig = typeof SettingsConfigCheck.Type

/** This region's settings config (checked at composition; absent when the region gives none). */
export const settingsConfig = (kernel: { readonly composition: Pick<Composition, "pluginConfig"> }): SettingsConfig | undefined =>
  kernel.composition.pluginConfig.get("settings") as SettingsConfig | undefined
