// The Telegram client's types (launch params, buttons, popups, haptics, viewport, stores, biometry)
// and the timeouts of its requests. Re-exported by ../telegram.ts.
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

/** How long the user may take to answer the client's "share your phone number?" prompt. */
export const CONTACT_PROMPT_TIMEOUT_MS = 5 * 60_000

/**
 * After the user shared, `getRequestedContact` may answer '' until the signed contact has reached
 * the client: it is asked up to this many times, this far apart.
 */
export const CONTACT_FETCH_ATTEMPTS = 5
export const CONTACT_FETCH_RETRY_MS = 400

/** How long the user may take to answer the client's "download this file?" prompt. */
export const DOWNLOAD_PROMPT_TIMEOUT_MS = 5 * 60_000

/** `https://t.me/$abc` or `t.me/invoice/abc` to its slug; a bare slug stays as it is. */
export const invoiceSlug = (urlOrSlug: string): string => {
  const match = urlOrSlug.match(/(?:^|\/)(?:\$|invoice\/)([\w-]+)\/?$/)
  return match ? match[1]! : urlOrSlug
}
