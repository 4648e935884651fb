/**
 * Levels 2 and 3 through the partner (issue 19, decision 0930). The user asks for an SDK access token;
 * the partner's webhooks then tell the wallet what happened. A webhook is believed only when its
 * digest is the partner's; its delivery id (the hash of its raw body) is recorded in the same
 * transaction as its effect, so a redelivery changes nothing; and an event older than the last one
 * applied for the applicant (deliveries come out of order) is recorded but not applied. A GREEN review
 * raises the level, a later RED of the same applicant takes it back, and the user's permissions are
 * rewritten and a bot message queued in that same transaction.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import type { PartnerReview, VerificationStatus } from "../api.ts"
import { HELD_LEVELS, levelRank, type HeldLevel } from "../domain.ts"
import { deliveryId, KycPartner, LEVEL_NAMES, levelOfName, type PartnerLevel, type WebhookPayload } from "./partner.ts"
import { activeBlocks, botLanguageOf, currentStatus, ensureRow, partnerReviewOf, statusFrom, storePermissions } from "./store.ts"

export { partnerReviewOf }

export type TokenRefusal = "level_held" | "steps_first" | "review_pending" | "review_final" | "user_blocked"

/**
 * Whether the user may open the partner's flow for `level` (a refusal code, or undefined): level 1's
 * phone and country done (the partner reads the name off the document), the level not held yet, no
 * review running, no final rejection.
 */
export const tokenRefusal = (
  status: Pick<VerificationStatus, "status" | "level" | "level1Status" | "block">,
  review: PartnerReview | null,
  level: PartnerLevel,
): TokenRefusal | undefined => {
  // A block lifted by passing a level (BR_015, PASS_KYC) is passed here: the document is the way out.
  const passToUnblock = status.block?.unblockingCondition?.type === "PASS_KYC" && levelRank(status.block.unblockingCondition.requiredLevel) <= levelRank(level)
  if (status.status === "BLOCKED" && !passToUnblock) return "user_blocked"
  if (levelRank(status.level as HeldLevel) >= levelRank(level)) return "level_held"
  if (!passToUnblock && status.level1Status !== "PASSED" && status.level1Status !== "SELF_DECLARED_NAME_REQUIRED") return "steps_first"
  if (review !== null && (review.reviewStatus === "pending" || review.reviewStatus === "onHold")) return "review_pending"
  if (review !== null && review.answer === "RED" && review.rejectType === "FINAL") return "review_final"
  return undefined
}

/** Records the level the user is going for (the status's requiredLevelAfterKyc1). */
export const setTargetLevel = (userId: number, level: PartnerLevel) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`update kyc_verifications set required_level_after_kyc1 = ${level} where user_id = ${userId}`
  })

export type WebhookOutcome = "applied" | "duplicate" | "stale" | "unknown_user" | "ignored"

const BOT_TEXT = {
  en: {
    approved: (level: string) => `Your identity is verified: level ${level.slice(-1)} is open, with its higher limits.`,
    retry: (comment: string) => `We could not verify your documents. ${comment} Open the wallet to send them again.`.replace(/\s+/g, " "),
    final: () => "We could not verify your identity. Open the wallet to see why.",
  },
  ru: {
    approved: (level: string) => `Личность подтверждена: открыт уровень ${level.slice(-1)} с повышенными лимитами.`,
    retry: (comment: string) => `Не удалось проверить документы. ${comment} Откройте кошелёк, чтобы отправить их снова.`.replace(/\s+/g, " "),
    final: () => "Не удалось подтвердить личность. Откройте кошелёк, чтобы узнать причину.",
  },
} as const

/**
 * One verified webhook, in one transaction: the delivery recorded (a duplicate stops here), the
 * applicant row moved only by a newer event, and for a review the level, permissions, event and bot
 * message. Answers what happened (the partner gets 200 for all of them: it must not retry).
 */
