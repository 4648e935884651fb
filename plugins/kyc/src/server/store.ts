/**
 * The kyc plugin's store: the verification row (created at LEVEL_0 on first use), the active
 * blocks, the status the mini-app reads (spec 3 §3) and the permissions written to the user's record.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import type { EddSummary, PartnerReview, VerificationStatus } from "../api.ts"
import {
  blockedPermissions,
  accessInfoOf,
  computePermissions,
  EDD_STATUSES,
  EVIDENCE_GROUPS,
  type EddStatus,
  type EvidenceGroup,
  effectiveLevel,
  FULL_BLOCK_CODES,
  HELD_LEVELS,
  level1StatusOf,
  levelRank,
  RESTRICTED_PERMISSIONS,
  toClientPermissions,
  type Block,
  type ClientPermission,
  type FullBlockCode,
  type HeldLevel,
} from "../domain.ts"
import { maskPhone } from "./phone.ts"

export interface VerificationRow {
  readonly level: HeldLevel
  readonly phone: string | null
  readonly phoneCountry: string | null
  readonly selfDeclaredCountry: string | null
  readonly firstName: string | null
  readonly lastName: string | null
  readonly requiredLevelAfterKyc1: HeldLevel
  readonly consents: ReadonlyArray<string>
  readonly version: number
  /** Staff let the user past the blocked screen (the block itself still closes the permissions). */
  readonly blockBypass: boolean
}

const heldLevel = (value: unknown): HeldLevel => ((HELD_LEVELS as ReadonlyArray<unknown>).includes(value) ? (value as HeldLevel) : "LEVEL_0")
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
const jsonList = (value: unknown): ReadonlyArray<string> => {
  const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value
  return Array.isArray(parsed) ? parsed.map(String) : []
}

const toRow = (row: Record<string, unknown>): VerificationRow => ({
  level: heldLevel(row.level),
  phone: text(row.phone),
  phoneCountry: text(row.phone_country),
  selfDeclaredCountry: text(row.self_declared_country),
  firstName: text(row.first_name),
  lastName: text(row.last_name),
  requiredLevelAfterKyc1: heldLevel(row.required_level_after_kyc1),
  consents: jsonList(row.consents),
  version: Number(row.version),
  blockBypass: row.block_bypass === true,
})

const toBlock = (row: Record<string, unknown>): Block | undefined => {
  if (row.kind === "full" && (FULL_BLOCK_CODES as ReadonlyArray<unknown>).includes(row.code)) {
    return {
      kind: "full",
      code: row.code as FullBlockCode,
      requiredAction: row.required_action === "CS_001" ? "CS_001" : null,
      unblockingCondition:
        row.required_level === null || row.required_level === undefined ? null : { type: "PASS_KYC", requiredLevel: heldLevel(row.required_level) },
    }
  }
  if (row.kind === "partial" && row.code === "PBR_002" && (RESTRICTED_PERMISSIONS as ReadonlyArray<unknown>).includes(row.permission)) {
    return { kind: "partial", code: "PBR_002", requiredAction: "CS_002", permission: row.permission as ClientPermission }
  }
  return undefined
}

/** The user's verification row, created at LEVEL_0 on first use (`created` tells which). */
export const ensureRow = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = new Date(config.now())
    const inserted = yield* sql<Record<string, unknown>>`
      insert into kyc_verifications (user_id, created_at, updated_at) values (${userId}, ${now}, ${now})
      on conflict (user_id) do nothing returning *`
    if (inserted[0] !== undefined) return { row: toRow(inserted[0]), created: true }
    const rows = yield* sql<Record<string, unknown>>`select * from kyc_verifications where user_id = ${userId}`
    return { row: toRow(rows[0]!), created: false }
  })

export const activeBlocks = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`select * from kyc_blocks where user_id = ${userId} and lifted_at is null order by id`
    return rows.flatMap((row) => {
      const block = toBlock(row)
      return block === undefined ? [] : [block]
    })
  })

export type ReviewState = "init" | "pending" | "onHold" | "completed"

const reviewState = (value: unknown): ReviewState =>
  value === "pending" || value === "onHold" || value === "completed" ? value : value === "init" ? "init" : "pending"

/** The user's last partner review (the status's `review`), or null before any. */
export const partnerReviewOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`select * from kyc_applicants where user_id = ${userId}`
    const row = rows[0]
    if (row === undefined) return null
    const labels: unknown = typeof row.reject_labels === "string" ? JSON.parse(row.reject_labels) : row.reject_labels
    return {
      level: row.level === "LEVEL_3" ? "LEVEL_3" : "LEVEL_2",
      reviewStatus: reviewState(row.review_status),
      answer: row.answer === "GREEN" || row.answer === "RED" ? row.answer : null,
      rejectType: row.reject_type === "RETRY" || row.reject_type === "FINAL" ? row.reject_type : null,
      rejectLabels: Array.isArray(labels) ? labels.map(String) : [],
      moderationComment: typeof row.moderation_comment === "string" ? row.moderation_comment : null,
    } satisfies PartnerReview
  })

