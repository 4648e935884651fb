import { Context, Layer } from "effect"

export type Platform = string
export type ColorScheme = "light" | "dark"
export type ThemeParams = Readonly<Record<string, string>>

export interface LaunchParams {
  readonly platform: Platform
  readonly version: string
  readonly startParam?: string
  /** initData exactly as Telegram sent it: forwarded to the server unmodified. */
  readonly initDataRaw?: string
  readonly themeParams: ThemeParams
  readonly languageCode?: string
  readonly userId?: number
}

export interface BottomButtonParams {
  readonly text: string
  readonly isVisible: boolean
  readonly isActive: boolean
  readonly isProgressVisible: boolean
  readonly color?: string
  readonly textColor?: string
  readonly hasShineEffect?: boolean
  /** Secondary button only. */
  readonly position?: "left" | "right" | "top" | "bottom"
}

export interface PopupButton {
  readonly id: string
  readonly type: "default" | "ok" | "close" | "cancel" | "destructive"
  readonly text?: string
}

export type HapticFeedback =
  | { readonly type: "impact"; readonly style: "light" | "medium" | "heavy" | "rigid" | "soft" }
  | { readonly type: "notification"; readonly kind: "error" | "success" | "warning" }
  | { readonly type: "selection_change" }

export interface ViewportState {
  readonly height: number
  readonly isExpanded: boolean
  readonly isStateStable: boolean
}

/** Spec 1 §2: "expands the app window every 500 ms until expanded". */
export const EXPAND_INTERVAL_MS = 500

/** The low-level bridge: Telegram's postEvent and event subscription. Real one or a test double. */
export interface TelegramBridge {
  readonly postEvent: (method: string, params?: Record<string, unknown>) => void
  readonly on: (event: string, listener: (payload: any) => void) => () => void
  readonly supports: (method: string, version: string) => boolean
}

type Listener = () => void

/** A key-value store of the Telegram client. Every call resolves to null when the client lacks it. */
export interface TelegramKeyValue {
  readonly get: (key: string) => Promise<string | null>
  readonly set: (key: string, value: string) => Promise<boolean | null>
  readonly remove: (key: string) => Promise<boolean | null>
}

/** Telegram's BiometricManager state (biometry_info_received). */
export interface BiometryInfo {
  readonly available: boolean
  readonly accessRequested: boolean
  readonly accessGranted: boolean
  readonly tokenSaved: boolean
  readonly type: "face" | "finger" | "unknown"
  readonly deviceId: string
}

/** The BiometricManager (client 7.2+). Every call resolves to null when the client lacks it or never answers. */
export interface TelegramBiometry {
  readonly info: () => Promise<BiometryInfo | null>
  /** Asks the user for access (once per bot; later calls answer the stored decision). */
  readonly requestAccess: (reason: string) => Promise<BiometryInfo | null>
  /** Shows the system prompt; the stored token comes back only when authorized. */
  readonly authenticate: (reason: string) => Promise<{ readonly authorized: boolean; readonly token?: string } | null>
  /** Stores a token ('' removes it). */
  readonly updateToken: (token: string, reason?: string) => Promise<"updated" | "removed" | "failed" | null>
  /** Opens the bot's biometry settings in the client; false when unsupported. */
  readonly openSettings: () => boolean
}

/** Biometry prompts wait for the user, so they get longer than other requests. */
export const BIOMETRY_PROMPT_TIMEOUT_MS = 120_000

/** Spec-free but necessary: a request the client never answers must not hang a screen. */
export const TELEGRAM_REQUEST_TIMEOUT_MS = 10_000

/**
 * The Telegram client as a service: launch params, theme, viewport, the back / main / secondary /
 * settings buttons, haptics, popups, QR scanning and closing. Every call is gated on the client's
 * version: an unsupported method is skipped and reported as `false`.
 */
