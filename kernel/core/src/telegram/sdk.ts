/**
 * The Telegram client on `@tma.js/sdk` (decision 0330): its own chunk, loaded with a dynamic
 * `import()` at boot and never awaited by the first render. It is the only code that talks to the
 * Telegram client: the SDK posts the app's calls (to the target origin of decision 0207, never `*`),
 * installs `Telegram.WebView.receiveEvent` and the parent-frame listener, gates methods by version,
 * and runs the storage requests (SecureStorage 5000 ms, DeviceStorage 5 s, CloudStorage 10 s). It
 * also keeps the safe-area and content-safe-area insets as CSS variables.
 */
import { init, off, on, postEvent, request2, setTargetOrigin, supports } from "@tma.js/sdk"
import type { LaunchParams, TelegramClient, TelegramKeyValue } from "../telegram.ts"
import { onTelegramTargetOrigin, telegramTargetOriginInUse } from "../telegram.ts"

/** Spec 2 §7: how long each store may take before the app treats it as unavailable. */
export const SECURE_STORAGE_TIMEOUT_MS = 5_000
export const DEVICE_STORAGE_TIMEOUT_MS = 5_000
export const CLOUD_STORAGE_TIMEOUT_MS = 10_000

export interface SafeAreaInsets {
  readonly top: number
  readonly right: number
  readonly bottom: number
  readonly left: number
}

const SIDES = ["top", "right", "bottom", "left"] as const

/** Insets as the CSS variables the UI kit reads (`--wk-safe-area-*` is built on them). */
export const insetCssVars = (prefix: "safe-area" | "content-safe-area", insets: Partial<SafeAreaInsets> | undefined): Record<string, string> => {
  const vars: Record<string, string> = {}
  for (const side of SIDES) {
    const value = insets?.[side]
    vars[`--tg-${prefix}-inset-${side}`] = `${typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0}px`
  }
  return vars
}

let requestCounter = 0
const requestId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++requestCounter}`

/** The SDK's untyped call sites: our service speaks method names as strings. */
type AnyRequest = (
  method: string,
  events: string[],
  options: { params: Record<string, unknown>; capture: (e: { event: string; payload: any }) => boolean; timeout: number },
) => PromiseLike<{ event: string; payload: any }>
const request = request2 as unknown as AnyRequest

/** A `web_app_*_storage_*` store (SecureStorage, DeviceStorage) over the SDK's request. */
const keyStore = (kind: "secure" | "device", timeout: number): TelegramKeyValue => {
  const failed = `${kind}_storage_failed`
  const ask = async (method: string, answer: string, params: Record<string, unknown>) => {
    const reqId = requestId(`wallet-${kind}`)
    try {
      const result = await request(`web_app_${kind}_storage_${method}`, [answer, failed], {
        params: { ...params, req_id: reqId },
        capture: ({ payload }) => payload?.req_id === reqId,
        timeout,
      })
      return result.event === answer ? (result.payload ?? {}) : null
    } catch {
      // Timed out or could not be posted: the store is unavailable now.
      return null
    }
  }
  return {
    get: async (key) => {
      const payload = await ask("get_key", `${kind}_storage_key_received`, { key })
      return typeof payload?.value === "string" && payload.value !== "" ? payload.value : null
    },
    set: async (key, value) => (await ask("save_key", `${kind}_storage_key_saved`, { key, value })) !== null,
    remove: async (key) => (await ask("save_key", `${kind}_storage_key_saved`, { key, value: null })) !== null,
  }
}

/** CloudStorage: Telegram's custom methods (`web_app_invoke_custom_method`) over the SDK's request. */
const cloudStore = (timeout: number): TelegramKeyValue => {
  const invoke = async (method: string, params: Record<string, unknown>): Promise<{ readonly result: unknown } | null> => {
    const reqId = requestId("wallet-cloud")
    try {
      const answer = await request("web_app_invoke_custom_method", ["custom_method_invoked"], {
        params: { req_id: reqId, method, params },
        capture: ({ payload }) => payload?.req_id === reqId,
        timeout,
      })
      return answer.payload?.error ? null : { result: answer.payload?.result }
    } catch {
      return null
    }
  }
  return {
    get: async (key) => {
      const answer = await invoke("getStorageValues", { keys: [key] })
      const value = (answer?.result as Record<string, unknown> | undefined)?.[key]
      return typeof value === "string" && value !== "" ? value : null
    },
    set: async (key, value) => (await invoke("saveStorageValue", { key, value })) !== null,
    remove: async (key) => (await invoke("deleteStorageValues", { keys: [key] })) !== null,
  }
}

export interface ConnectOptions {
  readonly launchParams: LaunchParams
  /** Where the insets go (tests pass a stand-in). */
  readonly style?: { readonly setProperty: (name: string, value: string) => void }
}

/**
 * Starts the SDK with the launch params the boot path already read (so it never re-parses the URL,
 * which the router may have rewritten) and returns the service's client.
 */
export const connectTelegramSdk = (options: ConnectOptions): TelegramClient => {
  const { launchParams } = options
  setTargetOrigin(telegramTargetOriginInUse())
  onTelegramTargetOrigin((origin) => setTargetOrigin(origin))
  try {
    init({ version: launchParams.version, isInlineMode: false, themeParams: launchParams.themeParams as never, acceptCustomStyles: false })
  } catch (error) {
    console.warn("[telegram] SDK init", error)
  }
  const client: TelegramClient = {
    postEvent: (method, params) => {
      ;(postEvent as unknown as (m: string, p?: Record<string, unknown>) => void)(method, params)
    },
    on: (event, listener) => {
      const onAny = on as unknown as (e: string, l: (payload: any) => void) => void
      const offAny = off as unknown as (e: string, l: (payload: any) => void) => void
      onAny(event, listener)
      return () => offAny(event, listener)
    },
    supports: (method, version) => (supports as unknown as (m: string, v: string) => boolean)(method, version),
    stores: {
      secure: keyStore("secure", SECURE_STORAGE_TIMEOUT_MS),
      device: keyStore("device", DEVICE_STORAGE_TIMEOUT_MS),
      cloud: cloudStore(CLOUD_STORAGE_TIMEOUT_MS),
    },
  }
  const style = options.style ?? (typeof document === "undefined" ? undefined : document.documentElement.style)
  if (style) {
    const apply = (prefix: "safe-area" | "content-safe-area") => (insets: Partial<SafeAreaInsets> | undefined) => {
      for (const [name, value] of Object.entries(insetCssVars(prefix, insets))) style.setProperty(name, value)
    }
    for (const [method, event, prefix] of [
      ["web_app_request_safe_area", "safe_area_changed", "safe-area"],
      ["web_app_request_content_safe_area", "content_safe_area_changed", "content-safe-area"],
    ] as const) {
      if (!client.supports(method, launchParams.version)) continue
      client.on(event, apply(prefix))
      try {
        client.postEvent(method)
      } catch (error) {
        console.warn(`[telegram] ${method}`, error)
      }
    }
  }
  return client
}
