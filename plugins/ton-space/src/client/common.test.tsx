import { describe, expect, it } from "vitest"
import { composePlugins, definePlugin, defineRegion } from "@wallet/kernel"
import type { Kernel } from "@wallet/kernel-react"
import { visibleTonTabs } from "./common.tsx"

const screen = async () => ({ default: () => null })
/** A plugin whose TON tab needs a permission (decision 0140: tabs carry `permissions`). */
const stakingPlugin = definePlugin({
  id: "staking",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [{ id: "index", parent: "scw", path: "/stake", component: screen }],
  tabs: [{ id: "stake", bar: "ton", to: "/scw/stake", labelKey: "tab", icon: "globe", order: 40, permissions: ["accessToStaking"] }],
})

/** The TON space's own tabs, without its dependencies. */
const tonTabs = definePlugin({
  id: "ton",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [{ id: "main", parent: "scw", path: "/", component: screen }],
  tabs: [{ id: "main", bar: "ton", to: "/scw", labelKey: "tab", icon: "ton", order: 10 }],
})
const composition = composePlugins({
  region: defineRegion({ id: "test", plugins: { ton: { enabled: true }, staking: { enabled: true } } }),
  installed: [tonTabs, stakingPlugin],
})
const kernelFor = (permissions: Record<string, boolean>) => ({ composition, user: () => ({ isCustodyAvailable: true, permissions }) }) as unknown as Kernel

describe("TON tab bar", () => {
  it("issue 14: shows a tab only to a user holding its permissions", () => {
    expect(visibleTonTabs(kernelFor({})).map((tab) => tab.id)).toEqual(["main"])
    expect(visibleTonTabs(kernelFor({ accessToStaking: true })).map((tab) => tab.id)).toEqual(["main", "stake"])
  })
})
