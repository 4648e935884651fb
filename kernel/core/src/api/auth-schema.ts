/**
 * The auth wire shapes (spec 1 sections 3 and 4), in a module of their own that imports only
 * `effect`'s Schema: the mini-app's boot path decodes them without loading the HttpApi machinery.
 */
import { Schema } from "effect"
import { userText } from "./fields.ts"

/** Settings for the Telegram webview the server may push (open map; no keys defined yet). */
export const WebviewSettings = Schema.Record(Schema.String, Schema.Union([Schema.Boolean, Schema.String, Schema.Finite]))
export type WebviewSettings = typeof WebviewSettings.Type

/** Permissions object that arrives at init (spec 1 sections 3 and 6). */
export const Permissions = Schema.Struct({
  canBuy: Schema.Boolean,
  canExchange: Schema.Boolean,
  canRaffle: Schema.Boolean,
  canReceive: Schema.Boolean,
  canUseP2p: Schema.Boolean,
  canUseWpayAsPayer: Schema.Boolean,
  canWithdrawInner: Schema.Boolean,
  canWithdrawOuter: Schema.Boolean,
  /** Saving view settings on the server requires it; otherwise changes stay local. */
  accessToSavingSettings: Schema.Boolean,
  /** Spec 1 §3 access flag: choosing the default fiat currency (gates /settings/default-currency). */
  accessToSetUserCurrency: Schema.Boolean,
})
export type Permissions = typeof Permissions.Type

/** Restriction codes the startup rules know (spec 1 section 2). */
export const RestrictionCode = Schema.Literals(["unsupported_region", "unsupported_app_store"])
export type RestrictionCode = typeof RestrictionCode.Type

/** ISO 8601 instant, UTC, e.g. "2026-01-01T00:00:00.000Z". */
export const Instant = Schema.String.annotate({ description: "ISO 8601 instant (UTC)" })

export const AuthSession = Schema.Struct({
  session_id: Schema.String,
  /** Send as `Authorization: Bearer <access_token>`. */
  access_token: Schema.String,
  /** The client schedules a refresh one minute before this instant. */
  access_token_expires_at: Instant,
  refresh_token: Schema.String,
  webview_settings: Schema.optionalKey(WebviewSettings),
})
export type AuthSession = typeof AuthSession.Type

export const AuthInitResponse = Schema.Struct({
  ...AuthSession.fields,
  webview_settings: WebviewSettings,
  user_id: Schema.Int,
  is_new_user: Schema.Boolean,
  local_currency: Schema.String,
  country_alpha2_ip: Schema.NullOr(Schema.String),
  country_alpha2_phone: Schema.NullOr(Schema.String),
  bot_username: Schema.String,
  bot_is_blocked: Schema.Boolean,
  ab_tests: Schema.Record(Schema.String, Schema.String),
  restriction_code: Schema.NullOr(RestrictionCode),
  subdivision_status: Schema.NullOr(Schema.String),
  permissions: Permissions,
  is_custody_available: Schema.Boolean,
  created_at: Instant,
})
export type AuthInitResponse = typeof AuthInitResponse.Type

export const RefreshRequest = Schema.Struct({
  session_id: userText({ minLength: 1, maxLength: 256 }),
  refresh_token: userText({ minLength: 1, maxLength: 256 }),
})
export type RefreshRequest = typeof RefreshRequest.Type

/** Flag name -> on. Unknown names are simply absent (read them as off). */
export const FeatureFlags = Schema.Record(Schema.String, Schema.Boolean)
export type FeatureFlags = typeof FeatureFlags.Type
