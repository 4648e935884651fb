/**
 * `@wallet/plugin-kyc/api`: identity verification's HTTP contract (spec 3 §3, §7.2). Browser-safe
 * (only `effect`, `@wallet/kernel/api` and the plugin's pure rules). Every endpoint needs
 * `Authorization: Bearer <access token>`.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { ApiId, authenticated, userText } from "@wallet/kernel/api"
import {
  EDD_STATUSES,
  EVIDENCE_GROUPS,
  EVIDENCE_KINDS,
  EVIDENCE_TYPES,
  MAX_EVIDENCE_BYTES,
  FULL_BLOCK_CODES,
  HELD_LEVELS,
  KYC_LEVELS,
  LEVEL1_STATUSES,
  RESTRICTED_PERMISSIONS,
} from "./domain.ts"

export const KycLevelSchema = Schema.Literals(KYC_LEVELS)
export const HeldLevelSchema = Schema.Literals(HELD_LEVELS)
export const Level1StatusSchema = Schema.Literals(LEVEL1_STATUSES)
export const ClientPermissionSchema = Schema.Literals(RESTRICTED_PERMISSIONS)

/** An ISO 3166-1 alpha-2 country code, upper case. */
export const CountryCode = Schema.String.check(Schema.isPattern(/^[A-Z]{2}$/, { message: "a two-letter country code (ISO 3166-1 alpha-2)" }))

export const ClientPermissions = Schema.Struct({
  canBuy: Schema.Boolean,
  canReceive: Schema.Boolean,
  canExchange: Schema.Boolean,
  canWithdrawInner: Schema.Boolean,
  canWithdrawOuter: Schema.Boolean,
  canUseWpayAsPayer: Schema.Boolean,
  canRaffle: Schema.Boolean,
  canUseP2p: Schema.Boolean,
})

export const KycBlock = Schema.Struct({
  code: Schema.Literals(FULL_BLOCK_CODES),
  requiredAction: Schema.NullOr(Schema.Literal("CS_001")),
  unblockingCondition: Schema.NullOr(Schema.Struct({ type: Schema.Literal("PASS_KYC"), requiredLevel: HeldLevelSchema })),
})

export const KycPartialBlock = Schema.Struct({
  code: Schema.Literal("PBR_002"),
  requiredAction: Schema.Literal("CS_002"),
  permission: ClientPermissionSchema,
})

/** The user's last review by the verification partner (levels 2 and 3; decision 0930). */
export const PartnerReview = Schema.Struct({
  level: Schema.Literals(["LEVEL_2", "LEVEL_3"]),
  reviewStatus: Schema.Literals(["init", "pending", "onHold", "completed"]),
  answer: Schema.NullOr(Schema.Literals(["GREEN", "RED"])),
  rejectType: Schema.NullOr(Schema.Literals(["RETRY", "FINAL"])),
  rejectLabels: Schema.Array(Schema.String),
  /** What the partner's reviewer tells the user (shown as is). */
  moderationComment: Schema.NullOr(Schema.String),
})
export type PartnerReview = typeof PartnerReview.Type

export const EvidenceGroupSchema = Schema.Literals(EVIDENCE_GROUPS)
export const EvidenceKindSchema = Schema.Literals(EVIDENCE_KINDS)
export const EddStatusSchema = Schema.Literals(EDD_STATUSES)

/** The EDD request in the status: enough for the gate and the banners. */
export const EddSummary = Schema.Struct({ status: EddStatusSchema, blocking: Schema.Boolean, groups: Schema.Array(EvidenceGroupSchema) })
export type EddSummary = typeof EddSummary.Type

