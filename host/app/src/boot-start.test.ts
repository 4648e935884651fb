import { describe, expect, it } from "vitest"
import { isStartPath, startNamespaces } from "./boot-start.ts"

const composition = {
  routes: [
    { fullPath: "/main", pluginId: "home" },
    { fullPath: "/settings", pluginId: "settings" },
  ],
  plugins: [
    { id: "home", i18n: { namespace: "home" } },
    { id: "custody", i18n: { namespace: "custody" } },
    { id: "settings", i18n: { namespace: "settings" } },
    { id: "silent" },
  ],
  main: {
    topBar: [{ pluginId: "custody" }, { pluginId: "settings" }],
    actions: [{ pluginId: "custody" }, { pluginId: "silent" }],
    sections: [{ pluginId: "settings" }],
  },
} as never

describe("what the boot starts early for wallet main (decision 0007)", () => {
  it("loads the strings of main's plugin and of the plugins with buttons on it, each once, at the start paths", () => {
    expect(startNamespaces(composition, "/")).toEqual(["home", "custody", "settings"])
    expect(startNamespaces(composition, "/main")).toEqual(["home", "custody", "settings"])
  })

  it("loads nothing early elsewhere", () => {
    expect(startNamespaces(composition, "/settings")).toEqual([])
    expect(isStartPath("/assets/TON")).toBe(false)
  })
})
