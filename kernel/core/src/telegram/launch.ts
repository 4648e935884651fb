// Launch params from the URL (kept for reloads) and the theme's CSS vars and colour scheme.
// Re-exported by ../telegram.ts.
import type { ColorScheme, LaunchParams, ThemeParams } from "./types.ts"

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
    user = initDataRaw ? ((JSON.parse(new URLSearchParams(initDataRaw).get("user") ?? "null") as typeof user) ?? undefined) : undefined
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