/** Spec 3 §3 "Identity verification status". */
export const VerificationStatus = Schema.Struct({
  level: KycLevelSchema,
  level1Status: Level1StatusSchema,
  status: Schema.Literals(["SUCCESS", "BLOCKED"]),
  canSetAsPrimary: Schema.Boolean,
  block: Schema.NullOr(KycBlock),
  partialBlocks: Schema.Array(KycPartialBlock),
  blockedPermissions: Schema.Array(ClientPermissionSchema),
  blockReason: Schema.NullOr(Schema.Struct({ code: Schema.String })),
  permissions: ClientPermissions,
  residenceCountryAlpha2: Schema.NullOr(Schema.String),
  entityInfo: Schema.Struct({ country: Schema.NullOr(Schema.String), consents: Schema.Array(Schema.String) }),
  regionVerificationRedirects: Schema.NullOr(Schema.Struct({ success: Schema.String, back: Schema.String })),
  requiredLevelAfterKyc1: HeldLevelSchema,
  /** The phone's country did not settle the residence: the country step is asked (spec 3 §4.2). */
  shouldShowCountryStep: Schema.Boolean,
  /** The phone on file, masked (`+49 ••• ••• 78`), or null. */
  phoneMasked: Schema.NullOr(Schema.String),
  /** Spec 3 §4.2: the bypass permission: a blocked user with it is not sent to the blocked screen. */
  bypassBlockedScreen: Schema.Boolean,
  /** The last partner review (levels 2 and 3), or null before any. */
  review: Schema.NullOr(PartnerReview),
  /** Spec 3 §3 "Access info". */
  accessInfo: Schema.Struct({
    accessToWithdraws: Schema.Boolean,
    accessToExchanges: Schema.Boolean,
    accessToExchangesByCountry: Schema.Boolean,
    accessToP2p: Schema.Boolean,
  }),
  /** Staff's request for evidence (EDD, decision 0940), or null. */
  edd: Schema.NullOr(EddSummary),
})
export type VerificationStatus = typeof VerificationStatus.Type

/** Spec 3 §7.2 "Set phone": Telegram's signed `requestContact` answer, unmodified. */
export const SetPhoneRequest = Schema.Struct({ contactRawData: userText({ minLength: 1, maxLength: 4096 }) })
export const SetCountryRequest = Schema.Struct({ country: CountryCode })
export const SetNameRequest = Schema.Struct({
  firstName: userText({ minLength: 1, maxLength: 64 }),
  lastName: userText({ minLength: 1, maxLength: 64 }),
})
/** Spec 3 §4.2, §7.4: a consent the user gives (CS_001 lifts BR_001, CS_002 a partial block, CS_003 with the terms). */
export const ConsentRequest = Schema.Struct({ consent: Schema.Literals(["CS_001", "CS_002", "CS_003", "CS_004"]) })
/** Opens the partner's flow (the WebSDK) for a level. */
export const PartnerTokenRequest = Schema.Struct({ level: Schema.Literals(["LEVEL_2", "LEVEL_3"]) })
/** The SDK's access token (single use, for this user and level) and the origin its frame loads from. */
export const PartnerTokenResponse = Schema.Struct({
  accessToken: Schema.String,
  baseUrl: Schema.String,
  level: Schema.Literals(["LEVEL_2", "LEVEL_3"]),
  levelName: Schema.String,
})
export type PartnerTokenResponse = typeof PartnerTokenResponse.Type

/** One evidence file as its owner sees it. */
export const EvidenceFile = Schema.Struct({
  id: Schema.Number,
  kind: EvidenceKindSchema,
  fileName: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
})
export type EvidenceFile = typeof EvidenceFile.Type

/** `GET /api/kyc/edd`: what staff asked for, and the files given per group and attachment list. */
export const EddState = Schema.Struct({
  request: Schema.NullOr(
    Schema.Struct({
      status: EddStatusSchema,
      blocking: Schema.Boolean,
      /** What staff wrote to the user. */
      note: Schema.NullOr(Schema.String),
      /** Why staff did not accept the evidence (status rejected). */
      reason: Schema.NullOr(Schema.String),
      groups: Schema.Array(
        Schema.Struct({
          group: EvidenceGroupSchema,
          kinds: Schema.Array(Schema.Struct({ kind: EvidenceKindSchema, files: Schema.Array(EvidenceFile) })),
        }),
      ),
    }),
  ),
})
export type EddState = typeof EddState.Type

/** The file's place: `POST /api/kyc/evidence?group=sow&kind=bankStatement&name=…` with the file as the body. */
export const EvidenceQuery = Schema.Struct({
  group: EvidenceGroupSchema,
  kind: EvidenceKindSchema,
  name: userText({ minLength: 1, maxLength: 120 }),
})
export const RemoveEvidenceRequest = Schema.Struct({ id: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 2_147_483_647 })) })

