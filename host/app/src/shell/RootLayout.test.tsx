import { describe, expect, it } from "vitest"
import { composePlugins, definePlugin, defineRegion } from "@wallet/kernel"
import type { Kernel } from "@wallet/kernel-react"
import { tabLabelsReady, visibleCustodialTabs } from "./RootLayout.tsx"

const screen = async () => ({ default: () => null })
const walletPlugin = definePlugin({
  id: "wallet",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [
    { id: "main", parent: "wallet", path: "/main", component: screen },
    { id: "earn", parent: "wallet", path: "/earn", component: screen },
  ],
  tabs: [
    { id: "main", bar: "custodial", to: "/main", labelKey: "main", icon: "wallet", order: 10 },
    { id: "earn", bar: "custodial", to: "/earn", labelKey: "earn", icon: "globe", order: 20, permissions: ["accessToEarn"] },
  ],
})
const composition = composePlugins({ region: defineRegion({ id: "test", plugins: { wallet: { enabled: true } } }), installed: [walletPlugin] })
const kernelFor = (permissions: Record<string, boolean> | undefined) =>
  ({ composition, user: () => (permissions ? { isCustodyAvailable: true, permissions } : undefined) }) as unknown as Kernel

describe("custodial tab bar", () => {
  it("issue 14: shows a tab only to a user holding its permissions", () => {
    expect(visibleCustodialTabs(kernelFor({})).map((tab) => tab.id)).toEqual(["main"])
    expect(visibleCustodialTabs(kernelFor({ accessToEarn: true })).map((tab) => tab.id)).toEqual(["main", "earn"])
    expect(visibleCustodialTabs(kernelFor(undefined))).toEqual([])
  })
})

describe("custodial tab bar labels", () => {
  const kernelWith = (loaded: ReadonlyArray<string>) =>
    ({ i18n: { instance: { hasLoadedNamespace: (namespace: string) => loaded.includes(namespace) } } }) as unknown as Kernel

  it("the tab bar showed the raw key tab.history while custody's strings loaded: it waits for every tab's namespace", () => {
    expect(tabLabelsReady(kernelWith(["home"]), ["home", "custody"])).toBe(false)
    expect(tabLabelsReady(kernelWith(["home", "custody"]), ["home", "custody"])).toBe(true)
    expect(tabLabelsReady(kernelWith([]), [""])).toBe(true)
  })
})
