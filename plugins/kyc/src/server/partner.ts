/**
 * The verification partner (issue 19, decision 0930): Sumsub's server API as the wallet uses it. Every
 * call is signed (`X-App-Token`, `X-App-Access-Ts`, `X-App-Access-Sig` = hex HMAC-SHA256(secret,
 * ts + METHOD + path?query + body), PROTOCOLS.md), and every webhook is checked against the digest of
 * its raw body before anything reads it. One adapter serves both the local sandbox (`host/partners`,
 * dev and tests) and the real partner: only the URLs and secrets differ, and the sandbox alone
 * accepts `testCompleted`, the review an operator decides on `/ops/kyc`.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer, Schema } from "effect"
import { ServerConfig } from "@wallet/kernel-server"

/** The dev sandbox's credentials (`host/partners`): not secrets, used only by dev servers. */
export const DEV_PARTNER = {
  apiUrl: "http://127.0.0.1:8092",
  sdkUrl: "http://127.0.0.1:8092",
  appToken: "sbx:dev-wallet-app-token",
  secretKey: "dev-sumsub-secret-not-a-secret",
  webhookSecret: "dev-sumsub-webhook-secret-not-a-secret",
  sandbox: true,
} as const

export interface PartnerConfig {
  /** The partner's API (`https://api.sumsub.com`, or the sandbox's origin). */
  readonly apiUrl: string
  /** The origin the WebSDK frame loads from (the SDK's `baseUrl`). */
  readonly sdkUrl: string
  readonly appToken: string
  readonly secretKey: string
  readonly webhookSecret: string
  /** The local sandbox: the operator decides reviews through `testCompleted`. */
  readonly sandbox: boolean
}

/** The partner's level names for the wallet's levels (decision 0930). */
export const LEVEL_NAMES = { LEVEL_2: "id-and-liveness", LEVEL_3: "id-poa-and-liveness" } as const
export type PartnerLevel = keyof typeof LEVEL_NAMES
export const levelOfName = (name: string): PartnerLevel | undefined =>
  (Object.keys(LEVEL_NAMES) as Array<PartnerLevel>).find((level) => LEVEL_NAMES[level] === name)

export const REVIEW_STATUSES = ["init", "pending", "prechecked", "queued", "onHold", "awaitingService", "awaitingUser", "completed"] as const
export const ReviewResult = Schema.Struct({
  reviewAnswer: Schema.Literals(["GREEN", "RED"]),
  rejectLabels: Schema.optional(Schema.Array(Schema.String)),
  reviewRejectType: Schema.optional(Schema.Literals(["RETRY", "FINAL", "EXTERNAL"])),
  moderationComment: Schema.optional(Schema.String),
  clientComment: Schema.optional(Schema.String),
})
export type ReviewResult = typeof ReviewResult.Type

/** The webhook body fields the wallet reads (the partner sends more). */
export const WebhookPayload = Schema.Struct({
  type: Schema.String,
  applicantId: Schema.String,
  externalUserId: Schema.String,
  levelName: Schema.optional(Schema.String),
  reviewStatus: Schema.optional(Schema.String),
  /** `yyyy-MM-dd HH:mm:ss.SSS` (UTC): sorts as text. */
  createdAtMs: Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/)),
  reviewResult: Schema.optional(ReviewResult),
})
export type WebhookPayload = typeof WebhookPayload.Type

export const PartnerFile = Schema.Struct({
  id: Schema.String,
  idDocDef: Schema.Struct({ idDocType: Schema.String, country: Schema.optional(Schema.String) }),
  fileMetadata: Schema.Struct({ fileName: Schema.String, fileType: Schema.String, fileSize: Schema.Number }),
  addedDate: Schema.optional(Schema.String),
})
export type PartnerFile = typeof PartnerFile.Type

const Applicant = Schema.Struct({ id: Schema.String, inspectionId: Schema.String, externalUserId: Schema.String, levelName: Schema.optional(Schema.String) })
const TokenAnswer = Schema.Struct({ token: Schema.String, userId: Schema.String })
const FilesAnswer = Schema.Struct({ items: Schema.Array(PartnerFile) })
const StatusAnswer = Schema.Struct({ reviewStatus: Schema.String, levelName: Schema.optional(Schema.String) })

export class PartnerUnavailable extends Schema.TaggedError<PartnerUnavailable>()("PartnerUnavailable", { message: Schema.String }) {}

export type Decision =
  | { readonly reviewAnswer: "GREEN" }
  | {
      readonly reviewAnswer: "RED"
      readonly reviewRejectType: "RETRY" | "FINAL"
      readonly rejectLabels: ReadonlyArray<string>
      readonly moderationComment: string
      readonly clientComment: string
    }

