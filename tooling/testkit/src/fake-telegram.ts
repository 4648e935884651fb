import { THEMES, type ThemeName } from "./themes.ts"

/**
 * A fake Telegram client for the browser: it hosts the mini-app in an iframe as Telegram Web does,
 * speaks the bridge protocol over postMessage, draws the native chrome (header with back and settings
 * buttons, main and secondary buttons, popups, the QR scanner), records every call, and lets tests
 * answer or emit events (the phone request answers by `contactAnswer` with the signed `contact`).
 * `window.fakeTelegram` is the handle Playwright uses.
 */
export interface BridgeCall {
  readonly method: string
  readonly params: Record<string, unknown> | undefined
  readonly at: number
}

export interface ButtonState {
  text: string
  is_visible: boolean
  is_active: boolean
  is_progress_visible: boolean
  color?: string
  text_color?: string
  position?: string
}

export interface FakeTelegramOptions {
  readonly container: HTMLElement
  /** App URL including the launch-params hash. */
  readonly appUrl: string
  readonly platform: string
  readonly theme: ThemeName
  readonly width?: number
  readonly height?: number
  /** The Mini Apps version the client reports (the launch page puts it in tgWebAppVersion too); "8.0" by default. */
  readonly version?: string
  /** Safe-area and content-safe-area insets the client reports (px). */
  readonly safeArea?: Partial<Insets>
  readonly contentSafeArea?: Partial<Insets>
  /** The contact the user shares when the app asks for the phone: signed as Telegram signs it (the dev launch's `contact`). */
  readonly contact?: string | null
  /** How the user answers the app's phone request; "share" by default. */
  readonly contactAnswer?: "share" | "decline"
}

export interface Insets {
  top: number
  right: number
  bottom: number
  left: number
}

const insets = (partial: Partial<Insets> = {}): Insets => ({ top: 0, right: 0, bottom: 0, left: 0, ...partial })

/** Numeric comparison of dotted versions ("9.0" >= "8.0"). */
const atLeast = (version: string, minimum: string) => {
  const a = version.split(".").map(Number)
  const b = minimum.split(".").map(Number)
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0)
  return true
}

const hiddenButton = (): ButtonState => ({ text: "", is_visible: false, is_active: true, is_progress_visible: false })

const STYLE = `
.ftg{display:flex;flex-direction:column;border-radius:18px;overflow:hidden;box-shadow:0 8px 32px rgb(0 0 0/25%);font:15px/1.3 system-ui,sans-serif;position:relative}
.ftg header{display:flex;align-items:center;gap:8px;height:48px;padding:0 8px;border-bottom:1px solid rgb(127 127 127/20%)}
.ftg header b{flex:1;text-align:center}
.ftg header button{min-width:64px;height:36px;border:0;background:none;color:inherit;font:inherit;cursor:pointer;border-radius:8px}
.ftg header button[hidden]{visibility:hidden;display:block}
.ftg iframe{flex:1;border:0;width:100%;background:transparent}
.ftg footer{display:flex;gap:8px;padding:8px}
.ftg footer:empty,.ftg footer[data-empty]{display:none}
.ftg footer button{flex:1;height:48px;border:0;border-radius:12px;font:inherit;font-weight:600;cursor:pointer}
.ftg footer button:disabled{opacity:.5;cursor:default}
.ftg .overlay{position:absolute;inset:0;display:grid;place-items:center;background:rgb(0 0 0/45%)}
.ftg .sheet{min-width:260px;max-width:320px;padding:16px;border-radius:14px}
.ftg .sheet h2{font-size:17px;margin:0 0 6px}.ftg .sheet p{margin:0 0 12px}
.ftg .sheet button{display:block;width:100%;margin-top:6px;height:40px;border:0;border-radius:10px;font:inherit;cursor:pointer}
.ftg .sheet input{width:100%;box-sizing:border-box;height:36px;margin-bottom:6px}
`

