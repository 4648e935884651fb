/**
 * The app build's composition check (decision 0120), loaded by the Vite plugin through Vite's
 * module runner (the config itself cannot load TypeScript packages). The same kernel function,
 * `checkComposition`, runs at the API server's boot, so both report one conflict with one message.
 */
import { checkComposition, manifestOfModule, type InstalledPlugin, type RegionConfig } from "@wallet/kernel"

export { manifestOfModule }

/** Every region against the manifests of the packages it lists (as the server sees them). Throws the kernel's `CompositionError`. */
export const checkAppComposition = (regions: ReadonlyArray<RegionConfig>, installed: ReadonlyArray<InstalledPlugin>): void => {
  for (const region of regions) {
    checkComposition({ region, installed: installed.filter((p) => p.packageName !== undefined && p.packageName in region.plugins) })
  }
}
