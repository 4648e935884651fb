/**
 * The auth answers and the feature flags as the mini-app checks them at boot, with the kernel's
 * `Check` instead of Effect Schema (decision 0003). They mirror `api/auth-schema.ts`, which stays
 * the contract (server, OpenAPI); `auth-check.test.ts` keeps the two in step.
 */
import * as Check from "./check.ts"

const Permissions = Check.struct({
  canBuy: Check.boolean,
  canExchange: Check.boolean,
  canRaffle: Check.boolean,
  canReceive: Check.boolean,
  canUseP2p: Check.boolean,
  canUseWpayAsPayer: Check.boolean,
  canWithdrawInner: Check.boolean,
  canWithdrawOuter: Check.boolean,
  accessToSavingSettings: Check.boolean,
  accessToSetUserCurrency: Check.boolean,
})

const WebviewSettings = Check.record(Check.union([Check.boolean, Check.string, Check.finite]))

const sessionFields = {
  session_id: Check.string,
  access_token: Check.string,
  access_token_expires_at: Check.string,
  refresh_token: Check.string,
}

export const AuthSessionCheck = Check.struct({ ...sessionFields, webview_settings: Check.optional(WebviewSettings) })
export type AuthSessionAnswer = typeof AuthSessionCheck.Type

export const AuthInitCheck = Check.struct({
  ...sessionFields,
  webview_settings: WebviewSettings,
  user_id: Check.int,
  is_new_user: Check.boolean,
  local_currency: Check.string,
  country_alpha2_ip: Check.nullOr(Check.string),
  country_alpha2_phone: Check.nullOr(Check.string),
  bot_username: Check.string,
  bot_is_blocked: Check.boolean,
  ab_tests: Check.record(Check.string),
  restriction_code: Check.nullOr(Check.literals(["unsupported_region", "unsupported_app_store"])),
  subdivision_status: Check.nullOr(Check.string),
  permissions: Permissions,
  is_custody_available: Check.boolean,
  created_at: Check.string,
})
export type AuthInitAnswer = typeof AuthInitCheck.Type

/** `GET /api/feature-flags`: flag name -> on. */
export const FeatureFlagsCheck = Check.record(Check.boolean)