export class Telegram extends Context.Service<
  Telegram,
  {
    readonly launchParams: LaunchParams
    readonly supports: (method: string) => boolean
    readonly call: (method: string, params?: Record<string, unknown>) => boolean
    readonly on: (event: string, listener: (payload: any) => void) => () => void
    readonly ready: () => void
    /** Asks to expand every 500 ms until the viewport reports expanded; returns a stop function. */
    readonly expandUntilExpanded: () => () => void
    readonly backButton: { readonly setVisible: (visible: boolean) => void; readonly onClick: (listener: Listener) => () => void }
    readonly settingsButton: { readonly setVisible: (visible: boolean) => void; readonly onClick: (listener: Listener) => () => void }
    readonly mainButton: { readonly setParams: (params: BottomButtonParams) => void; readonly onClick: (listener: Listener) => () => void }
    readonly secondaryButton: { readonly setParams: (params: BottomButtonParams) => void; readonly onClick: (listener: Listener) => () => void }
    readonly haptic: (feedback: HapticFeedback) => void
    /** Opens a popup and resolves with the pressed button id ('' when dismissed); null when unsupported. */
    readonly popup: (params: { title?: string; message: string; buttons: ReadonlyArray<PopupButton> }) => Promise<string | null>
    /** Opens the QR scanner; each scanned text goes to `onText`, which returns true to close. Null when unsupported. */
    readonly scanQr: (params: { text?: string; onText: (text: string) => boolean }) => Promise<string | null> | null
    readonly theme: { readonly current: () => ThemeParams; readonly onChange: (listener: (theme: ThemeParams) => void) => () => void }
    readonly viewport: { readonly current: () => ViewportState; readonly onChange: (listener: (state: ViewportState) => void) => () => void }
    readonly close: () => void
    readonly openLink: (url: string) => void
    /** Telegram CloudStorage (per user, synced; client 6.9+); null when unsupported. */
    readonly cloudStorage: TelegramKeyValue
    /** Telegram DeviceStorage (this device; client 9.0+); null when unsupported. */
    readonly deviceStorage: TelegramKeyValue
    readonly biometry: TelegramBiometry
  }