export interface KycPartnerShape {
  /** Whether a partner is configured (a server without one refuses level 2 and 3). */
  readonly configured: boolean
  readonly sdkUrl: string
  readonly sandbox: boolean
  /** An SDK access token for the user at the level (the partner's applicant is the user's id). */
  readonly accessToken: (userId: number, level: PartnerLevel) => Effect.Effect<string, PartnerUnavailable>
  readonly applicantOf: (userId: number) => Effect.Effect<{ readonly id: string; readonly inspectionId: string } | null, PartnerUnavailable>
  /** The applicant's review status at the partner (what the wallet knows may lag: webhooks come late). */
  readonly reviewStatus: (applicantId: string) => Effect.Effect<{ readonly reviewStatus: string; readonly levelName: string | undefined }, PartnerUnavailable>
  readonly files: (applicantId: string) => Effect.Effect<ReadonlyArray<PartnerFile>, PartnerUnavailable>
  readonly file: (inspectionId: string, imageId: string) => Effect.Effect<{ readonly contentType: string; readonly bytes: Uint8Array }, PartnerUnavailable>
  /** The sandbox's review (`testCompleted`): what the partner's staff decide on the real one. */
  readonly decide: (applicantId: string, decision: Decision) => Effect.Effect<void, PartnerUnavailable>
  /** The webhook's payload if its digest is the partner's, else undefined (nothing else is read). */
  readonly verifyWebhook: (rawBody: Uint8Array, headers: Readonly<Record<string, string | undefined>>) => WebhookPayload | undefined
}

export class KycPartner extends Context.Service<KycPartner, KycPartnerShape>()("wallet/kyc/KycPartner") {}

const DIGEST_ALGORITHMS: Readonly<Record<string, string>> = { HMAC_SHA1_HEX: "sha1", HMAC_SHA256_HEX: "sha256", HMAC_SHA512_HEX: "sha512" }

