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

describe("resolveStartParam with patterns (decision 0380)", () => {
  const address = "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG"
  const links: ComposedDeepLink[] = [
    { pluginId: "ton-space", prefix: "tonwallet_send", exact: true, to: "/scw/send" },
    {
      pluginId: "ton-space",
      prefix: "tonwallet_send_",
      pattern: "(?<address>[\\w-]{48})_(?<value>\\d{1,30})",
      to: "/scw/send-ton-confirmation",
      search: { asset: "TON", to: "{address}", amount: "{value}" },
    },
    { pluginId: "ton-space", prefix: "tonwallet_send_", to: "/scw/send", search: { to: "{rest}" } },
    { pluginId: "ton-space", prefix: "collectible_", to: "/scw/collectible/$address", params: { address: "{rest}" } },
  ]

  it("a send link with address and value opens the confirmation, even when the address holds '_'", () => {
    const withUnderscore = `${address.slice(0, 10)}_${address.slice(11)}`
    expect(resolveStartParam(links, `tonwallet_send_${withUnderscore}_1500000000`)).toMatchObject({
      to: "/scw/send-ton-confirmation",
      search: { asset: "TON", to: withUnderscore, amount: "1500000000" },
    })
  })

  it("a send link missing the value falls back to the send form", () => {
    expect(resolveStartParam(links, `tonwallet_send_${address}`)).toMatchObject({ to: "/scw/send", search: { to: address } })
    expect(resolveStartParam(links, "tonwallet_send")).toMatchObject({ to: "/scw/send", search: {} })
  })

  it("a route parameter left empty is not-found rather than a broken path", () => {
    expect(resolveStartParam(links, "collectible_")).toEqual({ kind: "not-found", startParam: "collectible_" })
    expect(resolveStartParam(links, `collectible_${address}`)).toMatchObject({ to: `/scw/collectible/${address}` })
  })
})
