/** What the fake Telegram client needs to open the mini-app as Telegram would (and the contact it shares). */
import { randomBytes } from "node:crypto"
import type { LaunchRequest, LaunchResponse } from "@wallet/kernel/api"
import { signContact, signInitData } from "../kernel/initData.ts"
import type { DemoUserSeed } from "./demoUsers.ts"

/** Telegram's theme params (tgWebAppThemeParams) for the two themes. */
export const themeParams = {
  light: {
    accent_text_color: "#168acd",
    bg_color: "#ffffff",
    bottom_bar_bg_color: "#ffffff",
    button_color: "#2481cc",
    button_text_color: "#ffffff",
    destructive_text_color: "#d14e4e",
    header_bg_color: "#f0f0f0",
    hint_color: "#999999",
    link_color: "#168acd",
    secondary_bg_color: "#f0f0f0",
    section_bg_color: "#ffffff",
    section_header_text_color: "#168acd",
    section_separator_color: "#e7e7e7",
    subtitle_text_color: "#999999",
    text_color: "#000000",
  },
  dark: {
    accent_text_color: "#6ab2f2",
    bg_color: "#17212b",
    bottom_bar_bg_color: "#17212b",
    button_color: "#5288c1",
    button_text_color: "#ffffff",
    destructive_text_color: "#ec3942",
    header_bg_color: "#17212b",
    hint_color: "#708499",
    link_color: "#6ab3f3",
    secondary_bg_color: "#232e3c",
    section_bg_color: "#17212b",
    section_header_text_color: "#6ab3f3",
    section_separator_color: "#111921",
    subtitle_text_color: "#708499",
    text_color: "#f5f5f5",
  },
} as const

export const TELEGRAM_WEB_APP_VERSION = "8.0"

const EXPIRED_AGE_MS = 2 * 24 * 60 * 60 * 1000

export const buildLaunch = (demo: DemoUserSeed, request: LaunchRequest, botToken: string, nowMs: number): LaunchResponse => {
  const authDate = new Date(request.tamper === "expired" ? nowMs - EXPIRED_AGE_MS : nowMs)
  let initData = signInitData(
    {
      user: { ...demo.telegram, language_code: request.language },
      authDate,
      // query_id as Telegram issues it for inline-mode answers: "AA" + base64url bytes.
      queryId: `AA${randomBytes(12).toString("base64url")}`,
      chatType: "sender",
      chatInstance: String(BigInt(demo.id) * 7919n),
      ...(request.startParam !== undefined ? { startParam: request.startParam } : {}),
    },
    botToken,
  )
  if (request.tamper === "signature") {
    const params = new URLSearchParams(initData)
    const hash = params.get("hash") ?? ""
    params.set("hash", `${hash.slice(0, -1)}${hash.endsWith("0") ? "1" : "0"}`)
    initData = params.toString()
  }
  const launch = new URLSearchParams()
  launch.set("tgWebAppData", initData)
  launch.set("tgWebAppVersion", TELEGRAM_WEB_APP_VERSION)
  launch.set("tgWebAppPlatform", request.platform)
  launch.set("tgWebAppThemeParams", JSON.stringify(themeParams[request.theme]))
  if (request.startParam !== undefined) launch.set("tgWebAppStartParam", request.startParam)
  // The contact the user shares when the app asks for it, signed now (the server allows it minutes).
  const contact =
    demo.phone === undefined
      ? undefined
      : signContact(
          {
            user_id: demo.telegram.id,
            phone_number: demo.phone,
            first_name: demo.telegram.first_name,
            ...(demo.telegram.last_name !== undefined ? { last_name: demo.telegram.last_name } : {}),
          },
          { botToken, authDateSeconds: Math.floor(nowMs / 1000) },
        )
  return { initData, launchParams: launch.toString(), ...(contact !== undefined ? { contact } : {}) }
}