export class FakeTelegram {
  readonly calls: BridgeCall[] = []
  readonly haptics: Array<Record<string, unknown>> = []
  /** The client's CloudStorage and DeviceStorage contents. */
  readonly cloudStorage = new Map<string, string>()
  readonly deviceStorage = new Map<string, string>()
  /** The client's SecureStorage (OS keychain / keystore; 9.0+). */
  readonly secureStorage = new Map<string, string>()
  readonly version: string
  safeArea: Insets
  contentSafeArea: Insets
  /** The invoice the app opened and is waiting for (answer it with `answerInvoice`). */
  invoice: { slug: string } | null = null
  /** Whether the app asked to confirm closing. */
  closingConfirmation = false
  backButtonVisible = false
  settingsButtonVisible = false
  mainButton: ButtonState = hiddenButton()
  secondaryButton: ButtonState = hiddenButton()
  popup: { title: string; message: string; buttons: Array<{ id: string; type: string; text?: string }> } | null = null
  qrOpen = false
  /**
   * BiometricManager (7.2+) test controls: whether the device has biometry and of which type, whether
   * the user granted the bot access (and grants it when asked), the stored token, and how the next
   * prompt ends ("ok" returns the token, "fail" fails it).
   */
  biometry: {
    available: boolean
    type: "face" | "finger" | "unknown"
    accessRequested: boolean
    accessGranted: boolean
    grantOnRequest: boolean
    token: string
    nextAuth: "ok" | "fail"
    deviceId: string
  } = {
    available: true,
    type: "face",
    accessRequested: false,
    accessGranted: false,
    grantOnRequest: true,
    token: "",
    nextAuth: "ok",
    deviceId: "fake-biometry-device",
  }
  /** How often the app opened the bot's biometry settings. */
  biometrySettingsOpened = 0
  /**
   * The phone request (`web_app_request_phone`, 6.9+) test controls: the contact the user shares,
   * signed as Telegram signs it (`contact=<json>&auth_date=<s>&hash=<hex>`; null: nothing to share,
   * so the request is cancelled), and how the user answers the prompt. After a share,
   * `getRequestedContact` answers the contact ('' otherwise), or '' for the first
   * `contactPendingAnswers` asks (a contact still on its way to the client).
   */
  contact: string | null
  contactAnswer: "share" | "decline"
  contactPendingAnswers = 0
  /** Whether the user shared the contact at the app's last phone request. */
  contactShared = false
  /**
   * File downloads (`web_app_request_file_download`, 8.0+): how the user answers the client's prompt,
   * and each request with what the client fetched (as Telegram does: a plain GET, no app headers).
   */
  downloadAnswer: "download" | "cancel" = "download"
  readonly downloads: Array<{
    readonly url: string
    readonly fileName: string
    status?: number
    contentType?: string | null
    disposition?: string | null
    body?: string
  }> = []
  ready = false
  expanded = false
  closed = false
  theme: ThemeName
  readonly frame: HTMLIFrameElement
  private readonly root: HTMLElement
  private readonly header: HTMLElement
  private readonly footer: HTMLElement
  private readonly options: FakeTelegramOptions

  constructor(options: FakeTelegramOptions) {
    this.options = options
    this.theme = options.theme
    this.version = options.version ?? "8.0"
    this.safeArea = insets(options.safeArea)
    this.contentSafeArea = insets(options.contentSafeArea)
    this.contact = options.contact ?? null
    this.contactAnswer = options.contactAnswer ?? "share"
    if (!document.getElementById("ftg-style")) {
      const style = document.createElement("style")
      style.id = "ftg-style"
      style.textContent = STYLE
      document.head.append(style)
    }
    this.root = document.createElement("div")
    this.root.className = "ftg"
    this.root.style.width = `${options.width ?? 390}px`
    this.root.style.height = `${options.height ?? 760}px`
    this.header = document.createElement("header")
    this.footer = document.createElement("footer")
    this.frame = document.createElement("iframe")
    this.frame.title = "Mini-app"
    this.frame.src = options.appUrl
    this.root.append(this.header, this.frame, this.footer)
    options.container.replaceChildren(this.root)
    window.addEventListener("message", this.onMessage)
    this.render()
  }

  /** Sends an event to the mini-app as Telegram does. */
  emit(eventType: string, eventData?: unknown): void {
    this.frame.contentWindow?.postMessage(JSON.stringify({ eventType, eventData }), "*")
  }

