import type { Kernel } from "@wallet/kernel-react"

/** The plugin's region config, as the manifest's `config` check accepted it. */
export interface P2pConfig {
  readonly title?: string
  readonly learnMoreUrl?: string
  readonly purchaseOptionsUrl?: string
}

export const PLUGIN_ID = "p2p"

/** What screens read of the config (screens never import the manifest). */
export const configOf = (kernel: Kernel): P2pConfig => (kernel.composition.pluginConfig.get(PLUGIN_ID) as P2pConfig | undefined) ?? {}
