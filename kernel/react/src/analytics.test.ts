import { describe, expect, it } from "vitest"
import { makeAnalytics, recordingSink } from "@wallet/kernel"
import { trackScreenViews } from "./analytics.ts"

describe("trackScreenViews", () => {
  it("sends one screen_view per shown route with the composed route's global id", () => {
    const recording = recordingSink()
    let n = 0
    const analytics = makeAnalytics({
      now: () => 0,
      newId: () => `id-${++n}`,
      clientId: "c",
      version: "0.1.0",
      base: {
        platform: "ios",
        tg_sdk_version: "8.0",
        bot_language: "en",
        is_new_user: false,
        scw_user_id: null,
        client_timezone: "UTC",
        initiate_method: "direct",
      },
      declared: new Set(["screen_view"]),
      onUndeclared: (name) => {
        throw new Error(name)
      },
      streamOf: () => "custodial",
      sink: recording.sink,
      production: false,
    })
    analytics.identify(1)
    const listeners: Array<() => void> = []
    const state = { matches: [{ routeId: "/_wallet/main", fullPath: "/main" }], location: { pathname: "/main" } }
    const router = {
      state,
      subscribe: (_: "onResolved", listener: (event: { pathChanged: boolean }) => void) => (
        listeners.push(() => listener({ pathChanged: true })),
        () => undefined
      ),
    }
    trackScreenViews(router, analytics, {
      routes: [
        { fullPath: "/main", globalId: "home/main" },
        { fullPath: "/assets/$assetCurrency", globalId: "custody/asset" },
      ] as never,
    })
    const show = (routeId: string, fullPath: string, pathname: string) => {
      state.matches = [{ routeId, fullPath }]
      state.location = { pathname }
      for (const listener of listeners) listener()
    }
    show("/_wallet/main", "/main", "/main") // the same screen resolved again: no second view
    show("/_wallet/assets/$assetCurrency", "/assets/$assetCurrency", "/assets/TON")
    show("/error", "/error", "/error")
    expect(recording.events.map((e) => e.eventProperties)).toEqual([
      expect.objectContaining({ route: "home/main", path: "/main" }),
      expect.objectContaining({ route: "custody/asset", path: "/assets/TON" }),
      expect.objectContaining({ route: "/error", path: "/error" }),
    ])
  })
})
