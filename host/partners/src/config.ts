/**
 * The sandbox's constants and resolved options: the dev credentials the wallet's server ships with,
 * the levels the sandbox knows, the webhook retry schedule and the default frame ancestors.
 */
import path from "node:path"
import { fileURLToPath } from "node:url"

/** Dev credentials: the wallet's server uses the same values against the sandbox (never in production). */
export const DEV_SUMSUB = {
  appToken: "sbx:dev-wallet-app-token",
  secretKey: "dev-sumsub-secret-not-a-secret",
  webhookSecret: "dev-sumsub-webhook-secret-not-a-secret",
} as const

export const DEFAULT_SUMSUB_PORT = 8092

/** Verification levels the sandbox knows; each one asks for an identity document and a selfie. */
export const LEVELS: ReadonlyArray<string> = ["basic-kyc-level", "id-and-liveness", "id-poa-and-liveness"]

export type DigestAlg = "HMAC_SHA1_HEX" | "HMAC_SHA256_HEX" | "HMAC_SHA512_HEX"

export interface Chaos {
  /** probability 0..1 that a delivered webhook is delivered once more ~300 ms later */
  duplicate?: number
  /** probability 0..1 that an applicantPending waits until the applicant's next event was delivered */
  reorder?: number
}

/** Sumsub's own schedule: 5 minutes, 1 hour, 5 hours, 18 hours. */
export const SUMSUB_RETRY_DELAYS_MS: ReadonlyArray<number> = [5 * 60e3, 60 * 60e3, 5 * 3600e3, 18 * 3600e3]

/** Loopback (any port) and Telegram's web clients: the origins that embed the mini-app and its frame. */
export const DEFAULT_FRAME_ANCESTORS: ReadonlyArray<string> = ["http://127.0.0.1:*", "http://localhost:*", "https://web.telegram.org", "https://*.telegram.org"]

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
export const DEFAULT_DATA_DIR = path.join(repoRoot, ".data/partners/sumsub")

/** Everything the sandbox runs with, defaults applied. */
export interface SandboxConfig {
  readonly appToken: string
  readonly secretKey: string
  readonly webhookSecret: string
  readonly digestAlg: DigestAlg
  readonly retryDelaysMs: ReadonlyArray<number>
  readonly frameAncestors: ReadonlyArray<string>
  readonly now: () => number
}

/** A probability clamped to 0..1 (anything not a finite number counts as 0). */
export const probability = (value: number | undefined): number => (value !== undefined && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0)
