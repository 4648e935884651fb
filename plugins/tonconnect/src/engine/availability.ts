/**
 * Spec 2 section 5: wallet-connect is available only on iOS or Android with app version 6.4 or
 * higher. Others see why (the reason picks the text).
 */
export type WalletConnectAvailability = { readonly available: true } | { readonly available: false; readonly reason: "platform" | "version" }

export const WALLET_CONNECT_MIN_VERSION = [6, 4] as const

/** `platform` as Telegram reports it (ios, android, android_x, tdesktop, macos, weba, …); `version` the client app version. */
export const walletConnectAvailability = (platform: string, version: string): WalletConnectAvailability => {
  const p = platform.toLowerCase()
  if (p !== "ios" && p !== "android" && p !== "android_x") return { available: false, reason: "platform" }
  const parts = version.split(".").map((x) => Number.parseInt(x, 10))
  const [major = Number.NaN, minor = 0] = parts
  if (!Number.isFinite(major) || !Number.isFinite(minor)) return { available: false, reason: "version" }
  const [minMajor, minMinor] = WALLET_CONNECT_MIN_VERSION
  const ok = major > minMajor || (major === minMajor && minor >= minMinor)
  return ok ? { available: true } : { available: false, reason: "version" }
}

/** TonConnect's device platform for Telegram's `platform`. */
export const tonConnectPlatform = (telegramPlatform: string): "iphone" | "android" | "windows" | "mac" | "linux" | "browser" => {
  const p = telegramPlatform.toLowerCase()
  if (p === "ios") return "iphone"
  if (p === "android" || p === "android_x") return "android"
  if (p === "macos") return "mac"
  if (p === "tdesktop") return "windows"
  return "browser"
}
