import type { Kernel } from "@wallet/kernel-react"

/** The plugin's region config, as the manifest's `config` check accepted it. */
export interface KycConfig {
  readonly title?: string
  /** The user agreement the blocked screen links to (spec 3 §2.2). */
  readonly agreementUrl?: string
  /** The help article on blocks the blocked screen links to. */
  readonly learnMoreUrl?: string
}

/** Defaults of the blocked screen's links (the region config names the real ones). */
export const DEFAULT_AGREEMENT_URL = "https://telegram.org/tos/wallet"
export const DEFAULT_LEARN_MORE_URL = "https://telegram.org/faq/wallet"

export const PLUGIN_ID = "kyc"

/** What screens read of the config (screens never import the manifest). */
export const configOf = (kernel: Kernel): KycConfig => (kernel.composition.pluginConfig.get(PLUGIN_ID) as KycConfig | undefined) ?? {}
