/**
 * Custody's `main.topBar` QR button (decision 0140): loaded on the first press, it opens Telegram's
 * scanner and routes what it read (../send/scan.ts; spec 1 §5 QR, §8 QR errors).
 */
import type { MainSlotHost } from "@wallet/kernel-react"
import { scanAndRoute } from "../send/scan.ts"

export default async function scanFromMain(host: MainSlotHost): Promise<void> {
  host.kernel.telegram.haptic({ type: "impact", style: "light" })
  await scanAndRoute(host.kernel, host.go, host.snackbar)
}
