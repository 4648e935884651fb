import type { Language } from "./manifest.ts"

/** What one region (deployment) enables: plugins with their config, and kernel defaults. */
export interface RegionConfig {
  readonly id: string
  readonly plugins: Readonly<Record<string, PluginRegionConfig>>
  readonly defaults?: {
    readonly language?: Language
    readonly fiatCurrency?: string
  }
}

export interface PluginRegionConfig {
  readonly enabled: boolean
  readonly config?: Readonly<Record<string, unknown>>
}

export const REGION_KEYS = ["id", "plugins", "defaults"] as const
export const REGION_PLUGIN_KEYS = ["enabled", "config"] as const
export const REGION_DEFAULTS_KEYS = ["language", "fiatCurrency"] as const

export const defineRegion = <const R extends RegionConfig>(region: R): R => region
