import { describe, expect, it } from "vitest"
import { composePlugins, type SessionUser } from "@wallet/kernel"
import { loadInstalledPlugins, regionById } from "@wallet/regions"
import { shouldRestoreHistory, startupTarget } from "./startup.ts"

const composition = composePlugins({ region: regionById("default"), installed: await loadInstalledPlugins() })
const user = (overrides: Partial<SessionUser> = {}): SessionUser => ({
  id: 1,
  isNew: false,
  localCurrency: "USD",
  countryAlpha2Code: "DE",
  countryPhoneAlpha2Code: null,
  restrictionCode: null,
  subdivisionStatus: null,
  isCustodyAvailable: true,
  botUsername: "bot",
  botIsBlocked: false,
  abTests: {},
  permissions: {},
  createdAt: "",
  ...overrides,
})

describe("startupTarget", () => {
  it("opens main for an existing user and onboarding for a new one", () => {
    expect(startupTarget({ composition, user: user(), hasInitData: true })).toEqual({ to: "/main" })
    expect(startupTarget({ composition, user: user({ isNew: true }), hasInitData: true })).toEqual({ to: "/wallet-onboarding" })
  })

  it("follows a claimed deep link, and a new user may open settings directly", () => {
    expect(startupTarget({ composition, user: user(), hasInitData: true, startParam: "settings_language" })).toEqual({ to: "/settings/language", search: {} })
    expect(startupTarget({ composition, user: user({ isNew: true }), hasInitData: true, startParam: "settings" })).toEqual({ to: "/settings", search: {} })
  })

  it("lets a new user open a transfer link before onboarding (the receiver accepts first)", () => {
    const target = startupTarget({ composition, user: user({ isNew: true }), hasInitData: true, startParam: "tonwallet_tg_transfer_42" })
    expect(target.to.startsWith("/transfers")).toBe(true)
  })

  it("sends an unclaimed start param to main and reports it", () => {
    expect(startupTarget({ composition, user: user(), hasInitData: true, startParam: "giveaway" })).toEqual({ to: "/main", notFound: "giveaway" })
  })

  it("keeps restricted users on the restricted page and users without custody in the TON space", () => {
    expect(startupTarget({ composition, user: user({ restrictionCode: "unsupported_region" }), hasInitData: true, startParam: "settings" })).toEqual({
      to: "/unsupported_region",
    })
    expect(startupTarget({ composition, user: user({ restrictionCode: "unsupported_app_store" }), hasInitData: true })).toEqual({
      to: "/unsupported_app_store",
    })
    expect(startupTarget({ composition, user: user({ isCustodyAvailable: false }), hasInitData: true, startParam: "settings" })).toEqual({ to: "/scw" })
  })

  it("routes failures to their screen and a launch without initData to the client connection error", () => {
    expect(startupTarget({ composition, failure: { to: "/error", code: "auth_failed" }, hasInitData: true })).toEqual({
      to: "/error",
      search: { code: "auth_failed" },
    })
    expect(startupTarget({ composition, failure: { to: "/unavailable" }, hasInitData: true })).toEqual({ to: "/unavailable" })
    expect(startupTarget({ composition, hasInitData: false })).toEqual({ to: "/client-connection-error" })
  })

  // Decision 0380: the links of existing plugins through the startup rules.
  it("a public-asset link takes priority over onboarding for a new user", () => {
    expect(startupTarget({ composition, user: user({ isNew: true }), hasInitData: true, startParam: "public_asset_BTC" })).toEqual({
      to: "/assets-public/BTC",
      search: { source: "link" },
    })
    // Other custodial links still wait for onboarding.
    expect(startupTarget({ composition, user: user({ isNew: true }), hasInitData: true, startParam: "turn_on_passcode" })).toEqual({ to: "/wallet-onboarding" })
    expect(startupTarget({ composition, user: user(), hasInitData: true, startParam: "turn_on_passcode" })).toEqual({
      to: "/passcode/settings",
      search: { action: "create" },
    })
  })

  it("a TON space link applies to a restricted user and to a user without custody", () => {
    const address = "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG"
    const collectible = { to: `/scw/collectible/${address}`, search: {} }
    expect(
      startupTarget({ composition, user: user({ restrictionCode: "unsupported_region" }), hasInitData: true, startParam: `collectible_${address}` }),
    ).toEqual(collectible)
    expect(startupTarget({ composition, user: user({ isCustodyAvailable: false }), hasInitData: true, startParam: "tonwallet_settings" })).toEqual({
      to: "/scw/settings",
      search: {},
    })
    // A custodial link does not: the user stays in the TON space.
    expect(startupTarget({ composition, user: user({ isCustodyAvailable: false }), hasInitData: true, startParam: "assets_BTC" })).toEqual({ to: "/scw" })
  })

  it("the root search's public_asset takes priority over onboarding for a new user, like the link", () => {
    expect(startupTarget({ composition, user: user({ isNew: true }), hasInitData: true, publicAsset: "TON" })).toEqual({
      to: "/assets-public/TON",
      search: { source: "link" },
    })
    // A value that is no currency code is ignored.
    expect(startupTarget({ composition, user: user({ isNew: true }), hasInitData: true, publicAsset: "../x" })).toEqual({ to: "/wallet-onboarding" })
  })

  it("a crypto-onboarding link takes priority over onboarding for a new user", () => {
    const withLink = {
      ...composition,
      deepLinks: [...composition.deepLinks, { pluginId: "crypto-onboarding", prefix: "crypto_onboarding", to: "/crypto-onboarding" }],
    } as typeof composition
    expect(startupTarget({ composition: withLink, user: user({ isNew: true }), hasInitData: true, startParam: "crypto_onboarding" }).to).toBe(
      "/crypto-onboarding",
    )
  })

  it("content_unavailable_marks_restricted: a user marked restricted in this session stays on the unavailable page", () => {
    expect(startupTarget({ composition, user: user(), hasInitData: true, restricted: true, startParam: "settings" })).toEqual({ to: "/unavailable" })
  })

  it("the saved route history wins over the start-up default, never over a failure or restriction page", () => {
    const saved = { userId: 1, entries: ["/main", "/settings"], index: 1 }
    expect(shouldRestoreHistory({ to: "/main" }, saved)).toBe(true)
    expect(shouldRestoreHistory({ to: "/passcode/settings", search: { action: "create" } }, saved)).toBe(true)
    expect(shouldRestoreHistory({ to: "/main" }, undefined)).toBe(false)
    for (const to of ["/error", "/unavailable", "/unsupported_region", "/client-connection-error"]) expect(shouldRestoreHistory({ to }, saved)).toBe(false)
  })
})
