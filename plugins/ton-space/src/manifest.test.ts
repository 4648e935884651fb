import { describe, expect, it } from "vitest"
import { composePlugins, defineRegion } from "@wallet/kernel"
import { tonSpacePlugin } from "./manifest.ts"

describe("ton-space manifest", () => {
  const composition = composePlugins({
    region: defineRegion({ id: "test", plugins: { "ton-space": { enabled: true, config: { chainApiUrl: "https://chain.example" } } }, defaults: { language: "en", fiatCurrency: "USD" } }),
    installed: [tonSpacePlugin],
  })

  it("mounts every screen under /scw with the spec's paths", () => {
    const paths = composition.routes.map((r) => r.fullPath)
    expect(paths.every((p) => p === "/scw" || p.startsWith("/scw/"))).toBe(true)
    for (const path of ["/scw", "/scw/backup/manual", "/scw/backup/test", "/scw/import/mnemonic", "/scw/qr", "/scw/send", "/scw/send-ton-confirmation", "/scw/send-jetton-confirmation", "/scw/tx/$eventId", "/scw/settings/logout"])
      expect(paths).toContain(path)
  })

  it("declares the TON tab bar Main, Swap, Earn with the swap tooltip", () => {
    expect(composition.tabs.ton.map((t) => [t.id, t.to])).toEqual([
      ["main", "/scw"],
      ["swap", "/scw/swap"],
      ["earn", "/scw/earn"],
    ])
    expect(composition.tabs.ton.find((t) => t.id === "swap")?.tooltip).toBeDefined()
    expect(composition.tabs.custodial).toHaveLength(0)
  })

  it("takes its chain endpoints from the region config", () => {
    expect(composition.pluginConfig.get("ton-space")).toEqual({ chainApiUrl: "https://chain.example" })
  })
})
