import { describe, expect, it, vi } from "vitest"
import { colorSchemeOf, EXPAND_INTERVAL_MS, methodSupported as kernelVersionGate, recordingBridge, Telegram, themeCssVars } from "./telegram.ts"

const make = (version = "8.0") => {
  const recorder = recordingBridge()
  const telegram = Telegram.make({ platform: "android", version, themeParams: { bg_color: "#ffffff" } }, recorder.bridge)
  return { telegram, recorder }
}

describe("Telegram", () => {
  it("skips and reports methods the client version does not support", () => {
    const { telegram, recorder } = make()
    recorder.unsupported.add("web_app_setup_secondary_button")
    telegram.secondaryButton.setParams({ text: "Cancel", isVisible: true, isActive: true, isProgressVisible: false })
    expect(recorder.calls).toEqual([])
    expect(telegram.call("web_app_ready")).toBe(true)
    expect(recorder.calls).toEqual([{ method: "web_app_ready", params: undefined }])
  })

  it("expands every 500 ms until the viewport reports expanded", () => {
    vi.useFakeTimers()
    try {
      const { telegram, recorder } = make()
      telegram.expandUntilExpanded()
      const expands = () => recorder.calls.filter((c) => c.method === "web_app_expand").length
      expect(expands()).toBe(1)
      vi.advanceTimersByTime(EXPAND_INTERVAL_MS * 2)
      expect(expands()).toBe(3)
      recorder.emit("viewport_changed", { height: 700, is_expanded: true, is_state_stable: true })
      vi.advanceTimersByTime(EXPAND_INTERVAL_MS * 4)
      expect(expands()).toBe(3)
      expect(telegram.viewport.current()).toEqual({ height: 700, isExpanded: true, isStateStable: true })
    } finally {
      vi.useRealTimers()
    }
  })

  it("sends bottom-button params in Telegram's shape and hides a button without text", () => {
    const { telegram, recorder } = make()
    telegram.mainButton.setParams({ text: "Send", isVisible: true, isActive: false, isProgressVisible: true, color: "#2481cc" })
    telegram.mainButton.setParams({ text: " ", isVisible: true, isActive: true, isProgressVisible: false })
    expect(recorder.calls.map((c) => c.params)).toEqual([
      { text: "Send", is_visible: true, is_active: false, is_progress_visible: true, color: "#2481cc" },
      { text: " ", is_visible: false, is_active: true, is_progress_visible: false },
    ])
  })

  it("resolves a popup with the pressed button id and a QR scan with the accepted text", async () => {
    const { telegram, recorder } = make()
    const popup = telegram.popup({
      message: "Sure?",
      buttons: [
        { id: "ok", type: "ok" },
        { id: "cancel", type: "cancel" },
      ],
    })
    recorder.emit("popup_closed", { button_id: "ok" })
    await expect(popup).resolves.toBe("ok")
    const scan = telegram.scanQr({ onText: (text) => text.startsWith("ton://") })!
    recorder.emit("qr_text_received", { data: "garbage" })
    recorder.emit("qr_text_received", { data: "ton://transfer/EQabc" })
    await expect(scan).resolves.toBe("ton://transfer/EQabc")
    expect(recorder.calls.map((c) => c.method)).toEqual(["web_app_open_popup", "web_app_open_scan_qr_popup", "web_app_close_scan_qr_popup"])
  })

  it("maps haptics to Telegram's params and tracks theme changes", () => {
    const { telegram, recorder } = make()
    telegram.haptic({ type: "notification", kind: "error" })
    expect(recorder.calls[0]).toEqual({ method: "web_app_trigger_haptic_feedback", params: { type: "notification", notification_type: "error" } })
    const seen: string[] = []
    telegram.theme.onChange((t) => seen.push(t.bg_color!))
    recorder.emit("theme_changed", { theme_params: { bg_color: "#000000" } })
    expect(seen).toEqual(["#000000"])
    expect(telegram.theme.current()).toEqual({ bg_color: "#000000" })
  })

  it("derives CSS vars and the colour scheme from theme params", () => {
    expect(themeCssVars({ bg_color: "#fff", secondary_bg_color: "#eee" })).toEqual({ "--tg-theme-bg-color": "#fff", "--tg-theme-secondary-bg-color": "#eee" })
    expect(colorSchemeOf({ bg_color: "#17212b" })).toBe("dark")
    expect(colorSchemeOf({ bg_color: "#ffffff" })).toBe("light")
  })
})