>()("wallet/Telegram") {
  static readonly make = (launchParams: LaunchParams, bridge: TelegramBridge, clock: { setInterval: typeof setInterval; clearInterval: typeof clearInterval } = globalThis) => {
    const supports = (method: string) => bridge.supports(method, launchParams.version)
    const call = (method: string, params?: Record<string, unknown>) => {
      if (!supports(method)) return false
      bridge.postEvent(method, params)
      return true
    }
    let theme = launchParams.themeParams
    let viewport: ViewportState = { height: 0, isExpanded: false, isStateStable: true }
    bridge.on("theme_changed", (payload: { theme_params?: ThemeParams }) => {
      if (payload?.theme_params) theme = payload.theme_params
    })
    bridge.on("viewport_changed", (payload: { height: number; is_expanded: boolean; is_state_stable: boolean }) => {
      viewport = { height: payload.height, isExpanded: payload.is_expanded, isStateStable: payload.is_state_stable }
    })
    const buttonParams = (params: BottomButtonParams) => ({
      text: params.text,
      is_visible: params.isVisible && params.text.trim() !== "",
      is_active: params.isActive,
      is_progress_visible: params.isProgressVisible,
      ...(params.color ? { color: params.color } : {}),
      ...(params.textColor ? { text_color: params.textColor } : {}),
      ...(params.hasShineEffect !== undefined ? { has_shine_effect: params.hasShineEffect } : {}),
      ...(params.position ? { position: params.position } : {}),
    })
    let requestCounter = 0
    /** Sends a method with a req_id and resolves with the first matching answer event. */
    const request = <A>(method: string, params: Record<string, unknown>, answers: Record<string, (payload: any) => A>): Promise<A | null> =>
      new Promise((resolve) => {
        if (!supports(method)) return resolve(null)
        const reqId = `wallet-${Date.now()}-${++requestCounter}`
        const stops: Array<() => void> = []
        const finish = (value: A | null) => {
          stops.forEach((stop) => stop())
          clearTimeout(timer)
          resolve(value)
        }
        const timer = setTimeout(() => finish(null), TELEGRAM_REQUEST_TIMEOUT_MS)
        for (const [event, map] of Object.entries(answers)) {
          stops.push(bridge.on(event, (payload: { req_id?: string }) => payload?.req_id === reqId && finish(map(payload))))
        }
        call(method, { req_id: reqId, ...params })
      })
    const cloudStorage: TelegramKeyValue = {
      get: (key) =>
        request("web_app_invoke_custom_method", { method: "getStorageValues", params: { keys: [key] } }, {
          custom_method_invoked: (p: { result?: Record<string, string>; error?: string }) => (p.error ? null : (p.result?.[key] || null)),
        }).then((v) => v ?? null),
      set: (key, value) =>
        request("web_app_invoke_custom_method", { method: "saveStorageValue", params: { key, value } }, { custom_method_invoked: (p: { error?: string }) => !p.error }),
      remove: (key) =>
        request("web_app_invoke_custom_method", { method: "deleteStorageValues", params: { keys: [key] } }, { custom_method_invoked: (p: { error?: string }) => !p.error }),
    }
    const deviceStorage: TelegramKeyValue = {
      get: (key) =>
        request("web_app_device_storage_get_key", { key }, {
          device_storage_key_received: (p: { value?: string | null }) => p.value ?? null,
          device_storage_failed: () => null,
        }).then((v) => v ?? null),
      set: (key, value) =>
        request("web_app_device_storage_save_key", { key, value }, { device_storage_key_saved: () => true, device_storage_failed: () => false }),
      remove: (key) =>
        request("web_app_device_storage_save_key", { key, value: null }, { device_storage_key_saved: () => true, device_storage_failed: () => false }),
    }
    /** Sends a method and resolves with the next `event` (the biometry events carry no req_id). */
    const nextEvent = <A>(method: string, params: Record<string, unknown> | undefined, event: string, map: (payload: any) => A, timeoutMs: number): Promise<A | null> =>
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
    const biometryInfo = (p: { available?: boolean; access_requested?: boolean; access_granted?: boolean; token_saved?: boolean; type?: string; device_id?: string }): BiometryInfo => ({
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
          (p: { status?: string; token?: string }) => (p.status === "authorized" ? { authorized: true, ...(p.token ? { token: p.token } : {}) } : { authorized: false }),
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
    return Telegram.of({
      launchParams,
      cloudStorage,
      deviceStorage,
      biometry,
      supports,
      call,
      on: bridge.on,
      ready: () => void call("web_app_ready"),
      expandUntilExpanded: () => {
        call("web_app_request_viewport")
        call("web_app_expand")
        const timer = clock.setInterval(() => {
          if (viewport.isExpanded) return clock.clearInterval(timer)
          call("web_app_expand")
        }, EXPAND_INTERVAL_MS)
        return () => clock.clearInterval(timer)
      },
      backButton: {
        setVisible: (visible) => void call("web_app_setup_back_button", { is_visible: visible }),
        onClick: (listener) => bridge.on("back_button_pressed", listener),
      },
      settingsButton: {
        setVisible: (visible) => void call("web_app_setup_settings_button", { is_visible: visible }),
        onClick: (listener) => bridge.on("settings_button_pressed", listener),
      },
      mainButton: {
        setParams: (params) => void call("web_app_setup_main_button", buttonParams(params)),
        onClick: (listener) => bridge.on("main_button_pressed", listener),
      },
      secondaryButton: {
        setParams: (params) => void call("web_app_setup_secondary_button", buttonParams(params)),
        onClick: (listener) => bridge.on("secondary_button_pressed", listener),
      },
      haptic: (feedback) => {
        const params =
          feedback.type === "impact"
            ? { type: "impact", impact_style: feedback.style }
            : feedback.type === "notification"
              ? { type: "notification", notification_type: feedback.kind }
              : { type: "selection_change" }
        call("web_app_trigger_haptic_feedback", params)
      },
      popup: (params) =>
        new Promise((resolve) => {
          if (!supports("web_app_open_popup")) return resolve(null)
          const stop = bridge.on("popup_closed", (payload: { button_id?: string }) => {
            stop()
            resolve(payload?.button_id ?? "")
          })
          call("web_app_open_popup", { title: params.title ?? "", message: params.message, buttons: params.buttons })
        }),
      scanQr: (params) => {
        if (!supports("web_app_open_scan_qr_popup")) return null
        return new Promise((resolve) => {
          const stops: Array<() => void> = []
          const finish = (value: string | null) => {
            stops.forEach((stop) => stop())
            resolve(value)
          }
          stops.push(
            bridge.on("qr_text_received", (payload: { data?: string }) => {
              const text = payload?.data ?? ""
              if (params.onText(text)) {
                call("web_app_close_scan_qr_popup")
                finish(text)
              }
            }),
            bridge.on("scan_qr_popup_closed", () => finish(null)),
          )
          call("web_app_open_scan_qr_popup", params.text ? { text: params.text } : {})
        })
      },
      theme: {
        current: () => theme,
        onChange: (listener) => bridge.on("theme_changed", (payload: { theme_params?: ThemeParams }) => payload?.theme_params && listener(payload.theme_params)),
      },
      viewport: {
        current: () => viewport,
        onChange: (listener) =>
          bridge.on("viewport_changed", (p: { height: number; is_expanded: boolean; is_state_stable: boolean }) =>
            listener({ height: p.height, isExpanded: p.is_expanded, isStateStable: p.is_state_stable }),
          ),
      },
      close: () => void call("web_app_close"),
      openLink: (url) => void call("web_app_open_link", { url }),
    })
  }

  /** The real client. Throws when the page was not opened by Telegram. */
  static readonly layer = (options: { targetOrigin?: string } = {}) =>
    Layer.sync(Telegram, () => {
      if (options.targetOrigin) setTelegramTargetOrigin(options.targetOrigin)
      return Telegram.make(readLaunchParams(), webBridge)
    })

  /** A recording bridge for tests: what was called, and a way to emit client events. */
  static readonly layerTest = (launchParams: Partial<LaunchParams> = {}) => {
    const recorder = recordingBridge()
    const layer = Layer.succeed(Telegram, Telegram.make({ platform: "ios", version: "8.0", themeParams: {}, ...launchParams }, recorder.bridge))
    return { layer, recorder }
  }
}

/**
 * The first Telegram client version that has each method (Telegram Mini Apps docs). A method not
 * listed is treated as unsupported, so it is never sent blind.
 */
export const METHOD_MIN_VERSION: Readonly<Record<string, string>> = {
  web_app_ready: "6.0",
  web_app_expand: "6.0",
  web_app_close: "6.0",
  web_app_request_viewport: "6.0",
  web_app_request_theme: "6.0",
  web_app_setup_main_button: "6.0",
  web_app_data_send: "6.0",
  web_app_setup_back_button: "6.1",
  web_app_trigger_haptic_feedback: "6.1",
  web_app_open_link: "6.1",
  web_app_open_tg_link: "6.1",
  web_app_set_header_color: "6.1",
  web_app_set_background_color: "6.1",
  web_app_open_invoice: "6.1",
  web_app_open_popup: "6.2",
  web_app_setup_closing_behavior: "6.2",
  web_app_open_scan_qr_popup: "6.4",
  web_app_close_scan_qr_popup: "6.4",
  web_app_read_text_from_clipboard: "6.4",
  web_app_switch_inline_query: "6.7",
  web_app_invoke_custom_method: "6.9",
  web_app_request_write_access: "6.9",
  web_app_request_phone: "6.9",
  web_app_setup_settings_button: "6.10",
  web_app_biometry_get_info: "7.2",
  web_app_biometry_request_access: "7.2",
  web_app_biometry_request_auth: "7.2",
  web_app_biometry_update_token: "7.2",
  web_app_biometry_open_settings: "7.2",
  web_app_setup_swipe_behavior: "7.7",
  web_app_share_to_story: "7.8",
  web_app_setup_secondary_button: "7.10",
  web_app_set_bottom_bar_color: "7.10",
  web_app_request_fullscreen: "8.0",
  web_app_exit_fullscreen: "8.0",
  web_app_device_storage_save_key: "9.0",
  web_app_device_storage_get_key: "9.0",
  web_app_device_storage_clear: "9.0",
  web_app_secure_storage_save_key: "9.0",
  web_app_secure_storage_get_key: "9.0",
  web_app_secure_storage_clear: "9.0",
}

/** Compares dotted versions numerically ("6.10" > "6.9"). */
export const versionAtLeast = (version: string, minimum: string): boolean => {
  const a = version.split(".").map(Number)
  const b = minimum.split(".").map(Number)
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    if (Number.isNaN(x)) return false
    if (x !== y) return x > y
  }
  return true
}

/** Telegram Web's origins: web.telegram.org serves the K and A clients; webk / webz are their older hosts. */
export const TELEGRAM_WEB_ORIGINS: ReadonlyArray<string> = ["https://web.telegram.org", "https://webk.telegram.org", "https://webz.telegram.org"]
/** Where bridge messages go when the parent frame's origin is unknown or not allowed. */
export const DEFAULT_TELEGRAM_TARGET_ORIGIN = "https://web.telegram.org"

/** What the page knows about the frame that hosts it. */
export interface ParentFrameFacts {
  /** This page's own origin (the dev launch page hosts the app from it). */
  readonly ownOrigin: string
  /** `location.ancestorOrigins` (Chromium, Safari): the parent's origin first. */
  readonly ancestorOrigins?: ArrayLike<string> | undefined
  /** `document.referrer`: the page that opened this frame (browsers without ancestorOrigins). */
  readonly referrer?: string | undefined
}

const originOf = (value: string | undefined): string | undefined => {
  if (!value) return undefined
  try {
    const origin = new URL(value).origin
    return origin === "null" ? undefined : origin
  } catch {
    return undefined
  }
}

/**
 * The origin the mini-app posts its bridge messages to when it runs in a frame (Telegram Web), never
 * `*` (decision 0207): the parent frame's origin when it is allowed (Telegram Web's origins, this
 * page's own origin, which is the dev launch page's, and `extraOrigins`), else Telegram Web's. A
 * parent on any other origin then receives nothing, so it cannot read biometry tokens, storage values
 * or anything else the app tells Telegram.
 */
export const telegramTargetOrigin = (facts: ParentFrameFacts, extraOrigins: ReadonlyArray<string> = []): string => {
  const allowed = new Set([...TELEGRAM_WEB_ORIGINS, originOf(facts.ownOrigin), ...extraOrigins.map((o) => originOf(o.trim()))].filter((o): o is string => o !== undefined))
  const parent = originOf(facts.ancestorOrigins?.[0]) ?? originOf(facts.referrer)
  return parent !== undefined && allowed.has(parent) ? parent : DEFAULT_TELEGRAM_TARGET_ORIGIN
}

/** The facts of the running page (the real bridge's default). */
export const parentFrameFacts = (): ParentFrameFacts => ({
  ownOrigin: window.location.origin,
  ancestorOrigins: window.location.ancestorOrigins,
  referrer: document.referrer,
})

let targetOrigin = DEFAULT_TELEGRAM_TARGET_ORIGIN
type EventListener = (payload: any) => void
const eventListeners = new Map<string, Set<EventListener>>()
let receiving = false

const deliver = (eventType: string, eventData: unknown) => {
  // A copy: a listener may unsubscribe itself while we iterate.
  for (const listener of Array.from(eventListeners.get(eventType) ?? [])) listener(eventData)
}

/**
 * Telegram's events reach a mini-app through `window.Telegram.WebView.receiveEvent` (mobile and
 * desktop clients) or as `{eventType, eventData}` messages from the parent frame (Telegram Web).
 */
const startReceiving = () => {
  if (receiving || typeof window === "undefined") return
  receiving = true
  type Receiver = { receiveEvent?: (eventType: string, eventData: unknown) => void }
  const w = window as unknown as { Telegram?: { WebView?: Receiver }; TelegramGameProxy?: Receiver }
  const receiveEvent = (eventType: string, eventData: unknown) => deliver(eventType, eventData)
  w.Telegram = { ...w.Telegram, WebView: { ...w.Telegram?.WebView, receiveEvent } }
  w.TelegramGameProxy = { ...w.TelegramGameProxy, receiveEvent }
  window.addEventListener("message", (event) => {
    // Only the parent frame, and only from the origin the app talks to (never any origin).
    if (event.source !== window.parent || event.origin !== targetOrigin || typeof event.data !== "string") return
    try {
      const message = JSON.parse(event.data) as { eventType?: unknown; eventData?: unknown }
      if (typeof message.eventType === "string") deliver(message.eventType, message.eventData)
    } catch {
      // not a Telegram message
    }
  })
}

/**
 * The real bridge (Telegram's three transports): `TelegramWebviewProxy.postEvent` in the mobile and
 * desktop clients, `postMessage` to the parent frame in Telegram Web, `external.notify` in old
 * Windows clients. Kept in the kernel so the first screen does not load an SDK (ADR 0003).
 */
export const webBridge: TelegramBridge = {
  postEvent: (method, params) => {
    const w = window as unknown as { TelegramWebviewProxy?: { postEvent: (m: string, p: string) => void }; external?: { notify?: (m: string) => void } }
    const data = JSON.stringify(params ?? {})
    if (w.TelegramWebviewProxy) w.TelegramWebviewProxy.postEvent(method, data)
    else if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType: method, eventData: params ?? {} }), targetOrigin)
    else w.external?.notify?.(JSON.stringify({ eventType: method, eventData: params ?? {} }))
  },
  on: (event, listener) => {
    startReceiving()
    const set = eventListeners.get(event) ?? new Set()
    set.add(listener)
    eventListeners.set(event, set)
    return () => void set.delete(listener)
  },
  supports: (method, version) => {
    const minimum = METHOD_MIN_VERSION[method]
    return minimum !== undefined && versionAtLeast(version, minimum)
  },
}

