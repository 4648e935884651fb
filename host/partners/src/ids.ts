/**
 * Identifiers and secrets: 24-hex applicant and inspection ids (Sumsub's look), `_act-sbx-` access
 * tokens from 32 random bytes, correlation ids, and the SHA-256 under which a token is stored.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"

/** 24 lowercase hex characters, like Sumsub's applicant and inspection ids. */
export const hexId = (): string => randomBytes(12).toString("hex")

/** `_act-sbx-` and 43 base64url characters (32 random bytes). */
export const newAccessToken = (): string => `_act-sbx-${randomBytes(32).toString("base64url")}`

/** Tokens are stored by hash only: a leaked database does not leak live tokens. */
export const tokenHash = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex")

export const correlationId = (): string => `req-${randomUUID()}`
