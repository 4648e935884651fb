import { describe, expect, it } from "vitest"
import { recordingBridge, Telegram, type TelegramClient } from "../telegram.ts"
import { deferredClient } from "./deferred.ts"

/** A client that arrives when the test says so (the SDK chunk loading). */
const later = () => {
  const recorder = recordingBridge()
  let arrive!: (client: TelegramClient) => void
  let fail!: (error: unknown) => void
  const loading = new Promise<TelegramClient>((resolve, reject) => {
    arrive = resolve
    fail = reject
  })
  return { recorder, loading, arrive: () => arrive(recorder.client), fail: (e: unknown) => fail(e) }
}

describe("calls made before the SDK arrives", () => {
  it("are queued and replayed in order when it arrives, and sent straight through after", async () => {
    const sdk = later()
    const telegram = Telegram.make({ platform: "ios", version: "8.0", themeParams: {} }, sdk.loading)
    telegram.ready()
    telegram.backButton.setVisible(true)
    telegram.mainButton.setParams({ text: "Send", isVisible: true, isActive: true, isProgressVisible: false })
    telegram.haptic({ type: "selection_change" })
    // Nothing reaches Telegram before the SDK is there.
    expect(sdk.recorder.calls).toEqual([])
    sdk.arrive()
    await expect(telegram.sdkReady).resolves.toBe(true)
    expect(sdk.recorder.calls.map((c) => c.method)).toEqual([
      "web_app_ready",
      "web_app_setup_back_button",
      "web_app_setup_main_button",
      "web_app_trigger_haptic_feedback",
    ])
    telegram.close()
    expect(sdk.recorder.calls.at(-1)?.method).toBe("web_app_close")
  })

  it("subscribes early listeners when the SDK arrives, so events reach them (and not the unsubscribed)", async () => {
    const sdk = later()
    const telegram = Telegram.make({ platform: "ios", version: "8.0", themeParams: { bg_color: "#ffffff" } }, sdk.loading)
    const backs: string[] = []
    telegram.backButton.onClick(() => backs.push("kept"))
    const stop = telegram.backButton.onClick(() => backs.push("removed"))
    stop()
    const themes: string[] = []
    telegram.theme.onChange((theme) => themes.push(theme.bg_color!))
    sdk.arrive()
    await telegram.sdkReady
    sdk.recorder.emit("back_button_pressed")
    sdk.recorder.emit("theme_changed", { theme_params: { bg_color: "#000000" } })
    expect(backs).toEqual(["kept"])
    expect(themes).toEqual(["#000000"])
    expect(telegram.theme.current()).toEqual({ bg_color: "#000000" })
  })

  it("answers a popup opened before the SDK arrives", async () => {
    const sdk = later()
    const telegram = Telegram.make({ platform: "ios", version: "8.0", themeParams: {} }, sdk.loading)
    const choice = telegram.popup({ message: "Sure?", buttons: [{ id: "ok", type: "ok" }] })
    sdk.arrive()
    await telegram.sdkReady
    expect(sdk.recorder.calls.map((c) => c.method)).toEqual(["web_app_open_popup"])
    sdk.recorder.emit("popup_closed", { button_id: "ok" })
    await expect(choice).resolves.toBe("ok")
  })

  it("gates by the kernel's table until the SDK's own gate takes over", async () => {
    const sdk = later()
    const client = deferredClient(sdk.loading)
    expect(client.supports("web_app_secure_storage_get_key", "8.0")).toBe(false)
    expect(client.supports("web_app_setup_back_button", "8.0")).toBe(true)
    sdk.recorder.unsupported.add("web_app_setup_back_button")
    sdk.arrive()
    await client.ready
    expect(client.supports("web_app_setup_back_button", "8.0")).toBe(false)
  })

  it("lets store requests wait for the SDK, and answers null when it never loads", async () => {
    const sdk = later()
    const telegram = Telegram.make({ platform: "ios", version: "9.0", themeParams: {} }, sdk.loading)
    const saved = telegram.secureStorage.set("vault", "sealed")
    sdk.arrive()
    await expect(saved).resolves.toBe(true)
    expect(sdk.recorder.values.secure.get("vault")).toBe("sealed")

    const broken = later()
    const warnings: unknown[] = []
    const client = deferredClient(broken.loading, (e) => warnings.push(e))
    client.postEvent("web_app_ready")
    const read = client.stores.secure.get("vault")
    broken.fail(new Error("chunk failed"))
    await expect(client.ready).resolves.toBe(false)
    await expect(read).resolves.toBeNull()
    expect(client.pending()).toBe(0)
    expect(warnings).toHaveLength(1)
  })
})
