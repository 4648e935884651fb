import { Context, Effect, Layer, Ref } from "effect"
import type { FeatureFlagDefinition } from "./manifest.ts"

/** Flags the kernel itself knows (spec 1 §3); plugins add theirs through their manifests. */
export const KERNEL_FEATURE_FLAGS: ReadonlyArray<FeatureFlagDefinition> = [
  { key: "dev_tools", default: false, description: "Development tools" },
  { key: "tonspace_pnl", default: false, description: "Self-custody profit and loss" },
  { key: "new_action_buttons", default: true, description: "New action buttons on wallet main" },
  { key: "is_ton_space_enabled", default: true, description: "Degradation banner: the TON space is available" },
  { key: "is_p2p_enabled", default: true, description: "Degradation banner: P2P is available" },
]

export type FlagValues = Readonly<Record<string, boolean>>

/**
 * Every flag of the spec (spec 1 §3) and who acts on it (decision 0360): the plugin whose screen
 * reads it now (`actedOnBy`), or the plugin still to come that will (`pendingPlugin`). A plugin that
 * starts reading a pending flag moves it to `actedOnBy` here (flags.test.ts holds the list).
 */
export const SPEC_FLAGS: Readonly<Record<string, { readonly actedOnBy: string; readonly where: string } | { readonly pendingPlugin: string }>> = {
  dev_tools: { actedOnBy: "settings", where: "settings' developer entry; ton-space's /scw/viewer" },
  tonspace_pnl: { actedOnBy: "ton-space", where: "the PnL line of a TON space asset page" },
  new_action_buttons: { actedOnBy: "home", where: "wallet main's action buttons layout" },
  is_ton_space_enabled: { actedOnBy: "ton-space", where: "TON side: banner, no tab bar, no QR scan" },
  is_p2p_enabled: { actedOnBy: "home", where: "the P2P degradation banner on wallet main" },
  scw_new_nft: { pendingPlugin: "ton-space-nft" },
  scw_risk_scanner: { pendingPlugin: "ton-space-risk" },
  scw_affluent: { pendingPlugin: "earn" },
  trade_exchange_form: { pendingPlugin: "trade" },
  xstocks: { pendingPlugin: "stocks" },
  uz_new_flow: { pendingPlugin: "kyc" },
}

/** The two degradation banners: true while the area works (spec 3 §3). */
export const DEGRADATION_FLAGS = ["is_ton_space_enabled", "is_p2p_enabled"] as const
export type DegradationFlag = (typeof DEGRADATION_FLAGS)[number]

/**
 * Feature flags: the declared defaults, overridden by what the server sends (stale time 60 s,
 * spec 1 §9). Unknown keys from the server are kept so a newer server cannot break an older app.
 */
export class FeatureFlags extends Context.Service<
  FeatureFlags,
  {
    readonly isEnabled: (key: string) => Effect.Effect<boolean>
    readonly snapshot: Effect.Effect<FlagValues>
    readonly applyServerFlags: (values: Readonly<Record<string, unknown>>) => Effect.Effect<void>
    /** Called with the new values after the server's flags are applied; returns the unsubscribe function. */
    readonly subscribe: (listener: (values: FlagValues) => void) => () => void
  }
>()("wallet/FeatureFlags") {
  static readonly make = (definitions: ReadonlyArray<FeatureFlagDefinition>) =>
    Effect.gen(function* () {
      const defaults: Record<string, boolean> = {}
      for (const flag of [...KERNEL_FEATURE_FLAGS, ...definitions]) defaults[flag.key] = flag.default
      const ref = yield* Ref.make<FlagValues>(defaults)
      const listeners = new Set<(values: FlagValues) => void>()
      return FeatureFlags.of({
        isEnabled: (key) => Ref.get(ref).pipe(Effect.map((v) => v[key] === true)),
        snapshot: Ref.get(ref),
        applyServerFlags: (values) =>
          Ref.updateAndGet(ref, (current) => {
            const next = { ...current }
            for (const [key, value] of Object.entries(values)) if (typeof value === "boolean") next[key] = value
            return next
          }).pipe(Effect.map((next) => listeners.forEach((listener) => listener(next)))),
        subscribe: (listener) => {
          listeners.add(listener)
          return () => void listeners.delete(listener)
        },
      })
    })

  static readonly layer = (definitions: ReadonlyArray<FeatureFlagDefinition>) => Layer.effect(FeatureFlags, FeatureFlags.make(definitions))
  static readonly layerTest = (values: FlagValues) =>
    Layer.effect(
      FeatureFlags,
      Effect.gen(function* () {
        const flags = yield* FeatureFlags.make([])
        yield* flags.applyServerFlags(values)
        return flags
      }),
    )
}
