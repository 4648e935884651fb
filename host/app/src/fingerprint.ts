/**
 * The app's start hook for the device fingerprint (decision 0390): after sign-in, the kernel's
 * sender loads 1 s later when the browser is idle, and posts the fingerprint through the session's
 * Http (bearer token, retries) only when one is due (once per user and device in 30 days).
 * Failures are reported silently: a debug log on the kernel's logger, never an error screen.
 */
import { Effect } from "effect"
import { FINGERPRINT_MEDIA_TYPE, FINGERPRINT_PATH, Http, startDeviceFingerprint } from "@wallet/kernel"
import type { Kernel } from "@wallet/kernel-react"

export function startAppFingerprint(kernel: Pick<Kernel, "runtime">, userId: number): void {
  startDeviceFingerprint({
    userId,
    post: (body) =>
      kernel.runtime.runPromise(
        Effect.flatMap(Http, (http) =>
          http.execute(
            new Request(`${window.location.origin}${FINGERPRINT_PATH}`, { method: "POST", headers: { "content-type": FINGERPRINT_MEDIA_TYPE }, body }),
          ),
        ),
      ),
    onProblem: (message, error) => kernel.runtime.runFork(Effect.logDebug(`[fingerprint] ${message}`, error ?? "")),
    // For the browser tests: what the sender decided on this start.
    onResult: (result) => void (document.documentElement.dataset.fingerprint = result),
  })
}
