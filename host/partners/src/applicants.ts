/**
 * Applicants and their review: rows, the JSON views Sumsub answers with (`/one` and `/status`), and
 * the transitions (create, level change, submit, onHold, testCompleted). Every transition that
 * Sumsub reports enqueues its webhook in the same transaction.
 */
import { SumsubError } from "./http/http.ts"
import type { Sql } from "./db.ts"
import { sumsubDate, sumsubReviewDate } from "./dates.ts"
import { hexId } from "./ids.ts"

export type ReviewStatus = "init" | "pending" | "onHold" | "completed"
export type ReviewAnswer = "GREEN" | "RED"
export type RejectType = "RETRY" | "FINAL"

export interface ReviewResult {
  readonly reviewAnswer: ReviewAnswer
  readonly rejectLabels?: ReadonlyArray<string>
  readonly reviewRejectType?: RejectType
  readonly moderationComment?: string
  readonly clientComment?: string
}

export interface Applicant {
  readonly id: string
  readonly externalUserId: string
  readonly inspectionId: string
  readonly levelName: string
  readonly createdAt: number
  readonly reviewStatus: ReviewStatus
  readonly attemptCnt: number
  readonly attemptId: string
  readonly reviewCreatedAt: number
  readonly reviewedAt: number | null
  readonly reviewResult: ReviewResult | null
}

interface Row {
  id: string
  external_user_id: string
  inspection_id: string
  level_name: string
  created_at: number
  review_status: ReviewStatus
  attempt_cnt: number
  attempt_id: string
  review_created_at: number
  reviewed_at: number | null
  review_result: ReviewResult | null
}

const fromRow = (r: Row): Applicant => ({
  id: r.id,
  externalUserId: r.external_user_id,
  inspectionId: r.inspection_id,
  levelName: r.level_name,
  createdAt: Number(r.created_at),
  reviewStatus: r.review_status,
  attemptCnt: r.attempt_cnt,
  attemptId: r.attempt_id,
  reviewCreatedAt: Number(r.review_created_at),
  reviewedAt: r.reviewed_at === null ? null : Number(r.reviewed_at),
  reviewResult: r.review_result,
})

const one = async (sql: Sql, where: string, value: string): Promise<Applicant | undefined> => {
  const { rows } = await sql.query<Row>(`select * from applicants where ${where} = $1`, [value])
  return rows[0] ? fromRow(rows[0]) : undefined
}

export const findApplicant = (sql: Sql, id: string): Promise<Applicant | undefined> => one(sql, "id", id)
export const findByExternalUserId = (sql: Sql, externalUserId: string): Promise<Applicant | undefined> => one(sql, "external_user_id", externalUserId)

export const requireApplicant = async (sql: Sql, id: string): Promise<Applicant> => {
  const found = await findApplicant(sql, id)
  if (!found) throw new SumsubError(404, "applicant not found", "not-found")
  return found
}

/** Documents may be (re)uploaded and submitted: before the first submission or after a RED RETRY. */
export const acceptsDocuments = (a: Applicant): boolean =>
  a.reviewStatus === "init" || (a.reviewStatus === "completed" && a.reviewResult?.reviewAnswer === "RED" && a.reviewResult.reviewRejectType === "RETRY")

export const inReview = (a: Applicant): boolean => a.reviewStatus === "pending" || a.reviewStatus === "onHold"

/** `GET /resources/applicants/{id}/status` */
export const statusView = (a: Applicant) => ({
  reviewStatus: a.reviewStatus,
  levelName: a.levelName,
  attemptId: a.attemptId,
  attemptCnt: a.attemptCnt,
  createDate: sumsubReviewDate(a.reviewCreatedAt),
  ...(a.reviewedAt !== null ? { reviewDate: sumsubReviewDate(a.reviewedAt) } : {}),
  ...(a.reviewResult ? { reviewResult: a.reviewResult } : {}),
})

/** `GET /resources/applicants/{id}/one` */
export const applicantView = (a: Applicant) => ({
  id: a.id,
  createdAt: sumsubDate(a.createdAt),
  externalUserId: a.externalUserId,
  inspectionId: a.inspectionId,
  levelName: a.levelName,
  review: statusView(a),
})

export const createApplicant = async (sql: Sql, externalUserId: string, levelName: string, now: number): Promise<Applicant> => {
  const { rows } = await sql.query<Row>(
    `insert into applicants (id, external_user_id, inspection_id, level_name, created_at, review_status, attempt_cnt, attempt_id, review_created_at)
     values ($1, $2, $3, $4, $5, 'init', 0, $6, $5) returning *`,
    [hexId(), externalUserId, hexId(), levelName, now, hexId()],
  )
  if (!rows[0]) throw new Error("insert returned no applicant")
  return fromRow(rows[0])
}

const update = async (sql: Sql, id: string, set: string, params: ReadonlyArray<unknown>): Promise<Applicant> => {
  const { rows } = await sql.query<Row>(`update applicants set ${set} where id = $1 returning *`, [id, ...params])
  if (!rows[0]) throw new SumsubError(404, "applicant not found", "not-found")
  return fromRow(rows[0])
}

/** Moves the applicant to another level: a new attempt in `init`, the earlier result cleared. */
export const changeLevel = (sql: Sql, a: Applicant, levelName: string, now: number): Promise<Applicant> =>
  update(sql, a.id, "level_name = $2, review_status = 'init', attempt_id = $3, review_created_at = $4, reviewed_at = null, review_result = null", [
    levelName,
    hexId(),
    now,
  ])

/** Submission: pending, one more attempt, the earlier result cleared. */
export const markPending = (sql: Sql, a: Applicant, now: number): Promise<Applicant> =>
  update(sql, a.id, "review_status = 'pending', attempt_cnt = attempt_cnt + 1, review_created_at = $2, reviewed_at = null, review_result = null", [now])

export const markOnHold = (sql: Sql, a: Applicant): Promise<Applicant> => update(sql, a.id, "review_status = 'onHold'", [])

/**
 * The review's outcome. A RED RETRY opens a new attempt at once: documents uploaded after the
 * rejection belong to it and replace their step's earlier document; the others carry over.
 */
export const markReviewed = (sql: Sql, a: Applicant, result: ReviewResult, now: number): Promise<Applicant> =>
  update(sql, a.id, "review_status = 'completed', review_result = $2, reviewed_at = $3, attempt_id = $4", [
    JSON.stringify(result),
    now,
    result.reviewAnswer === "RED" && result.reviewRejectType === "RETRY" ? hexId() : a.attemptId,
  ])
