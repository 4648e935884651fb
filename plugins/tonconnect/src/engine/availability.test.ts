import { describe, expect, it } from "vitest"
import { tonConnectPlatform, walletConnectAvailability } from "./availability.ts"

describe("wallet-connect availability", () => {
  it("is iOS or Android 6.4 and newer only", () => {
    expect(walletConnectAvailability("ios", "6.4")).toEqual({ available: true })
    expect(walletConnectAvailability("android", "10.0.1")).toEqual({ available: true })
    expect(walletConnectAvailability("android_x", "6.10")).toEqual({ available: true })
    expect(walletConnectAvailability("ios", "6.3.9")).toEqual({ available: false, reason: "version" })
    expect(walletConnectAvailability("android", "5.99")).toEqual({ available: false, reason: "version" })
    expect(walletConnectAvailability("ios", "beta")).toEqual({ available: false, reason: "version" })
    for (const platform of ["tdesktop", "macos", "weba", "webk", "unknown"]) {
      expect(walletConnectAvailability(platform, "11.0")).toEqual({ available: false, reason: "platform" })
    }
  })

  it("maps Telegram platforms to TonConnect's", () => {
    expect(["ios", "android_x", "macos", "tdesktop", "weba"].map(tonConnectPlatform)).toEqual(["iphone", "android", "mac", "windows", "browser"])
  })
})
