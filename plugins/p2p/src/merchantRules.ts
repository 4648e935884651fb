/**
 * Trusted merchants (issue 21; spec 3 §1 "a merchant may be verified and then shows a badge", §2.1
 * /p2p/trusted-merchant-application; §6 says the rules are not shown, so these are ours). A user may
 * apply when every criterion is met; support approves or rejects the application in the operator
 * console, and may revoke the badge later. Pure rules, shared by the server (which checks them again
 * at the application) and the screen (which shows each criterion with the user's value).
 *
 * The criteria, with the defaults of `pluginConfig.p2p.trustedMerchant`:
 * - verification: level 2 or higher (LEVEL_2: the identity document checked; the kyc plugin's level);
 * - orders: at least 20 completed orders in the last 30 days;
 * - completion rate: at least 90 % (completed / (completed + cancelled or expired on the user));
 * - account age: at least 30 days since the user's first sign-in.
 * After a rejection or a revoked badge, a new application waits `reapplyCooldownDays` (14).
 */

export const MERCHANT_CRITERIA = ["verification", "orders30d", "completionRate", "accountAge"] as const
export type MerchantCriterionId = (typeof MERCHANT_CRITERIA)[number]

/** PENDING until support decides; APPROVED shows the badge; REVOKED is an approval support took back. */
export const MERCHANT_APPLICATION_STATUSES = ["PENDING", "APPROVED", "REJECTED", "REVOKED"] as const
export type MerchantApplicationStatus = (typeof MERCHANT_APPLICATION_STATUSES)[number]

/** Support's reason for a rejection or a revocation, shown to the user (characters). */
export const MAX_MERCHANT_REASON = 500

export interface TrustedMerchantRules {
  readonly minLevel: number
  readonly minCompletedOrders30d: number
  readonly minCompletionRatePercent: number
  readonly minAccountAgeDays: number
  readonly reapplyCooldownDays: number
}

export const DEFAULT_TRUSTED_MERCHANT: TrustedMerchantRules = {
  minLevel: 2,
  minCompletedOrders30d: 20,
  minCompletionRatePercent: 90,
  minAccountAgeDays: 30,
  reapplyCooldownDays: 14,
}

const whole = (value: unknown, fallback: number, max: number) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= max ? value : fallback

/** The region's thresholds (`pluginConfig.p2p.trustedMerchant`); a missing or out-of-range value keeps its default. */
export const readTrustedMerchantRules = (raw: unknown): TrustedMerchantRules => {
  const c = (raw !== null && typeof raw === "object" ? raw : {}) as Record<string, unknown>
  const d = DEFAULT_TRUSTED_MERCHANT
  return {
    minLevel: whole(c.minLevel, d.minLevel, 4),
    minCompletedOrders30d: whole(c.minCompletedOrders30d, d.minCompletedOrders30d, 100_000),
    minCompletionRatePercent: whole(c.minCompletionRatePercent, d.minCompletionRatePercent, 100),
    minAccountAgeDays: whole(c.minAccountAgeDays, d.minAccountAgeDays, 3650),
    reapplyCooldownDays: whole(c.reapplyCooldownDays, d.reapplyCooldownDays, 365),
  }
}

/**
 * A verification level as a number: "LEVEL_2" is 2; "none" (a server without verification) is 0;
 * BLOCKED or anything unknown is null (never enough).
 */
export const levelNumber = (level: string): number | null => {
  if (level === "none") return 0
  const match = /^LEVEL_(\d)$/.exec(level)
  return match === null ? null : Number(match[1])
}

const DAY_MS = 86_400_000

/** Whole days from `createdAt` to `nowMs`. */
export const accountAgeDays = (createdAt: Date, nowMs: number): number => Math.max(0, Math.floor((nowMs - createdAt.getTime()) / DAY_MS))

/** What the criteria read of a user. */
export interface MerchantFacts {
  /** Null: blocked, or a level the rules do not know. */
  readonly level: number | null
  readonly completedOrders30d: number
  /** Whole percent; null before the first closed order. */
  readonly completionRatePercent: number | null
  readonly accountAgeDays: number
}

export interface CriterionResult {
  readonly id: MerchantCriterionId
  readonly met: boolean
  /** The user's value (null: none yet, e.g. no closed order for a rate). */
  readonly value: number | null
  readonly required: number
}

/** Each criterion, in the order the screen lists them. A rate of nobody is met only when no rate is required. */
export const evaluateCriteria = (facts: MerchantFacts, rules: TrustedMerchantRules): ReadonlyArray<CriterionResult> => [
  { id: "verification", value: facts.level, required: rules.minLevel, met: facts.level !== null && facts.level >= rules.minLevel },
  {
    id: "orders30d",
    value: facts.completedOrders30d,
    required: rules.minCompletedOrders30d,
    met: facts.completedOrders30d >= rules.minCompletedOrders30d,
  },
  {
    id: "completionRate",
    value: facts.completionRatePercent,
    required: rules.minCompletionRatePercent,
    met: (facts.completionRatePercent ?? 0) >= rules.minCompletionRatePercent,
  },
  { id: "accountAge", value: facts.accountAgeDays, required: rules.minAccountAgeDays, met: facts.accountAgeDays >= rules.minAccountAgeDays },
]

export const allMet = (results: ReadonlyArray<CriterionResult>): boolean => results.every((result) => result.met)

/**
 * The 30-day figures when the stats carry them (the reputation work adds `completedOrders30d` and
 * `completionRate30d`), else the all-time ones.
 */
export const recentStats = (stats: {
  readonly completedOrders: number
  readonly completionRate: number | null
  readonly completedOrders30d?: number | undefined
  readonly completionRate30d?: number | null | undefined
}): { readonly completedOrders30d: number; readonly completionRatePercent: number | null } => ({
  completedOrders30d: stats.completedOrders30d ?? stats.completedOrders,
  completionRatePercent: stats.completionRate30d !== undefined ? stats.completionRate30d : stats.completionRate,
})

/** When a rejected or revoked user may apply again. */
export const reapplyAt = (decidedAt: Date, rules: TrustedMerchantRules): Date => new Date(decidedAt.getTime() + rules.reapplyCooldownDays * DAY_MS)

/**
 * Whether a new application may be sent now: every criterion met, nothing pending or approved, and
 * the cooldown after the last rejection or revocation over.
 */
export const mayApply = (
  results: ReadonlyArray<CriterionResult>,
  latest: { readonly status: MerchantApplicationStatus; readonly decidedAt: Date | null } | null,
  rules: TrustedMerchantRules,
  nowMs: number,
): "ok" | "criteria_not_met" | "exists" | "cooldown" => {
  if (latest !== null && (latest.status === "PENDING" || latest.status === "APPROVED")) return "exists"
  if (latest !== null && latest.decidedAt !== null && reapplyAt(latest.decidedAt, rules).getTime() > nowMs) return "cooldown"
  return allMet(results) ? "ok" : "criteria_not_met"
}
