import { describe, expect, it } from "vitest"
import type { BiometryInfo, TelegramBiometry } from "@wallet/kernel"
import { disableBiometry, enableBiometry } from "./biometry.ts"

const fakeBiometry = (state: { available?: boolean; requested?: boolean; granted?: boolean; grantOnRequest?: boolean; tokenUpdate?: "updated" | "failed" }) => {
  const calls: string[] = []
  const info = (): BiometryInfo => ({
    available: state.available ?? true,
    accessRequested: state.requested ?? false,
    accessGranted: state.granted ?? false,
    tokenSaved: false,
    type: "face",
    deviceId: "d",
  })
  const biometry: TelegramBiometry = {
    info: async () => (calls.push("info"), info()),
    requestAccess: async () => {
      calls.push("requestAccess")
      if (!state.requested) state.granted = state.grantOnRequest ?? false
      state.requested = true
      return info()
    },
    authenticate: async () => ({ authorized: false }),
    updateToken: async (token) => (calls.push(`updateToken:${token}`), state.tokenUpdate ?? "updated"),
    openSettings: () => (calls.push("openSettings"), true),
  }
  return { biometry, calls }
}

const run = (state: Parameters<typeof fakeBiometry>[0], options: { enableInPopup?: boolean; setup?: string | undefined } = {}) => {
  const fake = fakeBiometry(state)
  const server: string[] = []
  const outcome = enableBiometry({
    biometry: fake.biometry,
    reason: "Confirm",
    askToOpenSettings: async () => (fake.calls.push("popup"), options.enableInPopup === true),
    setup: async () => (server.push("setup"), "setup" in options ? options.setup : "bio-token"),
    deactivate: async () => server.push("deactivate"),
  })
  return { outcome, calls: fake.calls, server }
}

describe("enabling biometry (spec 3 §4.3 outcomes)", () => {
  it("success: access granted on request, server token stored on the device", async () => {
    const r = run({ grantOnRequest: true })
    expect(await r.outcome).toBe("success")
    expect(r.calls).toEqual(["info", "requestAccess", "updateToken:bio-token"])
    expect(r.server).toEqual(["setup"])
  })

  it("rejected: refused on the first request, without a popup", async () => {
    const r = run({ grantOnRequest: false })
    expect(await r.outcome).toBe("rejected")
    expect(r.calls).not.toContain("popup")
    expect(r.server).toEqual([])
  })

  it("refused before: the popup's Enable opens the bot settings, Cancel is rejected", async () => {
    const opened = run({ requested: true, granted: false }, { enableInPopup: true })
    expect(await opened.outcome).toBe("opened-bot-settings")
    expect(opened.calls).toEqual(["info", "requestAccess", "popup", "openSettings"])
    const cancelled = run({ requested: true, granted: false }, { enableInPopup: false })
    expect(await cancelled.outcome).toBe("rejected")
    expect(cancelled.calls).not.toContain("openSettings")
  })

  it("failure: not available, the server refused, or the device kept no token (the server flag goes off)", async () => {
    expect(await run({ available: false }).outcome).toBe("failure")
    const noServer = run({ granted: true }, { setup: undefined })
    expect(await noServer.outcome).toBe("failure")
    expect(noServer.calls.some((c) => c.startsWith("updateToken"))).toBe(false)
    const noDevice = run({ granted: true, tokenUpdate: "failed" })
    expect(await noDevice.outcome).toBe("failure")
    expect(noDevice.server).toEqual(["setup", "deactivate"])
  })
})

describe("disabling biometry", () => {
  it("turns the flag off first, then the server, then clears the device token", async () => {
    const log: string[] = []
    const ok = await disableBiometry({
      setFlag: (on) => log.push(`flag:${on}`),
      deactivate: async () => (log.push("server"), true),
      clearToken: async () => log.push("token"),
    })
    expect(ok).toBe(true)
    expect(log).toEqual(["flag:false", "server", "token"])
  })

  it("restores the flag when the server call fails and keeps the device token", async () => {
    const log: string[] = []
    const ok = await disableBiometry({ setFlag: (on) => log.push(`flag:${on}`), deactivate: async () => false, clearToken: async () => log.push("token") })
    expect(ok).toBe(false)
    expect(log).toEqual(["flag:false", "flag:true"])
  })
})