/** `X-Payload-Digest` over the raw body with the webhook secret, in the algorithm `X-Payload-Digest-Alg` names. */
export const verifyDigest = (secret: string, rawBody: Uint8Array, headers: Readonly<Record<string, string | undefined>>): boolean => {
  const algorithm = DIGEST_ALGORITHMS[headers["x-payload-digest-alg"] ?? "HMAC_SHA256_HEX"]
  const digest = headers["x-payload-digest"]
  if (algorithm === undefined || digest === undefined || !/^[0-9a-f]+$/i.test(digest)) return false
  const expected = createHmac(algorithm, secret).update(rawBody).digest()
  const given = Buffer.from(digest, "hex")
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** The request signature (PROTOCOLS.md): lowercase hex HMAC-SHA256(secret, ts + METHOD + path?query + body). */
export const signRequest = (secret: string, ts: number, method: string, pathWithQuery: string, body: string) =>
  createHmac("sha256", secret).update(`${ts}${method.toUpperCase()}${pathWithQuery}${body}`).digest("hex")

/** The id of a webhook delivery: the digest of its raw body (a redelivery is byte for byte the same). */
export const deliveryId = (rawBody: Uint8Array) => createHash("sha256").update(rawBody).digest("hex")

const CALL_TIMEOUT_MS = 10_000

export const makeSumsubPartner = (config: PartnerConfig, now: () => number): KycPartnerShape => {
  const call = <A>(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    decode: (value: unknown) => A,
    raw = false,
  ): Effect.Effect<{ notFound: true } | { value: A }, PartnerUnavailable> =>
    Effect.tryPromise({
      try: async (signal) => {
        const text = body === undefined ? "" : JSON.stringify(body)
        const ts = Math.floor(now() / 1000)
        const response = await fetch(`${config.apiUrl}${path}`, {
          method,
          headers: {
            accept: "application/json",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
            "x-app-token": config.appToken,
            "x-app-access-ts": String(ts),
            "x-app-access-sig": signRequest(config.secretKey, ts, method, path, text),
          },
          ...(body === undefined ? {} : { body: text }),
          signal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
        })
        if (response.status === 404) return { notFound: true as const } as { notFound: true } | { value: A }
        if (!response.ok) {
          const detail = await response.text().catch(() => "")
          throw new Error(`the partner answered ${response.status} to ${method} ${path.split("?")[0]}: ${detail.slice(0, 200)}`)
        }
        if (raw)
          return {
            value: decode({
              contentType: response.headers.get("content-type") ?? "application/octet-stream",
              bytes: new Uint8Array(await response.arrayBuffer()),
            }),
          }
        return { value: decode(await response.json()) }
      },
      catch: (error) => new PartnerUnavailable({ message: error instanceof Error ? error.message : String(error) }),
    })
  const found = <A>(effect: Effect.Effect<{ notFound: true } | { value: A }, PartnerUnavailable>) =>
    Effect.flatMap(effect, (answer) =>
      "value" in answer ? Effect.succeed(answer.value) : Effect.fail(new PartnerUnavailable({ message: "the partner does not know it" })),
    )
  return {
    configured: true,
    sdkUrl: config.sdkUrl,
    sandbox: config.sandbox,
    accessToken: (userId, level) =>
      found(
        call(
          "POST",
          "/resources/accessTokens/sdk",
          { userId: String(userId), levelName: LEVEL_NAMES[level], ttlInSecs: 1200 },
          Schema.decodeUnknownSync(TokenAnswer),
        ),
      ).pipe(Effect.map((answer) => answer.token)),
    applicantOf: (userId) =>
      call("GET", `/resources/applicants/-;externalUserId=${encodeURIComponent(String(userId))}/one`, undefined, Schema.decodeUnknownSync(Applicant)).pipe(
        Effect.map((answer) => ("value" in answer ? { id: answer.value.id, inspectionId: answer.value.inspectionId } : null)),
      ),
    reviewStatus: (applicantId) =>
      found(call("GET", `/resources/applicants/${encodeURIComponent(applicantId)}/status`, undefined, Schema.decodeUnknownSync(StatusAnswer))).pipe(
        Effect.map((answer) => ({ reviewStatus: answer.reviewStatus, levelName: answer.levelName })),
      ),
    files: (applicantId) =>
      found(call("GET", `/resources/applicants/${encodeURIComponent(applicantId)}/metadata/resources`, undefined, Schema.decodeUnknownSync(FilesAnswer))).pipe(
        Effect.map((answer) => answer.items),
      ),
    file: (inspectionId, imageId) =>
      found(
        call(
          "GET",
          `/resources/inspections/${encodeURIComponent(inspectionId)}/resources/${encodeURIComponent(imageId)}`,
          undefined,
          (value) => value as { contentType: string; bytes: Uint8Array },
          true,
        ),
      ),
    decide: (applicantId, decision) =>
      config.sandbox
        ? found(call("POST", `/resources/applicants/${encodeURIComponent(applicantId)}/status/testCompleted`, decision, () => undefined))
        : Effect.fail(new PartnerUnavailable({ message: "reviews are decided in the partner's dashboard" })),
    verifyWebhook: (rawBody, headers) => {
      if (!verifyDigest(config.webhookSecret, rawBody, headers)) return undefined
      try {
        return Schema.decodeUnknownSync(WebhookPayload)(JSON.parse(Buffer.from(rawBody).toString("utf8")))
      } catch {
        return undefined
      }
    },
  }
}

const unconfigured: KycPartnerShape = {
  configured: false,
  sdkUrl: "",
  sandbox: false,
  accessToken: () => Effect.fail(new PartnerUnavailable({ message: "no verification partner is configured" })),
  applicantOf: () => Effect.succeed(null),
  reviewStatus: () => Effect.fail(new PartnerUnavailable({ message: "no verification partner is configured" })),
  files: () => Effect.succeed([]),
  file: () => Effect.fail(new PartnerUnavailable({ message: "no verification partner is configured" })),
  decide: () => Effect.fail(new PartnerUnavailable({ message: "no verification partner is configured" })),
  verifyWebhook: () => undefined,
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

/**
 * The partner from the plugin's server config (`pluginConfig.kyc.partner`: apiUrl, sdkUrl, appToken,
 * secretKey, webhookSecret, sandbox). A dev server without one talks to the local sandbox with its dev
 * credentials; a production server without one has no partner (levels 2 and 3 are refused).
 */
export const partnerConfigOf = (pluginConfig: unknown, dev: boolean): PartnerConfig | undefined => {
  const given = (pluginConfig as { partner?: Record<string, unknown> } | undefined)?.partner ?? {}
  const base = dev ? DEV_PARTNER : undefined
  const apiUrl = text(given.apiUrl) ?? base?.apiUrl
  const appToken = text(given.appToken) ?? base?.appToken
  const secretKey = text(given.secretKey) ?? base?.secretKey
  const webhookSecret = text(given.webhookSecret) ?? base?.webhookSecret
  if (apiUrl === undefined || appToken === undefined || secretKey === undefined || webhookSecret === undefined) return undefined
  return {
    apiUrl: apiUrl.replace(/\/$/, ""),
    sdkUrl: (text(given.sdkUrl) ?? apiUrl).replace(/\/$/, ""),
    appToken,
    secretKey,
    webhookSecret,
    sandbox: typeof given.sandbox === "boolean" ? given.sandbox : dev,
  }
}

export const kycPartnerLayer = Layer.effect(
  KycPartner,
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const partner = partnerConfigOf(config.pluginConfig.kyc, config.dev)
    return KycPartner.of(partner === undefined ? unconfigured : makeSumsubPartner(partner, config.now))
  }),
)
