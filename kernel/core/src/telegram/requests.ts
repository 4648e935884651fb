// The Telegram service's request helpers: bottom-button params, request/answer pairs with a timeout,
// the version-gated key-value stores, the BiometricManager and the shared contact.
import type { DeferredClient } from "./deferred.ts"
import {
  BIOMETRY_PROMPT_TIMEOUT_MS,
  type BiometryInfo,
  type BottomButtonParams,
  CONTACT_FETCH_ATTEMPTS,
  CONTACT_FETCH_RETRY_MS,
  CONTACT_PROMPT_TIMEOUT_MS,
  TELEGRAM_REQUEST_TIMEOUT_MS,
  type TelegramBiometry,
  type TelegramKeyValue,
  type TelegramStores,
} from "./types.ts"

/** Telegram's `web_app_setup_main_button` / `_secondary_button` params. */
export const buttonParams = (params: BottomButtonParams) => ({
  text: params.text,
  is_visible: params.isVisible && params.text.trim() !== "",
  is_active: params.isActive,
  is_progress_visible: params.isProgressVisible,
  ...(params.color ? { color: params.color } : {}),
  ...(params.textColor ? { text_color: params.textColor } : {}),
  ...(params.hasShineEffect !== undefined ? { has_shine_effect: params.hasShineEffect } : {}),
  ...(params.position ? { position: params.position } : {}),
})

let contactRequests = 0

export const makeRequests = (
  bridge: DeferredClient,
  supports: (method: string) => boolean,
  call: (method: string, params?: Record<string, unknown>) => boolean,
) => {
  /** Sends a method and resolves with the first answer `capture` accepts, or null (unsupported, timeout). */
  const request = <A>(
    method: string,
    params: Record<string, unknown>,
    event: string,
    capture: (payload: any) => boolean,
    map: (payload: any) => A,
    timeoutMs: number,
  ): Promise<A | null> =>
    new Promise((resolve) => {
      if (!supports(method)) return resolve(null)
      const finish = (value: A | null) => {
        stop()
        clearTimeout(timer)
        resolve(value)
      }
      const timer = setTimeout(() => finish(null), timeoutMs)
      const stop = bridge.on(event, (payload) => capture(payload) && finish(map(payload ?? {})))
      call(method, params)
    })
  /** A store gated by the client's version (`method` is its read method); null when unsupported. */
  const gated = (store: keyof TelegramStores, method: string): TelegramKeyValue => ({
    get: (key) => (supports(method) ? bridge.stores[store].get(key) : Promise.resolve(null)),
    set: (key, value) => (supports(method) ? bridge.stores[store].set(key, value) : Promise.resolve(null)),
    remove: (key) => (supports(method) ? bridge.stores[store].remove(key) : Promise.resolve(null)),
  })
  const cloudStorage = gated("cloud", "web_app_invoke_custom_method")
  const deviceStorage = gated("device", "web_app_device_storage_get_key")
  const secureStorage = gated("secure", "web_app_secure_storage_get_key")
  /** Sends a method and resolves with the next `event` (the biometry events carry no req_id). */
  const nextEvent = <A>(
    method: string,
    params: Record<string, unknown> | undefined,
    event: string,
    map: (payload: any) => A,
    timeoutMs: number,
  ): Promise<A | null> =>
    new Promise((resolve) => {
      if (!supports(method)) return resolve(null)
      const finish = (value: A | null) => {
        stop()
        clearTimeout(timer)
        resolve(value)
      }
      const timer = setTimeout(() => finish(null), timeoutMs)
      const stop = bridge.on(event, (payload) => finish(map(payload ?? {})))
      call(method, params)
    })
  const biometryInfo = (p: {
    available?: boolean
    access_requested?: boolean
    access_granted?: boolean
    token_saved?: boolean
    type?: string
    device_id?: string
  }): BiometryInfo => ({
    available: p.available === true,
    accessRequested: p.access_requested === true,
    accessGranted: p.access_granted === true,
    tokenSaved: p.token_saved === true,
    type: p.type === "face" || p.type === "finger" ? p.type : "unknown",
    deviceId: p.device_id ?? "",
  })
  const biometry: TelegramBiometry = {
    info: () => nextEvent("web_app_biometry_get_info", undefined, "biometry_info_received", biometryInfo, TELEGRAM_REQUEST_TIMEOUT_MS),
    requestAccess: (reason) => nextEvent("web_app_biometry_request_access", { reason }, "biometry_info_received", biometryInfo, BIOMETRY_PROMPT_TIMEOUT_MS),
    authenticate: (reason) =>
      nextEvent(
        "web_app_biometry_request_auth",
        { reason },
        "biometry_auth_requested",
        (p: { status?: string; token?: string }) =>
          p.status === "authorized" ? { authorized: true, ...(p.token ? { token: p.token } : {}) } : { authorized: false },
        BIOMETRY_PROMPT_TIMEOUT_MS,
      ),
    updateToken: (token, reason) =>
      nextEvent(
        "web_app_biometry_update_token",
        { token, ...(reason ? { reason } : {}) },
        "biometry_token_updated",
        (p: { status?: string }) => (p.status === "updated" || p.status === "removed" ? p.status : "failed"),
        TELEGRAM_REQUEST_TIMEOUT_MS,
      ),
    openSettings: () => call("web_app_biometry_open_settings"),
  }
  /**
   * Telegram's "share your phone number" (6.9+): `web_app_request_phone` asks the user and answers
   * `phone_requested` ("sent" or "cancelled"); once sent, the custom method `getRequestedContact`
   * returns the contact signed by Telegram (`contact=…&auth_date=…&hash=…`), or '' while it has not
   * reached the client yet (asked again a few times). Null when unsupported, declined or not obtained.
   */
  const requestContact = async (): Promise<string | null> => {
    const status = await nextEvent("web_app_request_phone", undefined, "phone_requested", (p: { status?: unknown }) => p.status, CONTACT_PROMPT_TIMEOUT_MS)
    if (status !== "sent") return null
    for (let attempt = 1; attempt <= CONTACT_FETCH_ATTEMPTS; attempt++) {
      const reqId = `wallet-contact-${Date.now().toString(36)}-${++contactRequests}`
      const answer = await request(
        "web_app_invoke_custom_method",
        { req_id: reqId, method: "getRequestedContact", params: {} },
        "custom_method_invoked",
        (p: { req_id?: string }) => p?.req_id === reqId,
        (p: { result?: unknown; error?: unknown }) => p,
        TELEGRAM_REQUEST_TIMEOUT_MS,
      )
      if (answer === null || answer.error) return null
      if (typeof answer.result === "string" && answer.result !== "") return answer.result
      if (attempt < CONTACT_FETCH_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, CONTACT_FETCH_RETRY_MS))
    }
    return null
  }
  return { request, cloudStorage, deviceStorage, secureStorage, biometry, requestContact }
}
