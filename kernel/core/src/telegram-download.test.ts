import { describe, expect, it, vi } from "vitest"
import { DOWNLOAD_PROMPT_TIMEOUT_MS, methodSupported, recordingBridge, Telegram } from "./telegram.ts"

const make = (version = "8.0") => {
  const recorder = recordingBridge()
  return { telegram: Telegram.make({ platform: "ios", version, themeParams: {} }, recorder.bridge), recorder }
}

const FILE = { url: "https://wallet.example/api/p2p/export/abc", fileName: "p2p-orders-all-2026-04-30.csv" }

describe("Telegram file download (Bot API 8.0)", () => {
  it("sends web_app_request_file_download with the url and file_name, and resolves the client's answer", async () => {
    const { telegram, recorder } = make()
    const started = telegram.downloadFile(FILE)
    expect(recorder.calls).toEqual([{ method: "web_app_request_file_download", params: { url: FILE.url, file_name: FILE.fileName } }])
    recorder.emit("file_download_requested", { status: "downloading" })
    await expect(started).resolves.toBe("downloading")

    const declined = telegram.downloadFile(FILE)
    recorder.emit("file_download_requested", { status: "cancelled" })
    await expect(declined).resolves.toBe("cancelled")
    // An answer without a known status is not a download.
    const odd = telegram.downloadFile(FILE)
    recorder.emit("file_download_requested", {})
    await expect(odd).resolves.toBe("cancelled")
  })

  it("resolves null without sending on a client that lacks the method, and gates it at 8.0 before the SDK loads", async () => {
    const { telegram, recorder } = make("7.10")
    recorder.unsupported.add("web_app_request_file_download")
    await expect(telegram.downloadFile(FILE)).resolves.toBeNull()
    expect(recorder.calls).toEqual([])
    expect(methodSupported("web_app_request_file_download", "7.10")).toBe(false)
    expect(methodSupported("web_app_request_file_download", "8.0")).toBe(true)
  })

  it("gives up with null when the client never answers", async () => {
    vi.useFakeTimers()
    try {
      const { telegram, recorder } = make()
      const pending = telegram.downloadFile(FILE)
      vi.advanceTimersByTime(DOWNLOAD_PROMPT_TIMEOUT_MS)
      await expect(pending).resolves.toBeNull()
      // A late answer changes nothing.
      recorder.emit("file_download_requested", { status: "downloading" })
      await expect(pending).resolves.toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})