const residenceOf = (row: VerificationRow) => row.selfDeclaredCountry ?? row.phoneCountry

/** The user's EDD request row (decision 0940), or undefined. */
export const eddRowOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`select * from kyc_edd where user_id = ${userId}`
    const row = rows[0]
    if (row === undefined) return undefined
    const groups: unknown = typeof row.groups === "string" ? JSON.parse(row.groups) : row.groups
    return {
      groups: Array.isArray(groups) ? groups.filter((group): group is EvidenceGroup => (EVIDENCE_GROUPS as ReadonlyArray<unknown>).includes(group)) : [],
      status: (EDD_STATUSES as ReadonlyArray<unknown>).includes(row.status) ? (row.status as EddStatus) : "requested",
      blocking: row.blocking === true,
      note: typeof row.note === "string" ? row.note : null,
      reason: typeof row.reason === "string" ? row.reason : null,
      version: Number(row.version),
    }
  })

/** The user's EDD request as the status shows it, or null. */
export const eddSummaryOf = (userId: number) =>
  Effect.map(eddRowOf(userId), (row): EddSummary | null => (row === undefined ? null : { status: row.status, blocking: row.blocking, groups: row.groups }))

/** The language of the user's bot messages: Russian for a Russian interface, else English. */
export const botLanguageOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const users = yield* sql<{ language: string | null; language_code: string | null }>`select language, language_code from kernel_users where id = ${userId}`
    return (users[0]?.language ?? users[0]?.language_code ?? "en").startsWith("ru") ? ("ru" as const) : ("en" as const)
  })

/** Whether an EDD request holds the account (asked with a hold, and not accepted yet). */
export const eddHolds = (edd: EddSummary | null): boolean => edd !== null && edd.blocking && edd.status !== "approved"

/** Spec 3 §3: the status the mini-app reads. */
export const statusFrom = (
  row: VerificationRow,
  blocks: ReadonlyArray<Block>,
  review: PartnerReview | null = null,
  edd: EddSummary | null = null,
): VerificationStatus => {
  const country = residenceOf(row)
  const server = computePermissions({ level: row.level, blocks, country, eddBlocking: eddHolds(edd) })
  const permissions = toClientPermissions(server)
  const full = blocks.find((block) => block.kind === "full")
  const level = effectiveLevel({ level: row.level, blocks })
  const countryRequired = row.phone !== null && row.phoneCountry === null
  return {
    level,
    level1Status: level1StatusOf({
      blocked: full !== undefined,
      phone: row.phone,
      countryRequired,
      country: row.selfDeclaredCountry,
      name: row.firstName === null ? null : `${row.firstName} ${row.lastName ?? ""}`.trim(),
      identityVerified: levelRank(row.level) >= levelRank("LEVEL_2"),
    }),
    status: full === undefined ? "SUCCESS" : "BLOCKED",
    canSetAsPrimary: level !== "BLOCKED",
    block:
      full === undefined || full.kind !== "full"
        ? null
        : { code: full.code, requiredAction: full.requiredAction, unblockingCondition: full.unblockingCondition },
    partialBlocks: blocks.flatMap((block) =>
      block.kind === "partial" ? [{ code: block.code, requiredAction: block.requiredAction, permission: block.permission }] : [],
    ),
    blockedPermissions: [...blockedPermissions(permissions)],
    blockReason: full === undefined ? null : { code: full.code },
    permissions,
    residenceCountryAlpha2: country,
    entityInfo: { country, consents: [...row.consents] },
    regionVerificationRedirects: null,
    requiredLevelAfterKyc1: row.requiredLevelAfterKyc1,
    shouldShowCountryStep: countryRequired || row.selfDeclaredCountry !== null,
    phoneMasked: row.phone === null ? null : maskPhone(row.phone),
    bypassBlockedScreen: row.blockBypass,
    review,
    accessInfo: accessInfoOf(server, country),
    edd,
  }
}

/**
 * The user's status from what is stored (blocks, the partner's review, the EDD request), with `row`
 * in place of the stored verification row when given (a change about to be written).
 */
export const currentStatus = (userId: number, row?: VerificationRow) =>
  Effect.gen(function* () {
    const verification = row ?? (yield* ensureRow(userId)).row
    return statusFrom(verification, yield* activeBlocks(userId), yield* partnerReviewOf(userId), yield* eddSummaryOf(userId))
  })

/** Writes the permissions a status gives into the user's record (client form, merged). */
export const storePermissions = (userId: number, status: VerificationStatus) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`update kernel_users set permissions = permissions || ${JSON.stringify(status.permissions)}::jsonb where id = ${userId}`
  })

/**
 * Reads the user's status. The first read creates the row at LEVEL_0 and writes that level's
 * permissions into the user's record, in one transaction.
 */
export const verificationStatus = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const { row, created } = yield* ensureRow(userId)
        const status = yield* currentStatus(userId, row)
        if (created) yield* storePermissions(userId, status)
        return status
      }),
    )
  })