  pressBack = () => this.emit("back_button_pressed")
  pressSettings = () => this.emit("settings_button_pressed")
  pressMain = () => this.emit("main_button_pressed")
  pressSecondary = () => this.emit("secondary_button_pressed")
  scanQr = (data: string) => this.emit("qr_text_received", { data })
  answerPopup = (buttonId: string) => {
    this.popup = null
    this.emit("popup_closed", { button_id: buttonId })
    this.render()
  }
  setTheme = (theme: ThemeName) => {
    this.theme = theme
    this.emit("theme_changed", { theme_params: THEMES[theme] })
    this.render()
  }
  callsOf = (method: string) => this.calls.filter((c) => c.method === method)
  /** Moves the safe area (as a device rotation or the status bar would) and tells the app. */
  setSafeArea = (next: Partial<Insets>) => {
    this.safeArea = insets(next)
    this.emit("safe_area_changed", this.safeArea)
  }
  setContentSafeArea = (next: Partial<Insets>) => {
    this.contentSafeArea = insets(next)
    this.emit("content_safe_area_changed", this.contentSafeArea)
  }
  answerInvoice = (status: "paid" | "cancelled" | "failed" | "pending") => {
    const slug = this.invoice?.slug ?? ""
    this.invoice = null
    this.emit("invoice_closed", { slug, status })
    this.render()
  }

  dispose(): void {
    window.removeEventListener("message", this.onMessage)
    this.root.remove()
  }

  private viewport() {
    return { height: this.frame.clientHeight, width: this.frame.clientWidth, is_expanded: this.expanded, is_state_stable: true }
  }

  private readonly onMessage = (event: MessageEvent) => {
    if (event.source !== this.frame.contentWindow || typeof event.data !== "string") return
    let message: { eventType?: string; eventData?: unknown }
    try {
      message = JSON.parse(event.data)
    } catch {
      return
    }
    if (!message.eventType) return
    const params = (typeof message.eventData === "string" ? JSON.parse(message.eventData) : message.eventData) as Record<string, unknown> | undefined
    this.calls.push({ method: message.eventType, params, at: Date.now() })
    this.handle(message.eventType, params ?? {})
    this.render()
  }

  /** `getRequestedContact`'s answer: the shared contact, or '' (not shared, or not arrived yet). */
  private requestedContact(): string {
    if (!this.contactShared || this.contact === null) return ""
    if (this.contactPendingAnswers > 0) {
      this.contactPendingAnswers -= 1
      return ""
    }
    return this.contact
  }

  private biometryInfo() {
    const b = this.biometry
    if (!b.available) return { available: false }
    return {
      available: true,
      access_requested: b.accessRequested,
      access_granted: b.accessGranted,
      token_saved: b.token !== "",
      type: b.type,
      device_id: b.deviceId,
    }
  }

