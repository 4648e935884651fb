import type { Kernel } from "@wallet/kernel-react"

/** The plugin's region config, as the manifest's `config` check accepted it. */
export interface KycConfig {
  readonly title?: string
}

export const PLUGIN_ID = "kyc"

/** What screens read of the config (screens never import the manifest). */
export const configOf = (kernel: Kernel): KycConfig => (kernel.composition.pluginConfig.get(PLUGIN_ID) as KycConfig | undefined) ?? {}
