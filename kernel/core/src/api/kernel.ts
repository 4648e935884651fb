/**
 * The kernel's own endpoints the shell needs: feature flags, view settings, profile languages,
 * language, visitor id and the current user (spec 1 sections 3, 4, 7; spec 3 section 7.4).
 * All require `Authorization: Bearer <access token>`.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { FeatureFlags, Instant } from "./auth-schema.ts"
import { Forbidden, NotFound } from "./errors.ts"
import { userText } from "./fields.ts"
import { SessionAuth, validated } from "./security.ts"

/** Adds the middleware and decoding rules every authenticated group needs (call after the last `add`). */
export const authenticated = <Id extends string, E extends HttpApiEndpoint.Constraint, T extends boolean>(group: HttpApiGroup.HttpApiGroup<Id, E, T>) =>
  validated(group).middleware(SessionAuth)

// --- feature flags ---------------------------------------------------------------------------

/** Feature flags known to the kernel (spec 1 section 3); plugins may add more names. */
export const KnownFeatureFlags = [
  "dev_tools",
  "tonspace_pnl",
  "scw_risk_scanner",
  "xstocks",
  "scw_affluent",
  "uz_new_flow",
  "new_action_buttons",
  "scw_new_nft",
  "trade_exchange_form",
  /** degradation banners: true while the area works */
  "is_p2p_enabled",
  "is_ton_space_enabled",
] as const

export const FeatureFlagsGroup = authenticated(
  HttpApiGroup.make("featureFlags").add(HttpApiEndpoint.get("get", "/api/feature-flags", { success: FeatureFlags })),
)

// --- view settings ---------------------------------------------------------------------------

const userFlagFields = {
  expand_cryptocurrency: Schema.Boolean,
  display_scw: Schema.Boolean,
  p2p_onboarding_completed: Schema.Boolean,
  p2p_express_onboarding_completed: Schema.Boolean,
  display_change_language_alert: Schema.Boolean,
  display_change_language_tooltip: Schema.Boolean,
  wallet_onboarding_finished: Schema.Boolean,
  send_onboarding_finished: Schema.Boolean,
}

/** User flags of the view settings; `is_custody_available` is decided by the server. */
export const UserFlags = Schema.Struct({ ...userFlagFields, is_custody_available: Schema.Boolean })
export type UserFlags = typeof UserFlags.Type

/** Banner flags (display_terms_banner, trading cell, kyc, passcode, earn, stocks ...): open map. */
export const Banners = Schema.Record(Schema.String, Schema.Boolean)
export type Banners = typeof Banners.Type

export const KnownBanners = [
  "display_terms_banner",
  "display_trading_cell",
  "display_kyc_banner",
  "display_passcode_banner",
  "display_earn_banner",
  "display_stocks_waitlist_banner",
  "display_stocks_terms_banner",
] as const

export const ViewSettings = Schema.Struct({
  status: Schema.Literal("SUCCESS"),
  data: Schema.Struct({ userFlags: UserFlags, banners: Banners }),
})
export type ViewSettings = typeof ViewSettings.Type

/** Only the flags that changed; the client may not set `is_custody_available`. */
export const SaveViewSettingsRequest = Schema.Struct({
  changedUserFlags: Schema.optionalKey(
    Schema.Struct(
      Object.fromEntries(Object.entries(userFlagFields).map(([k, v]) => [k, Schema.optionalKey(v)])) as {
        [K in keyof typeof userFlagFields]: Schema.optionalKey<(typeof userFlagFields)[K]>
      },
    ),
  ),
  /** Banner name -> shown; names are plain text (at most 64 characters). */
  changedBanners: Schema.optionalKey(Schema.Record(userText({ minLength: 1, maxLength: 64 }), Schema.Boolean)),
})
export type SaveViewSettingsRequest = typeof SaveViewSettingsRequest.Type

export const ViewSettingsGroup = authenticated(
  HttpApiGroup.make("viewSettings").add(
    HttpApiEndpoint.get("get", "/api/view-settings", { success: ViewSettings }),
    /** Requires the `accessToSavingSettings` permission: 403 permission_denied otherwise. */
    HttpApiEndpoint.post("save", "/api/view-settings", { payload: SaveViewSettingsRequest, success: ViewSettings, error: Forbidden }),
  ),
)

// --- profile: languages ----------------------------------------------------------------------

export const LanguageCode = Schema.Literals(["en", "ru", "hi", "bn", "zh-TW"])
export type LanguageCode = typeof LanguageCode.Type

export const ProfileLanguages = Schema.Struct({
  available: Schema.Array(Schema.Struct({ name: Schema.String, code: LanguageCode, translation: Schema.String })),
})
export type ProfileLanguages = typeof ProfileLanguages.Type

export const SetLanguageRequest = Schema.Struct({ language: LanguageCode })
export type SetLanguageRequest = typeof SetLanguageRequest.Type

export const ProfileGroup = authenticated(
  HttpApiGroup.make("profile").add(
    HttpApiEndpoint.get("languages", "/api/profile/languages", { success: ProfileLanguages }),
    HttpApiEndpoint.post("setLanguage", "/api/profile/language", { payload: SetLanguageRequest, success: SetLanguageRequest }),
  ),
)

// --- visitor id ------------------------------------------------------------------------------

export const SetVisitorIdRequest = Schema.Struct({ value: userText({ minLength: 1, maxLength: 128 }) })
export type SetVisitorIdRequest = typeof SetVisitorIdRequest.Type

export const VisitorGroup = authenticated(
  HttpApiGroup.make("visitor").add(HttpApiEndpoint.post("set", "/api/visitor-id", { payload: SetVisitorIdRequest, success: HttpApiSchema.NoContent })),
)

// --- current user ----------------------------------------------------------------------------

const utmField = Schema.optionalKey(userText({ maxLength: 256 }))

/** UTM tags the client derives from the launch start parameter (spec 3 section 7.4). */
export const UtmTags = Schema.Struct({
  operation: utmField,
  source: utmField,
  medium: utmField,
  campaign: utmField,
  content: utmField,
})
export type UtmTags = typeof UtmTags.Type

export const CurrentUser = Schema.Struct({
  id: Schema.Int,
  first_name: Schema.String,
  last_name: Schema.NullOr(Schema.String),
  username: Schema.NullOr(Schema.String),
  language_code: Schema.NullOr(Schema.String),
  photo_url: Schema.NullOr(Schema.String),
  is_premium: Schema.Boolean,
  utm_tags: UtmTags,
  created_at: Instant,
})
export type CurrentUser = typeof CurrentUser.Type

export const UpsertUserRequest = Schema.Struct({ utmTags: Schema.optionalKey(UtmTags) })
export type UpsertUserRequest = typeof UpsertUserRequest.Type

/** 201 when the user record was created by this call (the client fires its user-created callback). */
export const UserCreated = Schema.Struct({ created: Schema.Literal(true), user: CurrentUser }).pipe(HttpApiSchema.status(201))
/** 200 when it existed already. */
export const UserUpdated = Schema.Struct({ created: Schema.Literal(false), user: CurrentUser })

export const UsersGroup = authenticated(
  HttpApiGroup.make("users").add(
    /** 404 user_not_found until the user record is created with `upsertMe`. */
    HttpApiEndpoint.get("me", "/api/users/me", { success: CurrentUser, error: NotFound }),
    HttpApiEndpoint.put("upsertMe", "/api/users/me", { payload: UpsertUserRequest, success: [UserCreated, UserUpdated] }),
  ),
)
