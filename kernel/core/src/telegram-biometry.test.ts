import { describe, expect, it } from "vitest"
import { recordingBridge, Telegram } from "./telegram.ts"

const make = (version = "8.0") => {
  const recorder = recordingBridge()
  return { telegram: Telegram.make({ platform: "ios", version, themeParams: {} }, recorder.bridge), recorder }
}

describe("Telegram biometry", () => {
  it("maps BiometricManager events: info, access, auth with the stored token, token updates", async () => {
    const { telegram, recorder } = make()
    const info = telegram.biometry.info()
    expect(recorder.calls.at(-1)?.method).toBe("web_app_biometry_get_info")
    recorder.emit("biometry_info_received", {
      available: true,
      access_requested: false,
      access_granted: false,
      token_saved: false,
      type: "face",
      device_id: "d1",
    })
    expect(await info).toEqual({ available: true, accessRequested: false, accessGranted: false, tokenSaved: false, type: "face", deviceId: "d1" })

    const access = telegram.biometry.requestAccess("Unlock the wallet")
    expect(recorder.calls.at(-1)).toEqual({ method: "web_app_biometry_request_access", params: { reason: "Unlock the wallet" } })
    recorder.emit("biometry_info_received", { available: true, access_requested: true, access_granted: true, type: "iris" })
    expect(await access).toMatchObject({ accessGranted: true, type: "unknown" })

    const ok = telegram.biometry.authenticate("Confirm")
    recorder.emit("biometry_auth_requested", { status: "authorized", token: "secret-token" })
    expect(await ok).toEqual({ authorized: true, token: "secret-token" })
    const failed = telegram.biometry.authenticate("Confirm")
    recorder.emit("biometry_auth_requested", { status: "failed" })
    expect(await failed).toEqual({ authorized: false })

    const removed = telegram.biometry.updateToken("")
    expect(recorder.calls.at(-1)).toEqual({ method: "web_app_biometry_update_token", params: { token: "" } })
    recorder.emit("biometry_token_updated", { status: "removed" })
    expect(await removed).toBe("removed")
    expect(telegram.biometry.openSettings()).toBe(true)
  })

  it("answers null on a client older than 7.2 without calling it", async () => {
    const recorder = recordingBridge()
    const telegram = Telegram.make(
      { platform: "ios", version: "7.0", themeParams: {} },
      { ...recorder.bridge, supports: (method, version) => (method.startsWith("web_app_biometry") ? version >= "7.2" : true) },
    )
    expect(await telegram.biometry.info()).toBeNull()
    expect(await telegram.biometry.authenticate("x")).toBeNull()
    expect(telegram.biometry.openSettings()).toBe(false)
    expect(recorder.calls).toEqual([])
  })
})
