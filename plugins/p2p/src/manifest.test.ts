import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, composePlugins, defineRegion, resolveStartParam } from "@wallet/kernel"
import { custodyPlugin } from "@wallet/plugin-custody/manifest"
import makerEn from "./i18n/maker.en.json"
import makerRu from "./i18n/maker.ru.json"
import expressEn from "./i18n/express.en.json"
import expressRu from "./i18n/express.ru.json"
import marketEn from "./i18n/market.en.json"
import marketRu from "./i18n/market.ru.json"
import { p2pPlugin } from "./manifest.ts"

const region = (config?: Record<string, unknown>) =>
  defineRegion({ id: "test", plugins: { custody: { enabled: true }, p2p: { enabled: true, ...(config ? { config } : {}) } } })
const compose = (config?: Record<string, unknown>) => composePlugins({ region: region(config), installed: [custodyPlugin, p2pPlugin] })

describe("p2p manifest", () => {
  it("composes the P2P routes of spec 3 §2.1, the tab and the strip", () => {
    const composed = compose({ title: "Mine", makerFeeBps: 90 })
    const paths = composed.routes.filter((route) => route.pluginId === "p2p").map((route) => route.fullPath)
    expect(paths).toEqual([
      "/p2p",
      "/p2p/unavailable",
      "/p2p/trusted-merchant-application",
      "/p2p/export-order-history",
      "/p2p/offers/list/$type",
      "/p2p/offers/create",
      "/p2p/offers/unavailable",
      "/p2p/offers/$id",
      "/p2p/offers/$id/edit",
      "/p2p/offers/$id/preview",
      "/p2p/offers/$id/success",
      "/p2p/offers/$id/start-param-landing",
      "/p2p/offers/$id/select-payment",
      "/p2p/orders/$id",
      "/p2p/orders/$id/details",
      "/p2p/orders/$id/success",
      "/p2p/orders/$id/confirm-sent-payment",
      "/p2p/orders/$id/confirm-received-payment",
      "/p2p/orders/$id/help",
      "/p2p/orders/$id/help/$issueType",
      "/p2p/orders/$id/chat",
      "/p2p/user",
      "/p2p/user/payments",
      "/p2p/user/payments/new",
      "/p2p/user/payments/new/select-fiat-currency",
      "/p2p/user/payments/create",
      "/p2p/user/payments/$id/edit",
      "/p2p/user/$id/notifications",
      "/p2p/express/onboarding",
      "/p2p/express",
      "/p2p/express/$operation",
    ])
    expect(composed.tabs.custodial.find((tab) => tab.pluginId === "p2p")).toMatchObject({ to: "/p2p", permissions: ["canUseP2p"] })
    expect(composed.plugins.find((plugin) => plugin.id === "p2p")?.tabStrip?.permissions).toEqual(["canUseP2p"])
    expect(composed.pluginConfig.get("p2p")).toEqual({ title: "Mine", makerFeeBps: 90 })
  })

  it("start params open an offer's landing, an order, the ad lists (SALE by default) and the confirm screen", () => {
    const open = (startParam: string) => resolveStartParam(compose().deepLinks, startParam)
    expect(open("offerid_42_777")).toMatchObject({ to: "/p2p/offers/42/start-param-landing", search: { offerUserId: "777" } })
    expect(open("orderid_9")).toMatchObject({ to: "/p2p/orders/9" })
    expect(open("orderid_x")).toMatchObject({ kind: "not-found" })
    expect(open("marketads")).toMatchObject({ to: "/p2p/offers/list/SALE" })
    expect(open("marketads_PURCHASE")).toMatchObject({ to: "/p2p/offers/list/PURCHASE" })
    expect(open("p2pConfirmReceivedPayment_5")).toMatchObject({ to: "/p2p/orders/5/confirm-received-payment", search: { source: "notification" } })
    expect(open("p2pTrustedMerchantApplication")).toMatchObject({ to: "/p2p/trusted-merchant-application" })
  })

  it("issue 21: express start params open express mode, on a pair and a side when named", () => {
    const open = (startParam: string) => resolveStartParam(compose().deepLinks, startParam)
    expect(open("express")).toMatchObject({ to: "/p2p/express", search: {} })
    expect(open("express_USDT_RUB")).toMatchObject({ to: "/p2p/express", search: { crypto: "USDT", fiatCurrency: "RUB" } })
    expect(open("express_sell_TON_EUR")).toMatchObject({ to: "/p2p/express/sell", search: { crypto: "TON", fiatCurrency: "EUR" } })
    expect(open("express_DOGE_RUB")).toMatchObject({ kind: "not-found" })
  })

  it("express strings exist in English and Russian", () => {
    expect(bundleKeyDifferences(expressEn, expressRu)).toEqual({ missing: [], extra: [] })
  })

  it("refuses unknown config keys", () => {
    expect(() => compose({ colour: "red" })).toThrow("Invalid config for plugin 'p2p'")
    expect(() => compose({ trustedMerchant: { minOrders: 5 } })).toThrow("Invalid config for plugin 'p2p'")
    expect(compose({ trustedMerchant: { minCompletedOrders30d: 0, minAccountAgeDays: 0 } }).pluginConfig.get("p2p")).toMatchObject({
      trustedMerchant: { minCompletedOrders30d: 0 },
    })
  })

  it("every string exists in English and Russian", () => {
    expect(bundleKeyDifferences({ ...marketEn, ...makerEn }, { ...marketRu, ...makerRu })).toEqual({ missing: [], extra: [] })
  })
})
