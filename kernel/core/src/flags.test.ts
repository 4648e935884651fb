import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { DEGRADATION_FLAGS, FeatureFlags, KERNEL_FEATURE_FLAGS, SPEC_FLAGS } from "./flags.ts"

describe("FeatureFlags", () => {
  it.effect("starts from declared defaults and applies server values, ignoring non-booleans", () =>
    Effect.gen(function* () {
      const flags = yield* FeatureFlags.make([{ key: "xstocks", default: true, description: "" }])
      const seen: Array<boolean | undefined> = []
      flags.subscribe((values) => seen.push(values.dev_tools))
      assert.isTrue(yield* flags.isEnabled("xstocks"))
      assert.isFalse(yield* flags.isEnabled("dev_tools"))
      assert.isTrue(yield* flags.isEnabled("is_ton_space_enabled"))
      yield* flags.applyServerFlags({ xstocks: false, dev_tools: true, broken: "yes" })
      assert.isFalse(yield* flags.isEnabled("xstocks"))
      assert.isTrue(yield* flags.isEnabled("dev_tools"))
      assert.isFalse(yield* flags.isEnabled("broken"))
      assert.isFalse(yield* flags.isEnabled("never-declared"))
      assert.deepStrictEqual(seen, [true])
    }),
  )
})

describe("spec flags (decision 0360)", () => {
  // Spec 1 §3: every feature flag and degradation banner of the spec.
  const SPEC = [
    "dev_tools",
    "tonspace_pnl",
    "scw_risk_scanner",
    "xstocks",
    "scw_affluent",
    "uz_new_flow",
    "new_action_buttons",
    "scw_new_nft",
    "trade_exchange_form",
    "is_p2p_enabled",
    "is_ton_space_enabled",
  ]

  it("lists every spec flag once, as acted on by a plugin or pending with the plugin that will", () => {
    expect(Object.keys(SPEC_FLAGS).sort()).toEqual([...SPEC].sort())
    const acted = Object.entries(SPEC_FLAGS)
      .filter(([, use]) => "actedOnBy" in use)
      .map(([key]) => key)
      .sort()
    const pending = Object.entries(SPEC_FLAGS)
      .filter(([, use]) => "pendingPlugin" in use)
      .map(([key]) => key)
      .sort()
    expect(acted).toEqual(["dev_tools", "is_p2p_enabled", "is_ton_space_enabled", "new_action_buttons", "tonspace_pnl"])
    expect(pending).toEqual(["scw_affluent", "scw_new_nft", "scw_risk_scanner", "trade_exchange_form", "uz_new_flow", "xstocks"])
  })

  it("declares the flags the screens read with the server's defaults", () => {
    const byKey = new Map(KERNEL_FEATURE_FLAGS.map((flag) => [flag.key, flag.default]))
    expect(byKey.get("tonspace_pnl")).toBe(false)
    expect(byKey.get("new_action_buttons")).toBe(true)
    for (const flag of DEGRADATION_FLAGS) expect(byKey.get(flag)).toBe(true)
  })
})
