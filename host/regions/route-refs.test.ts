import { describe, expect, it } from "vitest"
import { checkComposition, routeRef, unknownRouteRefs, type RouteRef } from "@wallet/kernel"
import { loadInstalledPlugins, regionById } from "./index.ts"

/**
 * Decision 0170: every plugin declares the routes it navigates to as typed references in its
 * `./routes` export. Composing the default region here catches a renamed or removed route at test
 * time instead of at a user's tap, and a reference whose search check is not its route's.
 */
const installed = await loadInstalledPlugins()
const composition = checkComposition({ region: regionById("default"), installed })
const fullPaths = composition.routes.map((route) => route.fullPath)

/** Each enabled plugin's references (a plugin without a `./routes` export has none). */
const refsByPlugin = await Promise.all(
  installed.map(async (plugin) => {
    const name = plugin.packageName ?? plugin.id
    const module = (await import(/* @vite-ignore */ `${name}/routes`).catch(() => ({}))) as { readonly routeRefs?: ReadonlyArray<RouteRef<string, any>> }
    return { id: plugin.id, name, refs: module.routeRefs ?? [] }
  }),
)

const pattern = (path: string) => path.replace(/\$[\w]+/g, "$")

describe("route references (issue 14: typed routes instead of `as never` casts)", () => {
  it("the plugins declare their references in ./routes", () => {
    for (const id of ["home", "settings", "passcode", "custody", "ton-space", "tonconnect", "kyc", "p2p", "trade", "exchange"]) {
      expect(refsByPlugin.find((p) => p.id === id)?.refs.length ?? 0, id).toBeGreaterThan(0)
    }
  })

  it("every reference of every plugin names a route of the composed default region", () => {
    const all = refsByPlugin.flatMap((p) => p.refs)
    expect(unknownRouteRefs(all, fullPaths)).toEqual([])
    // The check is not vacuous: a reference to a renamed route is reported.
    expect(unknownRouteRefs([...all, routeRef("/assets/$assetCurrency/gone")], fullPaths)).toEqual(["/assets/$assetCurrency/gone"])
  })

  it("a reference to a plugin's own route carries that route's search check (the same object)", () => {
    let compared = 0
    for (const { id, refs } of refsByPlugin) {
      for (const ref of refs) {
        const route = composition.routes.find((r) => pattern(r.fullPath === "/" ? r.fullPath : r.fullPath.replace(/\/+$/, "")) === pattern(ref.path))
        if (route?.pluginId !== id) continue
        expect(ref.search, `${id}: ${ref.path}`).toBe(route.search)
        compared += 1
      }
    }
    expect(compared).toBeGreaterThan(40)
  })
})
