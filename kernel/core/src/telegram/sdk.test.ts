// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Telegram, type LaunchParams } from "../telegram.ts"
import { connectTelegramSdk, insetCssVars, SECURE_STORAGE_TIMEOUT_MS } from "./sdk.ts"

/**
 * A fake phone client under the real SDK: the app posts through `window.TelegramWebviewProxy` (as in
 * the iOS and Android clients) and the client answers through `Telegram.WebView.receiveEvent`, which
 * the SDK installs.
 */
const phone = (version: string, options: { silent?: boolean } = {}) => {
  const calls: Array<{ method: string; params: Record<string, unknown> }> = []
  const secure = new Map<string, string>()
  const answer = (eventType: string, eventData: unknown) =>
    queueMicrotask(() =>
      (window as unknown as { Telegram: { WebView: { receiveEvent: (t: string, d: unknown) => void } } }).Telegram.WebView.receiveEvent(eventType, eventData),
    )
  ;(window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy = {
    postEvent: (method: string, json: string) => {
      const params = json ? (JSON.parse(json) as Record<string, unknown>) : {}
      calls.push({ method, params })
      if (options.silent) return
      const reqId = params.req_id
      if (method === "web_app_secure_storage_save_key") {
        if (params.value === null) secure.delete(String(params.key))
        else secure.set(String(params.key), String(params.value))
        answer("secure_storage_key_saved", { req_id: reqId })
      } else if (method === "web_app_secure_storage_get_key")
        answer("secure_storage_key_received", { req_id: reqId, value: secure.get(String(params.key)) ?? null, can_restore: false })
      else if (method === "web_app_device_storage_get_key") answer("device_storage_failed", { req_id: reqId, error: "UNKNOWN_ERROR" })
      else if (method === "web_app_invoke_custom_method") answer("custom_method_invoked", { req_id: reqId, result: { currency: "EUR" } })
      else if (method === "web_app_request_safe_area") answer("safe_area_changed", { top: 47, bottom: 34, left: 0, right: 0 })
      else if (method === "web_app_request_content_safe_area") answer("content_safe_area_changed", { top: 56, bottom: 0, left: 0, right: 0 })
      else if (method === "web_app_request_theme") answer("theme_changed", { theme_params: { bg_color: "#17212b" } })
    },
  }
  const launchParams: LaunchParams = { platform: "ios", version, themeParams: { bg_color: "#ffffff" } }
  const style = new Map<string, string>()
  const client = connectTelegramSdk({ launchParams, style: { setProperty: (name, value) => void style.set(name, value) } })
  return { telegram: Telegram.make(launchParams, client), calls, secure, style }
}

describe("the Telegram service on @tma.js/sdk", () => {
  beforeEach(() => vi.useRealTimers())
  afterEach(() => {
    delete (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy
  })

  it("keeps SecureStorage values on a 9.0 client, through the SDK's requests", async () => {
    const { telegram, calls, secure } = phone("9.0")
    await expect(telegram.secureStorage.set("vault", "sealed")).resolves.toBe(true)
    expect(secure.get("vault")).toBe("sealed")
    await expect(telegram.secureStorage.get("vault")).resolves.toBe("sealed")
    await expect(telegram.secureStorage.remove("vault")).resolves.toBe(true)
    await expect(telegram.secureStorage.get("vault")).resolves.toBeNull()
    expect(calls.filter((c) => c.method.startsWith("web_app_secure_storage")).every((c) => typeof c.params.req_id === "string")).toBe(true)
  })

  it("never asks an 8.0 client for SecureStorage", async () => {
    const { telegram, calls } = phone("8.0")
    await expect(telegram.secureStorage.set("vault", "sealed")).resolves.toBeNull()
    expect(calls.some((c) => c.method.startsWith("web_app_secure_storage"))).toBe(false)
  })

  it("maps a DeviceStorage failure to null and reads CloudStorage through a custom method", async () => {
    const { telegram } = phone("9.0")
    await expect(telegram.deviceStorage.get("serial")).resolves.toBeNull()
    await expect(telegram.cloudStorage.get("currency")).resolves.toBe("EUR")
  })

  it("gives up on SecureStorage after 5000 ms when the client never answers", async () => {
    vi.useFakeTimers()
    const { telegram } = phone("9.0", { silent: true })
    const read = telegram.secureStorage.get("vault")
    await vi.advanceTimersByTimeAsync(SECURE_STORAGE_TIMEOUT_MS + 1)
    await expect(read).resolves.toBeNull()
  })

  it("asks for the insets and keeps them as CSS variables; delivers theme changes", async () => {
    const { telegram, style } = phone("8.0")
    await vi.waitFor(() => expect(style.get("--tg-safe-area-inset-top")).toBe("47px"))
    await vi.waitFor(() => expect(style.get("--tg-content-safe-area-inset-top")).toBe("56px"))
    expect(style.get("--tg-safe-area-inset-bottom")).toBe("34px")
    const seen: string[] = []
    telegram.theme.onChange((theme) => seen.push(theme.bg_color!))
    telegram.call("web_app_request_theme")
    await vi.waitFor(() => expect(seen).toEqual(["#17212b"]))
  })

  it("turns insets into CSS variables, zero for anything missing or bad", () => {
    expect(insetCssVars("safe-area", { top: 20, left: -3 })).toEqual({
      "--tg-safe-area-inset-top": "20px",
      "--tg-safe-area-inset-right": "0px",
      "--tg-safe-area-inset-bottom": "0px",
      "--tg-safe-area-inset-left": "0px",
    })
  })
})
