import { Context, Layer } from "effect"
import { deferredClient } from "./telegram/deferred.ts"

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

/** Telegram's transport: postEvent, event subscription and the version gate (the SDK, or a test double). */
export interface TelegramBridge {
  readonly postEvent: (method: string, params?: Record<string, unknown>) => void
  readonly on: (event: string, listener: (payload: any) => void) => () => void
  readonly supports: (method: string, version: string) => boolean
}

/**
 * The raw key-value stores of the client (the SDK's SecureStorage, DeviceStorage and CloudStorage
 * requests with their timeouts). The service gates them by version first.
 */
export interface TelegramStores {
  readonly secure: TelegramKeyValue
  readonly device: TelegramKeyValue
  readonly cloud: TelegramKeyValue
}

/** What the SDK chunk (`@wallet/kernel/telegram-sdk`) hands the service once it has loaded. */
export interface TelegramClient extends TelegramBridge {
  readonly stores: TelegramStores
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

/** How long the client may take to report how an invoice ended (the user pays in the meantime). */
export const INVOICE_TIMEOUT_MS = 30 * 60_000

/** `https://t.me/$abc` or `t.me/invoice/abc` to its slug; a bare slug stays as it is. */
export const invoiceSlug = (urlOrSlug: string): string => {
  const match = urlOrSlug.match(/(?:^|\/)(?:\$|invoice\/)([\w-]+)\/?$/)
  return match ? match[1]! : urlOrSlug
}

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
    /** Telegram DeviceStorage (this device; client 9.0+; 5 s); null when unsupported. */
    readonly deviceStorage: TelegramKeyValue
    /** Telegram SecureStorage (the OS keychain / keystore; client 9.0+; 5000 ms); null when unsupported. */
    readonly secureStorage: TelegramKeyValue
    /** Asks the user to confirm before the app closes (client 6.2+). */
    readonly setClosingConfirmation: (enabled: boolean) => boolean
    /** Opens an invoice (a t.me/$ link or its slug); resolves with the client's status ("paid", "cancelled", …), null when unsupported. */
    readonly openInvoice: (urlOrSlug: string) => Promise<string | null>
    /** Resolves when the SDK has loaded and every call made before has been replayed (false when it failed to load). */
    readonly sdkReady: Promise<boolean>
    readonly biometry: TelegramBiometry
  }
>()("wallet/Telegram") {
  /**
   * The service over a client: the SDK's (a promise while its chunk loads: calls are queued and
   * replayed in order, listeners subscribe when it arrives) or a test double.
   */
  static readonly make = (
    launchParams: LaunchParams,
    client: TelegramClient | Promise<TelegramClient>,
    clock: { setInterval: typeof setInterval; clearInterval: typeof clearInterval } = globalThis,
  ) => {
    const bridge = deferredClient(client)
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
    /** Sends a method and resolves with the first answer `capture` accepts, or null (unsupported, timeout). */
    const request = <A>(method: string, params: Record<string, unknown>, event: string, capture: (payload: any) => boolean, map: (payload: any) => A, timeoutMs: number): Promise<A | null> =>
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
      secureStorage,
      sdkReady: bridge.ready,
      setClosingConfirmation: (enabled) => call("web_app_setup_closing_behavior", { need_confirmation: enabled }),
      openInvoice: (urlOrSlug) => {
        const slug = invoiceSlug(urlOrSlug)
        return request("web_app_open_invoice", { slug }, "invoice_closed", (p: { slug?: string }) => p?.slug === slug, (p: { status?: string }) => p.status ?? "failed", INVOICE_TIMEOUT_MS)
      },
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

  /** A recording bridge for tests: what was called, and a way to emit client events. */
  static readonly layerTest = (launchParams: Partial<LaunchParams> = {}) => {
    const recorder = recordingBridge()
    const layer = Layer.succeed(Telegram, Telegram.make({ platform: "ios", version: "8.0", themeParams: {}, ...launchParams }, recorder.client))
    return { layer, recorder }
  }
}

/**
 * The first Telegram client version that has each method (Telegram Mini Apps docs): the version gate
 * used only until the SDK has loaded (then the SDK's `supports` decides). A method not listed is
 * treated as unsupported, so it is never sent blind.
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
  web_app_request_safe_area: "8.0",
  web_app_request_content_safe_area: "8.0",
}

/** The gate before the SDK arrives. */
export const methodSupported = (method: string, version: string): boolean => {
  const minimum = METHOD_MIN_VERSION[method]
  return minimum !== undefined && versionAtLeast(version, minimum)
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

/** A recording client for tests: what was called, a way to emit client events, in-memory stores. */
export const recordingBridge = () => {
  const calls: Array<{ method: string; params?: Record<string, unknown> }> = []
  const listeners = new Map<string, Set<(payload: any) => void>>()
  const unsupported = new Set<string>()
  const values = { secure: new Map<string, string>(), device: new Map<string, string>(), cloud: new Map<string, string>() }
  const memory = (map: Map<string, string>): TelegramKeyValue => ({
    get: async (key) => map.get(key) ?? null,
    set: async (key, value) => (map.set(key, value), true),
    remove: async (key) => map.delete(key) || true,
  })
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
  const client: TelegramClient = { ...bridge, stores: { secure: memory(values.secure), device: memory(values.device), cloud: memory(values.cloud) } }
  return {
    bridge: client,
    client,
    calls,
    unsupported,
    values,
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
 * see `telegramTargetOrigin`. Refuses `*` and anything that is not an origin. The SDK chunk hands it
 * to the SDK (`setTargetOrigin`) when it connects, and again on every later change.
 */
export const setTelegramTargetOrigin = (origin: string) => {
  const exact = originOf(origin)
  if (exact === undefined || !/^https?:\/\/[^/?#*\s]+\/?$/i.test(origin)) throw new Error(`The Telegram target origin must be an origin, not "${origin}"`)
  targetOrigin = exact
  for (const listener of targetOriginListeners) listener(exact)
}

const targetOriginListeners = new Set<(origin: string) => void>()
/** The SDK chunk follows the target origin with this. */
export const onTelegramTargetOrigin = (listener: (origin: string) => void): (() => void) => {
  targetOriginListeners.add(listener)
  return () => void targetOriginListeners.delete(listener)
}

/** The origin bridge messages go to now (tests and diagnostics). */
export const telegramTargetOriginInUse = (): string => targetOrigin