describe("parseLaunchParams", () => {
  it("reads Telegram's hash: platform, version, raw initData, theme, start param and the user's language", async () => {
    const { parseLaunchParams } = await import("./telegram.ts")
    const initData = new URLSearchParams({
      user: JSON.stringify({ id: 7, language_code: "ru" }),
      auth_date: "1",
      start_param: "settings",
      hash: "ab",
    }).toString()
    const hash = `#${new URLSearchParams({ tgWebAppData: initData, tgWebAppVersion: "8.0", tgWebAppPlatform: "android", tgWebAppThemeParams: JSON.stringify({ bg_color: "#000000" }) })}`
    expect(parseLaunchParams(hash)).toEqual({
      platform: "android",
      version: "8.0",
      startParam: "settings",
      initDataRaw: initData,
      themeParams: { bg_color: "#000000" },
      languageCode: "ru",
      userId: 7,
    })
    expect(parseLaunchParams("#foo=bar")).toBeUndefined()
  })
})

describe("the version gate before the SDK arrives", () => {
  it("compares versions numerically and refuses unknown methods", async () => {
    const { versionAtLeast, methodSupported } = await import("./telegram.ts")
    expect(versionAtLeast("6.10", "6.9")).toBe(true)
    expect(versionAtLeast("6.9", "6.10")).toBe(false)
    expect(versionAtLeast("7.0", "7")).toBe(true)
    expect(methodSupported("web_app_setup_settings_button", "6.9")).toBe(false)
    expect(methodSupported("web_app_setup_settings_button", "6.10")).toBe(true)
    expect(methodSupported("web_app_setup_secondary_button", "8.0")).toBe(true)
    expect(methodSupported("web_app_secure_storage_get_key", "8.0")).toBe(false)
    expect(methodSupported("web_app_secure_storage_get_key", "9.0")).toBe(true)
    expect(methodSupported("web_app_made_up", "9.9")).toBe(false)
  })
})

describe("Telegram storage", () => {
  it("reaches the client's CloudStorage, DeviceStorage and SecureStorage (9.0)", async () => {
    const recorder = recordingBridge()
    const telegram = Telegram.make({ platform: "ios", version: "9.0", themeParams: {} }, recorder.client)
    await expect(telegram.cloudStorage.set("currency", "EUR")).resolves.toBe(true)
    await expect(telegram.cloudStorage.get("currency")).resolves.toBe("EUR")
    await expect(telegram.secureStorage.set("vault", "sealed")).resolves.toBe(true)
    expect(recorder.values.secure.get("vault")).toBe("sealed")
    await expect(telegram.deviceStorage.get("device_id")).resolves.toBeNull()
  })

  it("answers null without reaching a client that lacks the method", async () => {
    const recorder = recordingBridge()
    recorder.unsupported.add("web_app_device_storage_get_key")
    recorder.unsupported.add("web_app_secure_storage_get_key")
    const telegram = Telegram.make({ platform: "ios", version: "8.0", themeParams: {} }, recorder.client)
    await expect(telegram.deviceStorage.get("x")).resolves.toBeNull()
    await expect(telegram.secureStorage.set("vault", "sealed")).resolves.toBeNull()
    expect(recorder.values.secure.size).toBe(0)
    expect(recorder.calls).toEqual([])
  })
})

