/**
 * Webhook events: the body Sumsub posts (fixed when the event happens), its digest header, and the
 * outbox row the delivery loop sends. With the `reorder` chaos an `applicantPending` is enqueued
 * `held`: it goes out only after the applicant's next event has been delivered.
 */
import { createHmac } from "node:crypto"
import type { Applicant } from "./applicants.ts"
import type { DigestAlg } from "./config.ts"
import type { Sql } from "./db.ts"
import { sumsubDateMs } from "./dates.ts"

export type WebhookType = "applicantCreated" | "applicantPending" | "applicantReviewed" | "applicantOnHold" | "applicantLevelChanged"

export const CLIENT_ID = "wallet-dev"

const HASHES: Readonly<Record<DigestAlg, string>> = { HMAC_SHA1_HEX: "sha1", HMAC_SHA256_HEX: "sha256", HMAC_SHA512_HEX: "sha512" }

/** `x-payload-digest`: hex HMAC of the raw body with the webhook secret. */
export const payloadDigest = (alg: DigestAlg, secret: string, rawBody: string): string => createHmac(HASHES[alg], secret).update(rawBody, "utf8").digest("hex")

export const webhookBody = (a: Applicant, type: WebhookType, correlationId: string, now: number): string => {
  const at = sumsubDateMs(now)
  return JSON.stringify({
    applicantId: a.id,
    inspectionId: a.inspectionId,
    correlationId,
    externalUserId: a.externalUserId,
    levelName: a.levelName,
    type,
    sandboxMode: true,
    reviewStatus: a.reviewStatus,
    createdAtMs: at,
    createdAt: at,
    clientId: CLIENT_ID,
    ...(a.reviewResult ? { reviewResult: a.reviewResult } : {}),
  })
}

export interface EnqueueOptions {
  readonly correlationId: string
  readonly now: number
  /** probability that an applicantPending is held back (chaos) */
  readonly reorder: number
}

/** Adds the event to the outbox (inside the caller's transaction). */
export const enqueueWebhook = async (sql: Sql, a: Applicant, type: WebhookType, options: EnqueueOptions): Promise<void> => {
  const held = type === "applicantPending" && Math.random() < options.reorder
  await sql.query("insert into deliveries (applicant_id, type, body, state, next_at, created_at) values ($1, $2, $3, $4, $5, $5)", [
    a.id,
    type,
    webhookBody(a, type, options.correlationId, options.now),
    held ? "held" : "queued",
    options.now,
  ])
}