/** Why an evidence change was refused (the request and the files are unchanged). */
export class KycEvidenceRefused extends Schema.TaggedError<KycEvidenceRefused>()(
  "KycEvidenceRefused",
  {
    code: Schema.Literals([
      "edd_not_open",
      "group_not_requested",
      "kind_not_in_group",
      "too_many_files",
      "file_invalid",
      "file_too_large",
      "evidence_missing",
      "no_such_file",
    ]),
    message: Schema.String,
  },
  { httpApiStatus: 409, description: "The evidence change does not apply now; `code` says why" },
) {}

/** Spec 3 §7.4 "Accept terms of service": what the acceptance gives. */
export const TermsResponse = Schema.Struct({
  acceptedServiceTerms: Schema.Literal(true),
  kycLevel: KycLevelSchema,
  permissions: ClientPermissions,
})
export type TermsResponse = typeof TermsResponse.Type

/** The answer of each step: `status` and the new verification status (spec 3 §7.2). */
export const StepResponse = Schema.Struct({ status: Schema.Literal("SUCCESS"), data: VerificationStatus })
export type StepResponse = typeof StepResponse.Type

/** Why a step was refused (HTTP 400 or 409); the status is unchanged. */
export const KycErrorCode = Schema.Literals([
  "contact_invalid",
  "contact_expired",
  "contact_not_yours",
  "phone_invalid",
  "country_unsupported",
  "name_invalid",
  "step_not_open",
  "user_blocked",
])
export type KycErrorCode = typeof KycErrorCode.Type

export class KycError extends Schema.TaggedError<KycError>()(
  "KycError",
  { code: KycErrorCode, message: Schema.String },
  { httpApiStatus: 400, description: "The step was refused; `code` says why and the status is unchanged" },
) {}

export class KycConflict extends Schema.TaggedError<KycConflict>()(
  "KycConflict",
  { code: Schema.Literals(["step_not_open", "user_blocked", "level_held", "steps_first", "review_pending", "review_final"]), message: Schema.String },
  { httpApiStatus: 409, description: "The step does not apply to the user's current status" },
) {}

export class KycPartnerUnavailable extends Schema.TaggedError<KycPartnerUnavailable>()(
  "KycPartnerUnavailable",
  { code: Schema.Literal("partner_unavailable"), message: Schema.String },
  { httpApiStatus: 503, description: "The verification partner cannot be reached (or none is configured); try again later" },
) {}

export const KycGroup = authenticated(
  HttpApiGroup.make("kyc").add(
    HttpApiEndpoint.get("status", "/api/kyc/status", { success: VerificationStatus }),
    HttpApiEndpoint.post("setPhone", "/api/kyc/phone", { payload: SetPhoneRequest, success: StepResponse, error: [KycError, KycConflict] }),
    HttpApiEndpoint.post("setCountry", "/api/kyc/country", { payload: SetCountryRequest, success: StepResponse, error: [KycError, KycConflict] }),
    HttpApiEndpoint.post("setName", "/api/kyc/name", { payload: SetNameRequest, success: StepResponse, error: [KycError, KycConflict] }),
    HttpApiEndpoint.post("consent", "/api/kyc/consent", { payload: ConsentRequest, success: StepResponse, error: KycConflict }),
    HttpApiEndpoint.post("acceptTerms", "/api/kyc/terms", { success: TermsResponse, error: KycConflict }),
    HttpApiEndpoint.get("edd", "/api/kyc/edd", { success: EddState }),
    HttpApiEndpoint.post("uploadEvidence", "/api/kyc/evidence", {
      query: EvidenceQuery,
      payload: HttpApiSchema.StreamUint8Array({ contentType: [...EVIDENCE_TYPES, "application/octet-stream"], maxBytes: MAX_EVIDENCE_BYTES }),
      success: EddState,
      error: KycEvidenceRefused,
    }),
    HttpApiEndpoint.post("removeEvidence", "/api/kyc/evidence/remove", { payload: RemoveEvidenceRequest, success: EddState, error: KycEvidenceRefused }),
    HttpApiEndpoint.post("submitEdd", "/api/kyc/edd/submit", { success: EddState, error: KycEvidenceRefused }),
    HttpApiEndpoint.post("partnerSubmitted", "/api/kyc/partner/submitted", { success: VerificationStatus, error: KycPartnerUnavailable }),
    HttpApiEndpoint.post("partnerToken", "/api/kyc/partner/token", {
      payload: PartnerTokenRequest,
      success: PartnerTokenResponse,
      error: [KycConflict, KycPartnerUnavailable],
    }),
  ),
)

export const KycApi = HttpApi.make(ApiId).add(KycGroup)
