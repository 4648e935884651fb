import { describe, expect, it } from "vitest"
import { composePlugins, defineRegion } from "@wallet/kernel"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import { passcodePlugin } from "@wallet/plugin-passcode/manifest"
import { tonSpacePlugin } from "./manifest.ts"

describe("ton-space manifest", () => {
  // ton-space depends on custody and passcode (its manifest's dependsOn).
  const composition = composePlugins({
    region: defineRegion({
      id: "test",
      plugins: { custody: { enabled: true }, passcode: { enabled: true }, "ton-space": { enabled: true, config: { chainApiUrl: "https://chain.example" } } },
      defaults: { language: "en", fiatCurrency: "USD" },
    }),
    installed: [custodyPlugin, passcodePlugin, tonSpacePlugin],
  })

  it("mounts every screen under /scw with the spec's paths", () => {
    const paths = composition.routes.filter((r) => r.pluginId === "ton-space").map((r) => r.fullPath)
    expect(paths.every((p) => p === "/scw" || p.startsWith("/scw/"))).toBe(true)
    for (const path of [
      "/scw",
      "/scw/backup/manual",
      "/scw/backup/test",
      "/scw/import/mnemonic",
      "/scw/qr",
      "/scw/send",
      "/scw/send-ton-confirmation",
      "/scw/send-jetton-confirmation",
      "/scw/tx/$eventId",
      "/scw/settings/logout",
    ])
      expect(paths).toContain(path)
  })

  it("declares the TON tab bar Main, Swap, Earn with the swap tooltip", () => {
    expect(composition.tabs.ton.map((t) => [t.id, t.to])).toEqual([
      ["main", "/scw"],
      ["swap", "/scw/swap"],
      ["earn", "/scw/earn"],
    ])
    expect(composition.tabs.ton.find((t) => t.id === "swap")?.tooltip).toBeDefined()
    expect(composition.tabs.custodial.filter((t) => t.pluginId === "ton-space")).toHaveLength(0)
  })

  it("takes its chain endpoints from the region config", () => {
    expect(composition.pluginConfig.get("ton-space")).toEqual({ chainApiUrl: "https://chain.example" })
  })
})
