import { Context, Layer } from "effect"
import { deferredClient } from "./telegram/deferred.ts"
import { recordingBridge } from "./telegram/recording.ts"
import { buttonParams, makeRequests } from "./telegram/requests.ts"
import {
  type BottomButtonParams,
  DOWNLOAD_PROMPT_TIMEOUT_MS,
  EXPAND_INTERVAL_MS,
  type HapticFeedback,
  INVOICE_TIMEOUT_MS,
  invoiceSlug,
  type LaunchParams,
  type PopupButton,
  type TelegramBiometry,
  type TelegramClient,
  type TelegramKeyValue,
  type ThemeParams,
  type ViewportState,
} from "./telegram/types.ts"

// The Telegram bridge. This file is the service; its parts live in telegram/ and are re-exported
// here, so importers keep one module: types.ts (types and timeouts), versions.ts (the version gate),
// origin.ts (the frame's target origin), launch.ts (launch params, theme), recording.ts (the test
// client), requests.ts (request helpers, stores, biometry, contact), deferred.ts (the client before the SDK).
export * from "./telegram/types.ts"
export * from "./telegram/versions.ts"
export * from "./telegram/origin.ts"
export * from "./telegram/launch.ts"
export * from "./telegram/recording.ts"

type Listener = () => void

/**
 * The Telegram client as a service: launch params, theme, viewport, the back / main / secondary /
 * settings buttons, haptics, popups, QR scanning, the shared contact, file downloads and closing. Every call is gated on the client's
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
    /**
     * Asks the user to share their phone number (client 6.9+) and resolves with the contact exactly as
     * Telegram signed it (`contact=<json>&auth_date=<s>&hash=<hex>`, for the server to verify); null
     * when unsupported, declined, or not obtainable.
     */
    readonly requestContact: () => Promise<string | null>
    /**
     * Asks the client to download a file (Bot API 8.0, `web_app_request_file_download`): the user
     * confirms in Telegram, which then fetches `url` (HTTPS, no cookies or headers of the app) and saves
     * it as `fileName`. Resolves "downloading" or "cancelled" (`file_download_requested`); null when
     * unsupported or never answered.
     */
    readonly downloadFile: (params: { readonly url: string; readonly fileName: string }) => Promise<"downloading" | "cancelled" | null>
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
    const { request, cloudStorage, deviceStorage, secureStorage, biometry, requestContact } = makeRequests(bridge, supports, call)
    return Telegram.of({
      launchParams,
      cloudStorage,
      deviceStorage,
      secureStorage,
      sdkReady: bridge.ready,
      setClosingConfirmation: (enabled) => call("web_app_setup_closing_behavior", { need_confirmation: enabled }),
      openInvoice: (urlOrSlug) => {
        const slug = invoiceSlug(urlOrSlug)
        return request(
          "web_app_open_invoice",
          { slug },
          "invoice_closed",
          (p: { slug?: string }) => p?.slug === slug,
          (p: { status?: string }) => p.status ?? "failed",
          INVOICE_TIMEOUT_MS,
        )
      },
      biometry,
      requestContact,
      downloadFile: ({ url, fileName }) =>
        request(
          "web_app_request_file_download",
          { url, file_name: fileName },
          "file_download_requested",
          () => true,
          (p: { status?: unknown }) => (p.status === "downloading" ? ("downloading" as const) : ("cancelled" as const)),
          DOWNLOAD_PROMPT_TIMEOUT_MS,
        ),
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
        onChange: (listener) =>
          bridge.on("theme_changed", (payload: { theme_params?: ThemeParams }) => payload?.theme_params && listener(payload.theme_params)),
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