const LAUNCH_PARAMS_KEY = "wallet:launch-params"

/**
 * Telegram's launch params from the URL hash (`tgWebAppData`, `tgWebAppVersion`, …). The app's
 * router rewrites the URL, so the first hash is kept in sessionStorage for reloads.
 */
export const parseLaunchParams = (hash: string): LaunchParams | undefined => {
  const params = new URLSearchParams(hash.replace(/^#/, ""))
  const platform = params.get("tgWebAppPlatform")
  const version = params.get("tgWebAppVersion")
  if (!platform || !version) return undefined
  const initDataRaw = params.get("tgWebAppData") ?? undefined
  let themeParams: Record<string, string> = {}
  try {
    themeParams = JSON.parse(params.get("tgWebAppThemeParams") ?? "{}") as Record<string, string>
  } catch {
    themeParams = {}
  }
  let user: { id?: number; language_code?: string } | undefined
  try {
    user = initDataRaw ? (JSON.parse(new URLSearchParams(initDataRaw).get("user") ?? "null") as typeof user) ?? undefined : undefined
  } catch {
    user = undefined
  }
  const startParam = params.get("tgWebAppStartParam") ?? (initDataRaw ? new URLSearchParams(initDataRaw).get("start_param") : null) ?? undefined
  return {
    platform,
    version,
    ...(startParam ? { startParam } : {}),
    ...(initDataRaw ? { initDataRaw } : {}),
    themeParams,
    ...(user?.language_code ? { languageCode: user.language_code } : {}),
    ...(user?.id !== undefined ? { userId: user.id } : {}),
  }
}

/** Reads the launch params of this page (or of its first load in this tab); throws outside Telegram. */
export const readLaunchParams = (): LaunchParams => {
  const fromHash = parseLaunchParams(window.location.hash)
  if (fromHash) {
    sessionStorage.setItem(LAUNCH_PARAMS_KEY, window.location.hash)
    return fromHash
  }
  const saved = parseLaunchParams(sessionStorage.getItem(LAUNCH_PARAMS_KEY) ?? "")
  if (saved) return saved
  throw new Error("No Telegram launch params: the page was not opened by Telegram")
}

export const recordingBridge = () => {
  const calls: Array<{ method: string; params?: Record<string, unknown> }> = []
  const listeners = new Map<string, Set<(payload: any) => void>>()
  const unsupported = new Set<string>()
  const bridge: TelegramBridge = {
    postEvent: (method, params) => void calls.push({ method, params }),
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
      return () => void set.delete(listener)
    },
    supports: (method) => !unsupported.has(method),
  }
  return {
    bridge,
    calls,
    unsupported,
    emit: (event: string, payload?: unknown) => [...(listeners.get(event) ?? [])].forEach((l) => l(payload)),
  }
}

/** Telegram theme params to the CSS vars the UI kit reads (`--tg-theme-bg-color`, …). */
export const themeCssVars = (theme: ThemeParams): Record<string, string> => {
  const vars: Record<string, string> = {}
  for (const [key, value] of Object.entries(theme)) vars[`--tg-theme-${key.replace(/_/g, "-")}`] = value
  return vars
}

/** Light or dark from the background colour's luminance. */
export const colorSchemeOf = (theme: ThemeParams): ColorScheme => {
  const bg = theme.bg_color ?? theme.secondary_bg_color
  const match = bg?.match(/^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i)
  if (!match) return "light"
  const [r, g, b] = [match[1]!, match[2]!, match[3]!].map((h) => parseInt(h, 16))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! < 128 ? "dark" : "light"
}


/**
 * Where the app posts bridge messages when it runs in an iframe (Telegram Web: https://web.telegram.org);
 * see `telegramTargetOrigin`. Refuses `*` and anything that is not an origin.
 */
export const setTelegramTargetOrigin = (origin: string) => {
  const exact = originOf(origin)
  if (exact === undefined || !/^https?:\/\/[^/?#*\s]+\/?$/i.test(origin)) throw new Error(`The Telegram target origin must be an origin, not "${origin}"`)
  targetOrigin = exact
}

/** The origin bridge messages go to now (tests and diagnostics). */
export const telegramTargetOriginInUse = (): string => targetOrigin
