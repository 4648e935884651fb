/** Server implementations of the contract's middleware (`@wallet/kernel/api` security.ts). */
import { Effect, Layer, Redacted, Result } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import * as SchemaIssue from "effect/SchemaIssue"
import { SqlClient } from "effect/sql"
import {
  CurrentSession,
  Forbidden,
  InitDataAuth,
  InvalidRequest,
  RequestValidation,
  SessionAuth,
  TelegramLaunch,
  Unauthorized,
  type RequestIssue,
} from "@wallet/kernel/api"
import { ServerConfig } from "../services.ts"
import { verifyInitData } from "./initData.ts"
import { makeAccessTokenChecker } from "../auth/accessTokens.ts"
import { recordInitDataUse } from "./sessions.ts"
import { enforceAddressRateLimit, enforceRateLimit } from "../ratelimit/RateLimiter.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Request slots as the client knows them: payload, query, params, headers. */
const slotName = (kind: string) => kind.toLowerCase()

export const RequestValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error) => {
  // A response that fails its own schema is our bug: leave it a reported 500.
  if (error.kind === "Body" || error.kind === "ResponseHeaders") return Effect.fail(error)
  const slot = slotName(error.kind)
  const issues: Array<RequestIssue> = formatIssues(error.cause.issue).issues.map((issue) => ({
    path: [
      slot,
      ...(issue.path ?? []).map((segment) => {
        const key = typeof segment === "object" && segment !== null && "key" in segment ? segment.key : segment
        return typeof key === "number" ? key : String(key)
      }),
    ],
    message: issue.message,
  }))
  const summary = issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")
  return Effect.fail(new InvalidRequest({ code: "invalid_request", message: `Invalid request: ${summary}`, issues }))
})

/** Layer needs the database and the config; requests get `CurrentSession`. */
export const SessionAuthLive = Layer.effect(
  SessionAuth,
  Effect.gen(function* () {
    // Concurrent requests share one token lookup (docs/decisions/0404).
    const checker = yield* makeAccessTokenChecker()
    return {
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          const token = Redacted.value(credential)
          if (token === "") {
            return yield* new Unauthorized({ code: "token_missing", message: "Authorization: Bearer <access token> is required" })
          }
          const check = yield* Effect.orDie(checker.run(token))
          if (check._tag === "Rejected") return yield* new Unauthorized({ code: check.code, message: check.message })
          if (check.isBlocked) return yield* new Forbidden({ code: "content_unavailable", message: "The wallet is not available to this user" })
          return yield* Effect.provideService(httpEffect, CurrentSession, { userId: check.userId, sessionId: check.sessionId })
        }),
    }
  }),
)

export const InitDataAuthLive = Layer.effect(
  InitDataAuth,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    return {
      initData: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          // Sign-ins per address count every attempt, valid or not (docs/decisions/0206).
          yield* enforceAddressRateLimit("authInitPerAddress")
          const verified = verifyInitData(Redacted.value(credential), {
            botToken: Redacted.value(config.botToken),
            maxAgeSeconds: config.initDataMaxAgeSeconds,
            nowMs: config.now(),
          })
          if (Result.isFailure(verified)) {
            return yield* new Unauthorized({ code: verified.failure.code, message: verified.failure.message })
          }
          const launch = verified.success
          // Opened from the attachment menu of a chat whose receiver cannot hold a wallet.
          if (launch.receiver !== undefined && (launch.receiver.is_bot === true || launch.receiver.id === launch.user.id)) {
            return yield* new Unauthorized({
              code: "user_not_found",
              message: "The attach receiver cannot use the wallet",
              detail: { reason: "attach_receiver_invalid" },
            })
          }
          // Per user before the initData is spent: a refused client retries with the same initData.
          yield* enforceRateLimit("authInitPerUser", launch.user.id)
          const fresh = yield* recordInitDataUse(launch.hash, launch.user.id, launch.authDate).pipe(
            Effect.provideService(SqlClient.SqlClient, sql),
            Effect.provideService(ServerConfig, config),
            Effect.orDie,
          )
          if (!fresh) return yield* new Unauthorized({ code: "init_data_replayed", message: "This initData was already used" })
          const { hash: _hash, ...launchData } = launch
          return yield* Effect.provideService(httpEffect, TelegramLaunch, launchData)
        }),
    }
  }),
)

export const kernelMiddleware = Layer.mergeAll(RequestValidationLive, SessionAuthLive, InitDataAuthLive)
