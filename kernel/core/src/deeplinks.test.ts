import { describe, expect, it } from "vitest"
import type { ComposedDeepLink } from "./compose.ts"
import { resolveStartParam } from "./deeplinks.ts"

const table: ComposedDeepLink[] = [
  { pluginId: "settings", prefix: "settings", exact: true, to: "/settings" },
  { pluginId: "settings", prefix: "settings_language", exact: true, to: "/settings/language" },
  { pluginId: "kyc", prefix: "kyc_start_", to: "/kyc", search: { level: "{rest}" } },
  { pluginId: "p2p", prefix: "offerid_", to: "/p2p/offer/$id", params: { id: "{0}" }, search: { offerUserId: "{1}" } },
  { pluginId: "giveaway", prefix: "giveaway", exact: true, to: "/giveaway" },
  { pluginId: "giveaway", prefix: "giveawayUid_", to: "/giveaway/$uid", params: { uid: "{rest}" }, search: { searchBy: "giveaway" } },
]

describe("resolveStartParam", () => {
  it("prefers an exact handler", () => {
    expect(resolveStartParam(table, "settings_language")).toMatchObject({ kind: "route", to: "/settings/language", pluginId: "settings" })
    expect(resolveStartParam(table, "giveaway")).toMatchObject({ kind: "route", to: "/giveaway" })
  })

  it("fills params and search from the captures after the prefix", () => {
    expect(resolveStartParam(table, "offerid_42_777")).toEqual({
      kind: "route",
      pluginId: "p2p",
      prefix: "offerid_",
      to: "/p2p/offer/42",
      params: { id: "42" },
      search: { offerUserId: "777" },
    })
    expect(resolveStartParam(table, "kyc_start_LEVEL_1")).toMatchObject({ search: { level: "LEVEL_1" } })
    expect(resolveStartParam(table, "giveawayUid_abc-1")).toMatchObject({ to: "/giveaway/abc-1", search: { searchBy: "giveaway" } })
  })

  it("reports an unclaimed or malformed param as not-found", () => {
    expect(resolveStartParam(table, "tonconnect-v__2")).toEqual({ kind: "not-found", startParam: "tonconnect-v__2" })
    expect(resolveStartParam(table, "bad param!")).toEqual({ kind: "not-found", startParam: "bad param!" })
    expect(resolveStartParam(table, "settingsX")).toEqual({ kind: "not-found", startParam: "settingsX" })
  })
})
