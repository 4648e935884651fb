/**
 * Middleware declared by the contract and implemented by the server (`@wallet/kernel-server`).
 * Every endpoint carries `RequestValidation`; authenticated endpoints carry `SessionAuth`
 * (`Authorization: Bearer <access token>`); auth init carries `InitDataAuth`
 * (`Authorization: tma <initData>`, the raw initData string Telegram gave the mini-app).
 */
import { Context, Schema } from "effect";
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api";
import { Forbidden, InvalidRequest, Unauthorized } from "./errors.ts";

/** Turns request decoding failures into `InvalidRequest` (400) naming each field. */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("wallet/api/RequestValidation", {
  error: InvalidRequest,
}) {}

/** The authenticated caller of an endpoint guarded by `SessionAuth`. */
export interface Session {
  readonly userId: number;
  readonly sessionId: string;
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
});
export type TelegramUser = typeof TelegramUser.Type;

/** Validated (signature, expiry, not replayed) initData, provided to the auth init handler. */
export interface LaunchData {
  readonly user: TelegramUser;
  readonly receiver: TelegramUser | undefined;
  readonly authDate: Date;
  readonly queryId: string | undefined;
  readonly chatType: string | undefined;
  readonly startParam: string | undefined;
}
export class TelegramLaunch extends Context.Service<TelegramLaunch, LaunchData>()("wallet/api/TelegramLaunch") {}

export const initDataSecurity = HttpApiSecurity.http({ scheme: "tma" });

export class InitDataAuth extends HttpApiMiddleware.Service<InitDataAuth, { provides: TelegramLaunch }>()("wallet/api/InitDataAuth", {
  security: { initData: initDataSecurity },
  error: [Unauthorized, Forbidden],
}) {}