  private handle(method: string, params: Record<string, unknown>) {
    switch (method) {
      case "web_app_biometry_get_info":
        this.emit("biometry_info_received", this.biometryInfo())
        break
      case "web_app_biometry_request_access":
        if (this.biometry.available && !this.biometry.accessRequested) {
          this.biometry.accessRequested = true
          this.biometry.accessGranted = this.biometry.grantOnRequest
        }
        this.emit("biometry_info_received", this.biometryInfo())
        break
      case "web_app_biometry_request_auth": {
        const ok = this.biometry.available && this.biometry.accessGranted && this.biometry.nextAuth === "ok"
        this.emit("biometry_auth_requested", ok ? { status: "authorized", token: this.biometry.token } : { status: "failed" })
        break
      }
      case "web_app_biometry_update_token": {
        const token = typeof params.token === "string" ? params.token : ""
        if (!this.biometry.available || !this.biometry.accessGranted) {
          this.emit("biometry_token_updated", { status: "failed" })
          break
        }
        this.biometry.token = token
        this.emit("biometry_token_updated", { status: token ? "updated" : "removed" })
        break
      }
      case "web_app_biometry_open_settings":
        this.biometrySettingsOpened += 1
        break
      case "web_app_ready":
        this.ready = true
        break
      case "web_app_expand":
        this.expanded = true
        this.emit("viewport_changed", this.viewport())
        break
      case "web_app_request_viewport":
        this.emit("viewport_changed", this.viewport())
        break
      case "web_app_request_safe_area":
        this.emit("safe_area_changed", this.safeArea)
        break
      case "web_app_request_content_safe_area":
        this.emit("content_safe_area_changed", this.contentSafeArea)
        break
      case "web_app_setup_closing_behavior":
        this.closingConfirmation = params.need_confirmation === true
        break
      case "web_app_open_invoice":
        this.invoice = { slug: String(params.slug ?? "") }
        break
      case "web_app_secure_storage_save_key":
      case "web_app_secure_storage_get_key":
      case "web_app_secure_storage_restore_key":
      case "web_app_secure_storage_clear": {
        const { req_id, key, value } = params as { req_id: string; key?: string; value?: string | null }
        // Clients before 9.0 have no SecureStorage.
        if (!atLeast(this.version, "9.0")) {
          this.emit("secure_storage_failed", { req_id, error: "UNSUPPORTED" })
          break
        }
        if (method === "web_app_secure_storage_save_key" && key !== undefined) {
          if (value === null || value === undefined) this.secureStorage.delete(key)
          else this.secureStorage.set(key, value)
          this.emit("secure_storage_key_saved", { req_id })
        } else if (method === "web_app_secure_storage_get_key" && key !== undefined) {
          this.emit("secure_storage_key_received", { req_id, value: this.secureStorage.get(key) ?? null, can_restore: false })
        } else if (method === "web_app_secure_storage_restore_key") {
          this.emit("secure_storage_key_restored", { req_id, value: null })
        } else if (method === "web_app_secure_storage_clear") {
          this.secureStorage.clear()
          this.emit("secure_storage_cleared", { req_id })
        } else this.emit("secure_storage_failed", { req_id, error: "KEY_INVALID" })
        break
      }
      case "web_app_device_storage_clear": {
        this.deviceStorage.clear()
        this.emit("device_storage_cleared", { req_id: (params as { req_id?: string }).req_id })
        break
      }
      case "web_app_request_theme":
        this.emit("theme_changed", { theme_params: THEMES[this.theme] })
        break
      case "web_app_setup_back_button":
        this.backButtonVisible = params.is_visible === true
        break
      case "web_app_setup_settings_button":
        this.settingsButtonVisible = params.is_visible === true
        break
      case "web_app_setup_main_button":
        this.mainButton = { ...this.mainButton, ...(params as Partial<ButtonState>) }
        break
      case "web_app_setup_secondary_button":
        this.secondaryButton = { ...this.secondaryButton, ...(params as Partial<ButtonState>) }
        break
      case "web_app_trigger_haptic_feedback":
        this.haptics.push(params)
        break
      case "web_app_open_popup":
        this.popup = params as never
        break
      case "web_app_open_scan_qr_popup":
        this.qrOpen = true
        break
      case "web_app_close_scan_qr_popup":
        this.qrOpen = false
        break
      case "web_app_close":
        this.closed = true
        break
      case "web_app_request_file_download": {
        const download: (typeof this.downloads)[number] = { url: String(params.url ?? ""), fileName: String(params.file_name ?? "") }
        this.downloads.push(download)
        this.emit("file_download_requested", { status: this.downloadAnswer === "download" ? "downloading" : "cancelled" })
        if (this.downloadAnswer === "download") {
          void fetch(download.url, { credentials: "omit" })
            .then(async (response) => {
              download.contentType = response.headers.get("content-type")
              download.disposition = response.headers.get("content-disposition")
              download.body = await response.text()
              download.status = response.status
            })
            .catch(() => {
              download.status = 0
            })
        }
        break
      }
      case "web_app_request_phone":
        // Clients before 6.9 have no phone request (the app's version gate does not send it).
        if (!atLeast(this.version, "6.9")) break
        this.contactShared = this.contactAnswer === "share" && this.contact !== null
        this.emit("phone_requested", { status: this.contactShared ? "sent" : "cancelled" })
        break
      case "web_app_invoke_custom_method": {
        const { req_id, method: custom, params: args } = params as { req_id: string; method: string; params: { key?: string; value?: string; keys?: string[] } }
        let result: unknown = true
        if (custom === "saveStorageValue" && args.key !== undefined) this.cloudStorage.set(args.key, args.value ?? "")
        else if (custom === "getStorageValues") result = Object.fromEntries((args.keys ?? []).map((k) => [k, this.cloudStorage.get(k) ?? ""]))
        else if (custom === "deleteStorageValues") for (const k of args.keys ?? []) this.cloudStorage.delete(k)
        else if (custom === "getStorageKeys") result = [...this.cloudStorage.keys()]
        else if (custom === "getRequestedContact") result = this.requestedContact()
        else result = undefined
        this.emit("custom_method_invoked", result === undefined ? { req_id, error: "UNKNOWN_METHOD" } : { req_id, result })
        break
      }
      case "web_app_device_storage_save_key": {
        const { req_id, key, value } = params as { req_id: string; key: string; value: string | null }
        if (value === null) this.deviceStorage.delete(key)
        else this.deviceStorage.set(key, value)
        this.emit("device_storage_key_saved", { req_id })
        break
      }
      case "web_app_device_storage_get_key": {
        const { req_id, key } = params as { req_id: string; key: string }
        this.emit("device_storage_key_received", { req_id, value: this.deviceStorage.get(key) ?? null })
        break
      }
    }
  }

