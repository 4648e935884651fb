import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { FeatureFlags } from "./flags.ts"

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