describe("closing confirmation and invoices", () => {
  it("sets the closing behaviour and resolves an invoice with the status of its own slug", async () => {
    const { telegram, recorder } = make()
    expect(telegram.setClosingConfirmation(true)).toBe(true)
    expect(recorder.calls.at(-1)).toEqual({ method: "web_app_setup_closing_behavior", params: { need_confirmation: true } })
    const paid = telegram.openInvoice("https://t.me/$abc123")
    expect(recorder.calls.at(-1)).toEqual({ method: "web_app_open_invoice", params: { slug: "abc123" } })
    recorder.emit("invoice_closed", { slug: "other", status: "cancelled" })
    recorder.emit("invoice_closed", { slug: "abc123", status: "paid" })
    await expect(paid).resolves.toBe("paid")
  })
})

describe("the shared contact", () => {
  const RAW = "contact=%7B%22user_id%22%3A7%2C%22phone_number%22%3A%224915112345678%22%2C%22first_name%22%3A%22Ann%22%7D&auth_date=1767225600&hash=ab12"

  /**
   * A client that answers as Telegram does: `phone_requested` with `status`, then each
   * `getRequestedContact` with the next of `results` (the last one repeats).
   */
  const contactClient = (options: { status: "sent" | "cancelled"; results: ReadonlyArray<string>; version?: string }) => {
    const recorder = recordingBridge()
    let asked = 0
    const client = {
      ...recorder.client,
      // The version gate of the kernel's table, as before the SDK: 6.9 for the phone request.
      supports: kernelVersionGate,
      postEvent: (method: string, params?: Record<string, unknown>) => {
        recorder.client.postEvent(method, params)
        if (method === "web_app_request_phone") recorder.emit("phone_requested", { status: options.status })
        if (method === "web_app_invoke_custom_method" && params?.method === "getRequestedContact") {
          const result = options.results[Math.min(asked++, options.results.length - 1)]
          recorder.emit("custom_method_invoked", { req_id: params.req_id, result })
        }
      },
    }
    const telegram = Telegram.make({ platform: "ios", version: options.version ?? "8.0", themeParams: {} }, client)
    return { telegram, calls: recorder.calls }
  }

  it("resolves with the raw signed contact once the user shared it", async () => {
    const { telegram, calls } = contactClient({ status: "sent", results: [RAW] })
    await expect(telegram.requestContact()).resolves.toBe(RAW)
    expect(calls.map((c) => c.method)).toEqual(["web_app_request_phone", "web_app_invoke_custom_method"])
    expect(calls[0]!.params).toBeUndefined()
    expect(calls[1]!.params).toEqual({ req_id: expect.any(String), method: "getRequestedContact", params: {} })
  })

  it("resolves null when the user declines, without asking for the contact", async () => {
    const { telegram, calls } = contactClient({ status: "cancelled", results: [RAW] })
    await expect(telegram.requestContact()).resolves.toBeNull()
    expect(calls.map((c) => c.method)).toEqual(["web_app_request_phone"])
  })

  it("asks again while the contact has not reached the client, and gives up after five empty answers", async () => {
    vi.useFakeTimers()
    try {
      const late = contactClient({ status: "sent", results: ["", RAW] })
      const contact = late.telegram.requestContact()
      await vi.advanceTimersByTimeAsync(400)
      await expect(contact).resolves.toBe(RAW)
      expect(late.calls.filter((c) => c.method === "web_app_invoke_custom_method")).toHaveLength(2)
      const never = contactClient({ status: "sent", results: [""] })
      const none = never.telegram.requestContact()
      await vi.advanceTimersByTimeAsync(400 * 5)
      await expect(none).resolves.toBeNull()
      expect(never.calls.filter((c) => c.method === "web_app_invoke_custom_method")).toHaveLength(5)
    } finally {
      vi.useRealTimers()
    }
  })

  it("resolves null on a client older than 6.9, sending nothing", async () => {
    const { telegram, calls } = contactClient({ status: "sent", results: [RAW], version: "6.4" })
    await expect(telegram.requestContact()).resolves.toBeNull()
    expect(calls).toEqual([])
  })
})
