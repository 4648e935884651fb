import { afterEach, describe, expect, it } from "vitest"
import { DEFAULT_TELEGRAM_TARGET_ORIGIN, setTelegramTargetOrigin, telegramTargetOrigin, telegramTargetOriginInUse } from "./telegram.ts"

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

describe("the SDK in a frame", () => {
  const original = (globalThis as { window?: unknown }).window
  afterEach(() => {
    ;(globalThis as { window?: unknown }).window = original
    setTelegramTargetOrigin(DEFAULT_TELEGRAM_TARGET_ORIGIN)
  })

  it("posts every message to the target origin in use, never to '*', and follows a later change", async () => {
    const posted: Array<[string, string]> = []
    const parent = { postMessage: (data: string, origin: string) => void posted.push([data, origin]) }
    // A page inside a frame (Telegram Web, the dev launch page): its top is not itself.
    ;(globalThis as { window?: unknown }).window = { self: {}, top: {}, parent, addEventListener: () => undefined, removeEventListener: () => undefined }
    setTelegramTargetOrigin(DEV)
    const { connectTelegramSdk } = await import("./telegram/sdk.ts")
    const client = connectTelegramSdk({ launchParams: { platform: "weba", version: "8.0", themeParams: {} }, style: { setProperty: () => undefined } })
    client.postEvent("web_app_ready")
    expect(posted).toContainEqual([JSON.stringify({ eventType: "web_app_ready" }), DEV])
    setTelegramTargetOrigin(DEFAULT_TELEGRAM_TARGET_ORIGIN)
    client.postEvent("web_app_expand")
    expect(posted.at(-1)).toEqual([JSON.stringify({ eventType: "web_app_expand" }), DEFAULT_TELEGRAM_TARGET_ORIGIN])
    expect(posted.length).toBeGreaterThan(2) // init's iframe_ready and the inset requests went the same way
    expect(posted.filter(([, origin]) => origin === "*")).toEqual([])
    expect(posted.every(([, origin]) => origin === DEV || origin === DEFAULT_TELEGRAM_TARGET_ORIGIN)).toBe(true)
  })
})
