import { describe, expect, it } from "vitest"
import { bucketOf, EXPERIMENTS, Experiments } from "./experiments.ts"

describe("experiments (decision 0360)", () => {
  it("declares the spec's six experiments, each acted on by a plugin or pending", () => {
    expect(EXPERIMENTS.map((e) => e.name).sort()).toEqual(
      ["erc20-withdrawal-fee", "p2p-express-only", "p2p-offer-price-test", "trading-default-tab", "wallet-action-buttons", "wallet-onboarding-earn"].sort(),
    )
    for (const e of EXPERIMENTS) {
      expect(e.variants[0]).toBe("a")
      expect(Number(e.actedOnBy !== undefined) + Number(e.pendingPlugin !== undefined)).toBe(1)
    }
    expect(EXPERIMENTS.filter((e) => e.actedOnBy).map((e) => e.name)).toEqual(["wallet-action-buttons", "trading-default-tab"])
  })

  it("reads the control 'a' for a missing, unknown or undeclared bucket", () => {
    expect(bucketOf({ "wallet-action-buttons": "b" }, "wallet-action-buttons")).toBe("b")
    expect(bucketOf({}, "wallet-action-buttons")).toBe("a")
    expect(bucketOf(undefined, "wallet-action-buttons")).toBe("a")
    expect(bucketOf({ "wallet-action-buttons": "z" }, "wallet-action-buttons")).toBe("a")
    // c is not a variant of wallet-action-buttons, but is one of p2p-offer-price-test.
    expect(bucketOf({ "wallet-action-buttons": "c" }, "wallet-action-buttons")).toBe("a")
    expect(bucketOf({ "p2p-offer-price-test": "c" }, "p2p-offer-price-test")).toBe("c")
    // An experiment the app does not declare keeps what the server says.
    expect(bucketOf({ "new-thing": "b" }, "new-thing")).toBe("b")
  })

  it("tells listeners when a refresh changes the buckets, and only then", () => {
    const experiments = new Experiments({ "wallet-action-buttons": "a" })
    const seen: Array<string> = []
    const stop = experiments.subscribe(() => seen.push(experiments.bucket("wallet-action-buttons")))
    experiments.apply({ "wallet-action-buttons": "a" })
    expect(seen).toEqual([])
    experiments.apply({ "wallet-action-buttons": "b" })
    expect(seen).toEqual(["b"])
    experiments.apply({})
    expect(seen).toEqual(["b", "a"])
    stop()
    experiments.apply({ "wallet-action-buttons": "b" })
    expect(seen).toEqual(["b", "a"])
  })
})
