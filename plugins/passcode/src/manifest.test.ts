import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, composePlugins, defineRegion } from "@wallet/kernel"
import en from "./i18n/en.json"
import ru from "./i18n/ru.json"
import { passcodePlugin } from "./manifest.ts"
import { readPasscodeConfig } from "./server/config.ts"

const region = (config?: Record<string, unknown>) => defineRegion({ id: "test", plugins: { passcode: { enabled: true, ...(config ? { config } : {}) } } })

describe("passcode manifest", () => {
  it("composes in a region, and its region config is what the server reads", () => {
    const composed = composePlugins({ region: region({ maxPasscodeAttempts: 3, forcePasscodeUsdCents: 250_000 }), installed: [passcodePlugin] })
    const config = composed.pluginConfig.get("passcode") as object
    expect(readPasscodeConfig(config)).toMatchObject({ maxPasscodeAttempts: 3, forcePasscodeUsdCents: 250_000n })
  })

  it("refuses unknown or invalid config keys at composition", () => {
    expect(() => composePlugins({ region: region({ maxAttempts: 3 }), installed: [passcodePlugin] })).toThrow("Invalid config for plugin 'passcode'")
    expect(() => composePlugins({ region: region({ maxPasscodeAttempts: 0 }), installed: [passcodePlugin] })).toThrow("Invalid config for plugin 'passcode'")
  })

  it("has the spec's error texts in English and Russian with the same keys", () => {
    expect(en.errors).toMatchObject({
      rate_limit_exceeded: "Request limit exceeded",
      biometry_not_available: "Biometric is not available",
      biometry_not_granted: "Biometric access was not granted",
      biometry_not_updated: "Biometric was not updated",
    })
    for (const code of [
      "passcode_wrong",
      "passcode_exceeded_max_attempts",
      "passcode_missing",
      "source_email_missing",
      "code_not_found",
      "code_not_newest",
      "code_used",
      "wrong_code_reason",
      "expired_email_code",
    ]) {
      expect(en.errors).toHaveProperty(code)
      expect(ru.errors).toHaveProperty(code)
    }
    expect(Object.keys(ru.popup)).toEqual(Object.keys(en.popup))
  })

  it("every string exists in English and Russian (plural forms aside)", () => {
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
  })

  it("declares the spec's routes and provides the kernel Passcode service", () => {
    const composed = composePlugins({ region: region(), installed: [passcodePlugin] })
    expect(composed.routes.map((r) => r.fullPath)).toEqual(["/passcode/settings", "/scw/passcode/create"])
    expect(composed.providers.passcode?.pluginId).toBe("passcode")
  })
})
