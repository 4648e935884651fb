/**
 * Dev-only endpoints, served only when the server runs with WALLET_DEV=1: the dev launch page
 * lists the demo users and asks the server to sign initData (and the user's shared contact) with
 * the dev bot token exactly as Telegram would.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { NotFound } from "./errors.ts"
import { TelegramUserId } from "./fields.ts"
import { validated } from "./security.ts"
import { LanguageCode } from "./kernel.ts"

export const DemoUserKind = Schema.Literals([
  "new",
  "balances",
  "restricted",
  "no_custody",
  "blocked",
  "kyc_level2",
  "kyc_blocked",
  "kyc_partial",
  "kyc_review",
])
export type DemoUserKind = typeof DemoUserKind.Type

export const DemoUser = Schema.Struct({
  id: Schema.Int,
  kind: DemoUserKind,
  name: Schema.String,
  description: Schema.String,
})
export type DemoUser = typeof DemoUser.Type

export const Platform = Schema.Literals(["ios", "android"])
export type Platform = typeof Platform.Type
export const Theme = Schema.Literals(["light", "dark"])
export type Theme = typeof Theme.Type

export const LaunchRequest = Schema.Struct({
  userId: TelegramUserId,
  platform: Platform,
  theme: Theme,
  language: LanguageCode,
  /** Telegram's startapp value: `[\w-]{0,512}`. */
  startParam: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[\w-]{0,512}$/))),
  /**
   * Test aid: "signature" returns initData whose hash does not match (a forgery),
   * "expired" signs it with an auth_date two days old.
   */
  tamper: Schema.optionalKey(Schema.Literals(["signature", "expired"])),
})
export type LaunchRequest = typeof LaunchRequest.Type

export const LaunchResponse = Schema.Struct({
  /** The raw initData query string (what `Authorization: tma <initData>` carries). */
  initData: Schema.String,
  /**
   * The URL hash (without the leading "#") Telegram passes to mini-apps: tgWebAppData,
   * tgWebAppVersion, tgWebAppPlatform, tgWebAppThemeParams and tgWebAppStartParam.
   */
  launchParams: Schema.String,
  /**
   * The demo user's phone as Telegram answers `getRequestedContact` once the user shared it
   * (`contact=<json>&auth_date=<now>&hash=<hex>`, signed with the same bot token); absent when the
   * demo user has no phone. The fake Telegram client hands it to the mini-app.
   */
  contact: Schema.optionalKey(Schema.String),
})
export type LaunchResponse = typeof LaunchResponse.Type

export const DevGroup = validated(
  HttpApiGroup.make("dev").add(
    HttpApiEndpoint.get("demoUsers", "/api/dev/demo-users", { success: Schema.Array(DemoUser) }),
    HttpApiEndpoint.post("launch", "/api/dev/launch", { payload: LaunchRequest, success: LaunchResponse, error: NotFound }),
  ),
)
