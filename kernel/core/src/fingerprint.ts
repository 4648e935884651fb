/**
 * The device fingerprint (spec 3 §3 "Fingerprint payload", §7.5; decision 0390): after sign-in,
 * once per user and device every 30 days, the app collects the browser's fingerprint components
 * with ThumbmarkJS, adds the device uuid kept in local storage and the visitor id, XORs the JSON
 * with the user id and posts the bytes to `POST /api/users/me/fingerprint`. Failures are reported
 * silently (a debug log, never an error the user sees).
 *
 * This module is what the first screen carries: the constants and the scheduler. The sender, the
 * codec and the library load later, after a delay and when the browser is idle
 * (`fingerprint-sender.ts`, `@wallet/kernel/fingerprint`), and only when a fingerprint is due.
 */

export const FINGERPRINT_PATH = "/api/users/me/fingerprint"
/** The body's media type (named in the API schema): XOR-obfuscated UTF-8 JSON. */
export const FINGERPRINT_MEDIA_TYPE = "application/octet-stream"
/** The sender waits this long after the start, then for an idle moment. */
export const FINGERPRINT_DELAY_MS = 1000

/** The spec's components, in ThumbmarkJS's names (the list: `FINGERPRINT_COMPONENTS` in `@wallet/kernel/fingerprint`). */
export type FingerprintComponent = "audio" | "canvas" | "fonts" | "hardware" | "locales" | "math" | "permissions" | "plugins" | "screen" | "system" | "webgl"

export type FingerprintJson = string | number | boolean | null | ReadonlyArray<FingerprintJson> | { readonly [key: string]: FingerprintJson }

/** Spec 3 §3: fingerprint data, a device uuid (36 characters) and the fingerprint library value. */
export interface FingerprintPayload {
  readonly fingerprint: {
    /** The library's hash of the components (32 hex digits). */
    readonly thumbmark: string
    /** The library's version. */
    readonly version: string
    readonly components: { readonly [K in FingerprintComponent]?: FingerprintJson }
  }
  readonly deviceUuid: string
  /** The fingerprint library value: the thumbmark first seen in the current 30-day window. */
  readonly visitorId: string
}

export type FingerprintStorage = Pick<globalThis.Storage, "getItem" | "setItem">

export interface FingerprintSendOptions {
  readonly userId: string | number
  /** Default: the browser's local storage (none when it cannot be reached). */
  readonly storage?: FingerprintStorage | undefined
  /** Default: `Date.now`. */
  readonly now?: () => number
  /** Posts the body to `FINGERPRINT_PATH` with the session's auth; rejects on a failure. */
  readonly post: (body: Uint8Array<ArrayBuffer>) => Promise<unknown>
  /** Silent reporting (a debug log). */
  readonly onProblem: (message: string, error?: unknown) => void
}

/**
 * Starts the sender after `delayMs` (default 1 s) and an idle moment; never throws. The sender's
 * chunk decides whether a fingerprint is due and loads the library only then; `onResult` hears
 * the outcome (`fresh`: one was sent for this user within 30 days).
 */
export const startDeviceFingerprint = (
  options: FingerprintSendOptions & { readonly delayMs?: number; readonly onResult?: (result: "sent" | "fresh" | "failed") => void },
): void => {
  const run = () =>
    void import("./fingerprint-sender.ts")
      .then((sender) => sender.sendDeviceFingerprint({ ...options, collect: sender.collectThumbmark }))
      .catch((error: unknown) => (options.onProblem("fingerprint sender did not load", error), "failed" as const))
      .then((result) => options.onResult?.(result))
  setTimeout(() => {
    if (typeof window !== "undefined" && "requestIdleCallback" in window) window.requestIdleCallback(run, { timeout: 2000 })
    else run()
  }, options.delayMs ?? FINGERPRINT_DELAY_MS)
}