export const applyWebhook = (rawBody: Uint8Array, payload: WebhookPayload) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const outbox = yield* Outbox
    const id = deliveryId(rawBody)
    const userId = /^\d{1,15}$/.test(payload.externalUserId) ? Number(payload.externalUserId) : undefined
    const level = levelOfName(payload.levelName ?? "")
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const now = new Date(config.now())
        // The delivery is recorded first: a concurrent copy waits on this row and then finds it.
        const fresh = yield* sql`insert into kyc_webhooks (id, applicant_id, type, event_at, outcome, received_at)
          values (${id}, ${payload.applicantId}, ${payload.type}, ${payload.createdAtMs}, 'received', ${now})
          on conflict (id) do nothing returning id`
        if (fresh.length === 0) return "duplicate" as WebhookOutcome
        const record = (outcome: WebhookOutcome) => sql`update kyc_webhooks set outcome = ${outcome} where id = ${id}`.pipe(Effect.as(outcome))
        const known = userId === undefined ? [] : yield* sql`select 1 from kernel_users where id = ${userId}`
        if (userId === undefined || known.length === 0) return yield* record("unknown_user")
        if (level === undefined) return yield* record("ignored")
        // Only a newer event moves the applicant (the partner's `createdAtMs` sorts as text).
        const state =
          payload.type === "applicantReviewed"
            ? "completed"
            : payload.type === "applicantOnHold"
              ? "onHold"
              : payload.type === "applicantPending"
                ? "pending"
                : "init"
        const review = payload.type === "applicantReviewed" ? payload.reviewResult : undefined
        const moved = yield* sql`
          insert into kyc_applicants (user_id, applicant_id, level, review_status, answer, reject_type, reject_labels, moderation_comment, client_comment, event_at, updated_at)
          values (${userId}, ${payload.applicantId}, ${level}, ${state}, ${review?.reviewAnswer ?? null}, ${review?.reviewRejectType ?? null},
            ${JSON.stringify(review?.rejectLabels ?? [])}::jsonb, ${review?.moderationComment ?? null}, ${review?.clientComment ?? null}, ${payload.createdAtMs}, ${now})
          on conflict (user_id) do update set
            applicant_id = excluded.applicant_id, level = excluded.level, review_status = excluded.review_status, answer = excluded.answer,
            reject_type = excluded.reject_type, reject_labels = excluded.reject_labels, moderation_comment = excluded.moderation_comment,
            client_comment = excluded.client_comment, event_at = excluded.event_at, updated_at = excluded.updated_at
          where kyc_applicants.event_at < excluded.event_at
          returning user_id`
        if (moved.length === 0) return yield* record("stale")
        yield* record("applied")
        if (review === undefined) return "applied" as WebhookOutcome
        // The review's effect on the level, with the permissions it gives, in this transaction.
        const { row } = yield* ensureRow(userId)
        const blocks = yield* activeBlocks(userId)
        const raised = review.reviewAnswer === "GREEN" && levelRank(row.level) < levelRank(level)
        // A later RED of the review that gave the level takes it back to what level 1's steps give.
        const lowered = review.reviewAnswer === "RED" && row.level === level
        const stepsLevel: HeldLevel = statusFrom({ ...row, level: "LEVEL_0" }, blocks).level1Status === "PASSED" ? "LEVEL_1" : "LEVEL_0"
        const nextLevel: HeldLevel = raised ? level : lowered ? stepsLevel : row.level
        yield* sql`update kyc_verifications set level = ${nextLevel}, version = version + 1, updated_at = ${now} where user_id = ${userId}`
        // Blocks lifted by passing a level (PASS_KYC) that the user now holds.
        if (raised) {
          const held = HELD_LEVELS.slice(0, HELD_LEVELS.indexOf(nextLevel) + 1)
          yield* sql`update kyc_blocks set lifted_at = ${now}
            where user_id = ${userId} and kind = 'full' and lifted_at is null and required_level in ${sql.in(held)}`
        }
        const after = yield* currentStatus(userId, { ...row, level: nextLevel })
        yield* storePermissions(userId, after)
        yield* sql`insert into kyc_events (user_id, kind, detail, at) values (${userId}, ${"partner.review"}, ${JSON.stringify({
          applicantId: payload.applicantId,
          answer: review.reviewAnswer,
          rejectType: review.reviewRejectType ?? null,
          level: after.level,
        })}::jsonb, ${now})`
        const language = yield* botLanguageOf(userId)
        const text = BOT_TEXT[language]
        const body =
          review.reviewAnswer === "GREEN"
            ? text.approved(level)
            : review.reviewRejectType === "RETRY"
              ? text.retry(review.moderationComment ?? "")
              : text.final()
        yield* outbox.enqueue({ channel: "telegram", recipient: String(userId), subject: "kyc.review", body })
        return "applied"
      }),
    )
  })

/** The access token for the user's partner flow at `level`, after the checks; records the target level. */
export const partnerToken = (userId: number, level: PartnerLevel) =>
  Effect.gen(function* () {
    const partner = yield* KycPartner
    const token = yield* partner.accessToken(userId, level)
    yield* setTargetLevel(userId, level)
    return { accessToken: token, baseUrl: partner.sdkUrl, level, levelName: LEVEL_NAMES[level] }
  })

/**
 * The user's frame said the documents were sent: the wallet asks the partner (its webhook may come
 * late, or after the review's). A review the partner has running is recorded as pending without moving
 * the applicant's event time, so every webhook still applies after it; a finished one changes nothing.
 */
export const reconcileSubmission = (userId: number) =>
  Effect.gen(function* () {
    const partner = yield* KycPartner
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const applicant = yield* partner.applicantOf(userId)
    if (applicant === null) return
    const status = yield* partner.reviewStatus(applicant.id)
    const level = levelOfName(status.levelName ?? "")
    if ((status.reviewStatus !== "pending" && status.reviewStatus !== "onHold") || level === undefined) return
    const now = new Date(config.now())
    yield* sql`
      insert into kyc_applicants (user_id, applicant_id, level, review_status, event_at, updated_at)
      values (${userId}, ${applicant.id}, ${level}, ${status.reviewStatus}, '', ${now})
      on conflict (user_id) do update set
        applicant_id = excluded.applicant_id, level = excluded.level, review_status = excluded.review_status, answer = null,
        reject_type = null, reject_labels = '[]'::jsonb, moderation_comment = null, client_comment = null, updated_at = excluded.updated_at
      where kyc_applicants.review_status not in ('pending', 'onHold')`
  })
