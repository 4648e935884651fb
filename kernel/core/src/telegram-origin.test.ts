import { afterEach, describe, expect, it } from "vitest"
import {
  DEFAULT_TELEGRAM_TARGET_ORIGIN,
  setTelegramTargetOrigin,
  telegramTargetOrigin,
  telegramTargetOriginInUse,
  webBridge,
} from "./telegram.ts"

const DEV = "http://127.0.0.1:5173"

describe("the mini-app's Telegram target origin (issue 15: never '*')", () => {
  it("is the parent frame's origin when it is Telegram Web", () => {
    expect(telegramTargetOrigin({ ownOrigin: "https://wallet.example.org", ancestorOrigins: ["https://web.telegram.org"] })).toBe("https://web.telegram.org")
    expect(telegramTargetOrigin({ ownOrigin: "https://wallet.example.org", ancestorOrigins: ["https://webk.telegram.org"] })).toBe("https://webk.telegram.org")
    // Browsers without ancestorOrigins: the referrer names the parent page.
    expect(telegramTargetOrigin({ ownOrigin: "https://wallet.example.org", referrer: "https://webz.telegram.org/#@wallet" })).toBe("https://webz.telegram.org")
  })

  it("is the dev launch page's origin when the app runs inside it (the same origin)", () => {
    expect(telegramTargetOrigin({ ownOrigin: DEV, ancestorOrigins: [DEV] })).toBe(DEV)
    expect(telegramTargetOrigin({ ownOrigin: DEV, referrer: `${DEV}/launch.html?autostart=1` })).toBe(DEV)
    // A launch page on another origin only when configured.
    expect(telegramTargetOrigin({ ownOrigin: DEV, ancestorOrigins: ["http://127.0.0.1:6000"] })).toBe(DEFAULT_TELEGRAM_TARGET_ORIGIN)
    expect(telegramTargetOrigin({ ownOrigin: DEV, ancestorOrigins: ["http://127.0.0.1:6000"] }, [" http://127.0.0.1:6000 ", ""])).toBe("http://127.0.0.1:6000")
  })

  it("falls back to Telegram Web for any other parent, and when nothing is known", () => {
    for (const facts of [
      { ownOrigin: DEV, ancestorOrigins: ["https://evil.example"] },
      { ownOrigin: DEV, ancestorOrigins: ["https://web.telegram.org.evil.example"] },
      { ownOrigin: DEV, referrer: "https://evil.example/web.telegram.org" },
      { ownOrigin: DEV, referrer: "not a url" },
      { ownOrigin: DEV, ancestorOrigins: ["null"] },
      { ownOrigin: DEV },
    ]) {
      expect(telegramTargetOrigin(facts)).toBe(DEFAULT_TELEGRAM_TARGET_ORIGIN)
    }
  })

  it("refuses '*' and anything that is not an origin", () => {
    for (const bad of ["*", "", "web.telegram.org", "https://web.telegram.org/k/", "javascript:alert(1)", "https://*.telegram.org"]) {
      expect(() => setTelegramTargetOrigin(bad), bad).toThrow(/must be an origin/)
    }
    expect(telegramTargetOriginInUse()).toBe(DEFAULT_TELEGRAM_TARGET_ORIGIN)
  })
})

describe("the web bridge in a frame", () => {
  const original = (globalThis as { window?: unknown }).window
  afterEach(() => {
    ;(globalThis as { window?: unknown }).window = original
    setTelegramTargetOrigin(DEFAULT_TELEGRAM_TARGET_ORIGIN)
  })

  it("posts to the target origin only, and hears only the parent on that origin", () => {
    const posted: Array<[string, string]> = []
    const parent = { postMessage: (data: string, origin: string) => void posted.push([data, origin]) }
    const handlers: Array<(event: { source: unknown; origin: string; data: unknown }) => void> = []
    ;(globalThis as { window?: unknown }).window = { parent, addEventListener: (_: string, h: (typeof handlers)[number]) => void handlers.push(h) }
    setTelegramTargetOrigin(DEV)
    webBridge.postEvent("web_app_ready")
    expect(posted).toEqual([[JSON.stringify({ eventType: "web_app_ready", eventData: {} }), DEV]])

    const heard: Array<unknown> = []
    webBridge.on("theme_changed", (payload) => heard.push(payload))
    const message = JSON.stringify({ eventType: "theme_changed", eventData: { theme_params: { bg_color: "#000000" } } })
    for (const handler of handlers) {
      handler({ source: parent, origin: "https://evil.example", data: message })
      handler({ source: {}, origin: DEV, data: message })
      handler({ source: parent, origin: DEV, data: message })
    }
    expect(heard).toEqual([{ theme_params: { bg_color: "#000000" } }])
  })
})
