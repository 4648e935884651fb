/**
 * The signed server API the wallet's server calls: SDK access tokens, applicant lookups, status,
 * document metadata and images, and the sandbox's review controls (`testCompleted`, `onHold`).
 * The signature itself is checked before routing (server.ts).
 */
import { applicantView, findByExternalUserId, inReview, markOnHold, markReviewed, requireApplicant, statusView } from "../applicants.ts"
import type { ReviewResult } from "../applicants.ts"
import { LEVELS } from "../config.ts"
import type { SandboxContext } from "../context.ts"
import { currentDocuments, imageContent } from "../documents.ts"
import { issueAccessToken } from "../tokens.ts"
import { enqueueWebhook } from "../webhooks.ts"
import { json, jsonBody, param, SumsubError, type Request, type Route } from "./http.ts"

const badRequest = (description: string): SumsubError => new SumsubError(400, description, "bad-request")

const optionalString = (body: Record<string, unknown>, key: string, max: number): string | undefined => {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== "string" || value.length > max) throw badRequest(`${key} must be a string of at most ${max} characters`)
  return value
}

/** `testCompleted`'s body as a review result, or 400. */
const parseReview = (body: Record<string, unknown>): ReviewResult => {
  const answer = body["reviewAnswer"]
  if (answer !== "GREEN" && answer !== "RED") throw badRequest("reviewAnswer must be GREEN or RED")
  const labels = body["rejectLabels"]
  if (
    labels !== undefined &&
    labels !== null &&
    (!Array.isArray(labels) || labels.length > 50 || !labels.every((l) => typeof l === "string" && l.length <= 100))
  ) {
    throw badRequest("rejectLabels must be an array of strings")
  }
  const rejectType = body["reviewRejectType"]
  if (answer === "RED" && rejectType !== "RETRY" && rejectType !== "FINAL") throw badRequest("a RED review needs reviewRejectType RETRY or FINAL")
  const moderationComment = optionalString(body, "moderationComment", 2000)
  const clientComment = optionalString(body, "clientComment", 2000)
  return {
    reviewAnswer: answer,
    ...(answer === "RED" && Array.isArray(labels) && labels.length > 0 ? { rejectLabels: labels.map(String) } : {}),
    ...(answer === "RED" && (rejectType === "RETRY" || rejectType === "FINAL") ? { reviewRejectType: rejectType } : {}),
    ...(moderationComment !== undefined ? { moderationComment } : {}),
    ...(clientComment !== undefined ? { clientComment } : {}),
  }
}

export const serverRoutes = (ctx: SandboxContext): Route[] => {
  const { db, config } = ctx

  const accessToken = async (req: Request) => {
    const body = jsonBody(req)
    const userId = body["userId"]
    if (typeof userId !== "string" || userId.length < 1 || userId.length > 100) throw badRequest("userId must be a string of 1 to 100 characters")
    const levelName = body["levelName"]
    if (typeof levelName !== "string" || levelName.length === 0) throw badRequest("levelName is required")
    if (!LEVELS.includes(levelName)) throw new SumsubError(400, "level not found", "level-not-found")
    const ttl = body["ttlInSecs"] ?? 600
    if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1 || ttl > 86400) throw badRequest("ttlInSecs must be an integer from 1 to 86400")
    const token = await issueAccessToken(db, userId, levelName, ttl, config.now())
    return json({ token, userId })
  }

  const review = async (req: Request) => {
    const result = parseReview(jsonBody(req))
    await db.transaction(async (tx) => {
      const a = await requireApplicant(tx, param(req, "id"))
      if (!inReview(a)) throw new SumsubError(409, "applicant is not in review", "conflict")
      const now = config.now()
      const reviewed = await markReviewed(tx, a, result, now)
      await enqueueWebhook(tx, reviewed, "applicantReviewed", { correlationId: req.correlationId, now, reorder: ctx.chaos().reorder })
    })
    return json({ ok: 1 })
  }

  const hold = async (req: Request) => {
    await db.transaction(async (tx) => {
      const a = await requireApplicant(tx, param(req, "id"))
      if (a.reviewStatus !== "pending") throw new SumsubError(409, "applicant is not pending", "conflict")
      const held = await markOnHold(tx, a)
      await enqueueWebhook(tx, held, "applicantOnHold", { correlationId: req.correlationId, now: config.now(), reorder: ctx.chaos().reorder })
    })
    return json({ ok: 1 })
  }

  const image = async (req: Request) => {
    const found = await imageContent(db, param(req, "inspectionId"), param(req, "imageId"))
    if (!found) throw new SumsubError(404, "image not found", "not-found")
    return { status: 200, headers: { "content-type": found.fileType }, body: Buffer.from(found.content) }
  }

  return [
    { method: "POST", pattern: /^\/resources\/accessTokens\/sdk$/, handler: accessToken },
    {
      method: "GET",
      pattern: /^\/resources\/applicants\/-;externalUserId=(?<userId>[^/]+)\/one$/,
      handler: async (req) => {
        const a = await findByExternalUserId(db, param(req, "userId"))
        if (!a) throw new SumsubError(404, "applicant not found", "not-found")
        return json(applicantView(a))
      },
    },
    {
      method: "GET",
      pattern: /^\/resources\/applicants\/(?<id>[^/;]+)\/one$/,
      handler: async (req) => json(applicantView(await requireApplicant(db, param(req, "id")))),
    },
    {
      method: "GET",
      pattern: /^\/resources\/applicants\/(?<id>[^/;]+)\/status$/,
      handler: async (req) => json(statusView(await requireApplicant(db, param(req, "id")))),
    },
    {
      method: "GET",
      pattern: /^\/resources\/applicants\/(?<id>[^/;]+)\/metadata\/resources$/,
      handler: async (req) => json({ items: await currentDocuments(db, await requireApplicant(db, param(req, "id"))) }),
    },
    { method: "GET", pattern: /^\/resources\/inspections\/(?<inspectionId>[^/]+)\/resources\/(?<imageId>[^/]+)$/, handler: image },
    { method: "POST", pattern: /^\/resources\/applicants\/(?<id>[^/;]+)\/status\/testCompleted$/, handler: review },
    { method: "POST", pattern: /^\/resources\/applicants\/(?<id>[^/;]+)\/status\/onHold$/, handler: hold },
  ]
}
