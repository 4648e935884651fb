import { describe, expect, it } from "vitest"
import { hrefOf, routeRef, targetOf, unknownRouteRefs } from "./route-ref.ts"
import { enumParam, searchParams, stringParam } from "./search.ts"

const asset = routeRef("/assets/$assetCurrency", searchParams({ tab: enumParam(["history", "about"], "history"), from: stringParam }))
const settings = routeRef("/settings")

describe("route references", () => {
  it("fills params and leaves out undefined search fields", () => {
    expect(targetOf(asset, { params: { assetCurrency: "TON" }, search: { tab: "about", from: undefined }, replace: true })).toEqual({
      to: "/assets/$assetCurrency",
      params: { assetCurrency: "TON" },
      search: { tab: "about" },
      replace: true,
    })
    expect(targetOf(settings)).toEqual({ to: "/settings" })
  })

  it("builds hrefs with encoded params and the search", () => {
    expect(hrefOf(asset, { params: { assetCurrency: "a/b" }, search: { tab: "about" } })).toBe("/assets/a%2Fb?tab=about")
    expect(hrefOf(settings)).toBe("/settings")
  })

  it("types params and search from the path and the check", () => {
    // @ts-expect-error the path has a param, so params are required
    expect(() => hrefOf(asset)).toThrow("needs the param 'assetCurrency'")
    // @ts-expect-error an unknown param name
    targetOf(asset, { params: { currency: "TON" } })
    // @ts-expect-error a value outside the enumerated param
    targetOf(asset, { params: { assetCurrency: "TON" }, search: { tab: "chart" } })
    // @ts-expect-error a path without params takes none
    targetOf(settings, { params: { x: "1" } })
  })

  it("refuses a relative path", () => {
    expect(() => routeRef("settings")).toThrow("must be a full path")
  })

  it("names the references that match no composed route, whatever their param names", () => {
    const refs = [asset, settings, routeRef("/gone")]
    expect(unknownRouteRefs(refs, ["/settings/", "/assets/$code", "/main"])).toEqual(["/gone"])
  })
})
