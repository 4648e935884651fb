import type { Kernel } from "@wallet/kernel-react"

/** The plugin's region config, as the manifest's `config` check accepted it. */
export interface TradeConfig {
  /** The catalog's products section (spec 1 §3 display_products_section); on unless false. */
  readonly displayProductsSection?: boolean
}

export const PLUGIN_ID = "trade"

/** What screens read of the config (screens never import the manifest). */
export const configOf = (kernel: Kernel): TradeConfig => (kernel.composition.pluginConfig.get(PLUGIN_ID) as TradeConfig | undefined) ?? {}
