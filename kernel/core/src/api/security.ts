/**
 * Middleware declared by the contract and implemented by the server (`@wallet/kernel-server`).
 * Every endpoint carries `RequestValidation`; authenticated endpoints carry `SessionAuth`
 * (`Authorization: Bearer <access token>`); auth init carries `InitDataAuth`
 * (`Authorization: tma <initData>`, the raw initData string Telegram gave the mini-app).
 */
import { Context, Schema } from "effect"
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup, HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Forbidden, InvalidRequest, PayloadTooLarge, Unauthorized, UnsupportedMediaType } from "./errors.ts"
import { RateLimitedResponse } from "./rateLimit.ts"

/**
 * Turns request decoding failures into `InvalidRequest` (400) naming each field. The server also
 * answers a body above its limit with `PayloadTooLarge` (413) and a body it cannot read with
 * `UnsupportedMediaType` (415), both in the same JSON error shape (docs/decisions/0205).
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("wallet/api/RequestValidation", {
  error: [InvalidRequest, PayloadTooLarge, UnsupportedMediaType],
}) {}

/**
 * How requests decode (docs/decisions/0205): bodies are strict, as the OpenAPI document says
 * (`additionalProperties: false`): an unknown field is a 400 naming it; every issue of a body,
 * query or path is reported, not only the first. Headers keep the defaults (they carry transport
 * headers the contract does not declare).
 */
export const payloadParseOptions = { onExcessProperty: "error", errors: "all" } as const
export const queryParseOptions = { errors: "all" } as const

/**
 * `RequestValidation` plus the decoding rules above: what every group applies after its last
 * `add` (`authenticated` does it too). The rules are read from the group the handlers are built
 * from, so they hold for the server and the typed client alike.
 */
export const validated = <Id extends string, E extends HttpApiEndpoint.Constraint, T extends boolean>(group: HttpApiGroup.HttpApiGroup<Id, E, T>) =>
  strictDecoding(group.middleware(RequestValidation))

/** Only the decoding rules (for a group whose endpoints add `RequestValidation` one by one). */
export const strictDecoding = <Id extends string, E extends HttpApiEndpoint.Constraint, T extends boolean>(group: HttpApiGroup.HttpApiGroup<Id, E, T>) =>
  group
    .annotate(HttpApi.PayloadParseOptions, payloadParseOptions)
    .annotate(HttpApi.QueryParseOptions, queryParseOptions)
    .annotate(HttpApi.ParamsParseOptions, queryParseOptions)

/** The authenticated caller of an endpoint guarded by `SessionAuth`. */
export interface Session {
  readonly userId: number
  readonly sessionId: string
}
export class CurrentSession extends Context.Service<CurrentSession, Session>()("wallet/api/CurrentSession") {}

export class SessionAuth extends HttpApiMiddleware.Service<SessionAuth, { provides: CurrentSession }>()("wallet/api/SessionAuth", {
  security: { bearer: HttpApiSecurity.bearer },
  error: [Unauthorized, Forbidden],
}) {}

/** The Telegram user as initData carries it (snake_case as Telegram sends it). */
export const TelegramUser = Schema.Struct({
  id: Schema.Number.check(Schema.isInt()),
  first_name: Schema.String,
  last_name: Schema.optionalKey(Schema.String),
  username: Schema.optionalKey(Schema.String),
  language_code: Schema.optionalKey(Schema.String),
  is_premium: Schema.optionalKey(Schema.Boolean),
  is_bot: Schema.optionalKey(Schema.Boolean),
  allows_write_to_pm: Schema.optionalKey(Schema.Boolean),
  added_to_attachment_menu: Schema.optionalKey(Schema.Boolean),
  photo_url: Schema.optionalKey(Schema.String),
})
export type TelegramUser = typeof TelegramUser.Type

/** Validated (signature, expiry, not replayed) initData, provided to the auth init handler. */
export interface LaunchData {
  readonly user: TelegramUser
  readonly receiver: TelegramUser | undefined
  readonly authDate: Date
  readonly queryId: string | undefined
  readonly chatType: string | undefined
  readonly startParam: string | undefined
}
export class TelegramLaunch extends Context.Service<TelegramLaunch, LaunchData>()("wallet/api/TelegramLaunch") {}

export const initDataSecurity = HttpApiSecurity.http({ scheme: "tma" })

export class InitDataAuth extends HttpApiMiddleware.Service<InitDataAuth, { provides: TelegramLaunch }>()("wallet/api/InitDataAuth", {
  security: { initData: initDataSecurity },
  /** RateLimited: sign-ins per address and per Telegram user (docs/decisions/0206), before the initData is spent. */
  error: [Unauthorized, Forbidden, RateLimitedResponse],
}) {}