  private render() {
    const theme = THEMES[this.theme]
    this.root.style.background = theme.bg_color
    this.root.style.color = theme.text_color
    const back = document.createElement("button")
    back.textContent = "‹ Back"
    back.hidden = !this.backButtonVisible
    back.setAttribute("aria-label", "Telegram back")
    back.onclick = this.pressBack
    const title = document.createElement("b")
    title.textContent = "Wallet"
    const settings = document.createElement("button")
    settings.textContent = "⋯"
    settings.hidden = !this.settingsButtonVisible
    settings.setAttribute("aria-label", "Telegram settings")
    settings.onclick = this.pressSettings
    this.header.style.background = theme.header_bg_color
    this.header.replaceChildren(back, title, settings)

    const buttons: HTMLButtonElement[] = []
    for (const [state, press, name] of [
      [this.secondaryButton, this.pressSecondary, "secondary"],
      [this.mainButton, this.pressMain, "main"],
    ] as const) {
      if (!state.is_visible) continue
      const button = document.createElement("button")
      button.dataset.button = name
      button.textContent = state.is_progress_visible ? "…" : state.text
      button.disabled = !state.is_active
      button.style.background = state.color ?? (name === "main" ? theme.button_color : theme.secondary_bg_color)
      button.style.color = state.text_color ?? (name === "main" ? theme.button_text_color : theme.button_color)
      button.onclick = press
      buttons.push(button)
    }
    this.footer.style.background = theme.bottom_bar_bg_color
    this.footer.replaceChildren(...buttons)
    this.footer.toggleAttribute("data-empty", buttons.length === 0)

    this.root.querySelector(".overlay")?.remove()
    if (this.popup || this.qrOpen) {
      const overlay = document.createElement("div")
      overlay.className = "overlay"
      const sheet = document.createElement("div")
      sheet.className = "sheet"
      sheet.setAttribute("role", "dialog")
      sheet.style.background = theme.bg_color
      if (this.popup) {
        const h = document.createElement("h2")
        h.textContent = this.popup.title
        const p = document.createElement("p")
        p.textContent = this.popup.message
        sheet.append(h, p)
        for (const b of this.popup.buttons) {
          const button = document.createElement("button")
          button.dataset.popupButton = b.id
          button.textContent = b.text || (b.type === "ok" ? "OK" : b.type === "cancel" ? "Cancel" : b.type === "close" ? "Close" : b.id)
          button.style.color = b.type === "destructive" ? theme.destructive_text_color : theme.link_color
          button.style.background = theme.secondary_bg_color
          button.onclick = () => this.answerPopup(b.id)
          sheet.append(button)
        }
      } else {
        const h = document.createElement("h2")
        h.textContent = "Scan QR code"
        const input = document.createElement("input")
        input.placeholder = "QR text"
        input.setAttribute("aria-label", "QR text")
        const send = document.createElement("button")
        send.textContent = "Scan"
        send.onclick = () => this.scanQr(input.value)
        const close = document.createElement("button")
        close.textContent = "Close"
        close.onclick = () => {
          this.qrOpen = false
          this.emit("scan_qr_popup_closed")
          this.render()
        }
        sheet.append(h, input, send, close)
      }
      overlay.append(sheet)
      this.root.append(overlay)
    }
  }
}

declare global {
  interface Window {
    fakeTelegram?: FakeTelegram
  }
}

export { THEMES, type ThemeName } from "./themes.ts"
