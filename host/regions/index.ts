import type { PluginManifest, RegionConfig } from "@wallet/kernel"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import { homePlugin } from "@wallet/plugin-home"
import { passcodePlugin } from "@wallet/plugin-passcode/manifest"
import { settingsPlugin } from "@wallet/plugin-settings"
import { tonSpacePlugin } from "@wallet/plugin-ton-space/manifest"
import { tonconnectPlugin } from "@wallet/plugin-tonconnect/manifest"
import defaultRegion from "./default.ts"
import eu from "./eu.ts"

/** The plugins this build installs (their manifests: static data plus lazy code). */
export const installedPlugins: ReadonlyArray<PluginManifest> = [homePlugin, settingsPlugin, passcodePlugin, custodyPlugin, tonSpacePlugin, tonconnectPlugin]

export const regions: Readonly<Record<string, RegionConfig>> = { default: defaultRegion, eu }

export const regionById = (id: string): RegionConfig => {
  const region = regions[id]
  if (!region) throw new Error(`Unknown region '${id}' (known: ${Object.keys(regions).join(", ")})`)
  return region
}
