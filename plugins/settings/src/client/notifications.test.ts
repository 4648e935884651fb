import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, bundleKeys } from "@wallet/kernel"
import en from "../i18n/en.json"
import ru from "../i18n/ru.json"
import { settingsPlugin } from "../manifest.ts"
import { isNotificationType, mergeSettings, NOTIFICATION_TYPES } from "./notifications.ts"

describe("notification settings", () => {
  it("lists every type in the spec's order; a type the server leaves out counts as on", () => {
    const merged = mergeSettings([{ type: "marketing", enabled: false }])
    expect([...merged.keys()]).toEqual(["market_trends", "product", "marketing", "educational", "feedback"])
    expect(merged.get("marketing")).toBe(false)
    expect(merged.get("product")).toBe(true)
  })
  it("accepts only the five types as a route param", () => {
    expect(NOTIFICATION_TYPES.every(isNotificationType)).toBe(true)
    expect(isNotificationType("spam")).toBe(false)
    expect(isNotificationType(undefined)).toBe(false)
  })
  it("the manifest declares both routes, the settings entry and the deep link", () => {
    expect(settingsPlugin.routes.map((r) => r.path)).toEqual(expect.arrayContaining(["/notifications", "/notifications/$type"]))
    expect(settingsPlugin.settings.find((s) => s.id === "notifications")?.to).toBe("/settings/notifications")
    expect(settingsPlugin.deepLinks.find((d) => d.prefix === "notifications")?.to).toBe("/settings/notifications")
    expect(settingsPlugin.dependsOn).toContain("custody")
  })
})

describe("settings strings", () => {
  it("en and ru have the same keys, with a title and description per notification type", () => {
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
    for (const type of NOTIFICATION_TYPES) {
      expect(bundleKeys(en)).toEqual(expect.arrayContaining([`notifications.types.${type}.title`, `notifications.types.${type}.description`]))
    }
  })
})
