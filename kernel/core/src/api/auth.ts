/**
 * Auth: Telegram initData is exchanged once for a session (spec 1 sections 3 and 4).
 * The access token is short-lived; the refresh token rotates on every refresh and a reused
 * refresh token revokes the session; logout revokes it on request.
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Unauthorized } from "./errors.ts"
import { InitDataAuth, RequestValidation, SessionAuth, strictDecoding } from "./security.ts"

import { AuthInitResponse, AuthSession, RefreshRequest } from "./auth-schema.ts"

export * from "./auth-schema.ts"

const authEndpoints = HttpApiGroup.make("auth").add(
  HttpApiEndpoint.post("init", "/api/auth/init", { success: AuthInitResponse }).middleware(RequestValidation).middleware(InitDataAuth),
  HttpApiEndpoint.post("refresh", "/api/auth/refresh", {
    payload: RefreshRequest,
    success: AuthSession,
    error: Unauthorized,
  }).middleware(RequestValidation),
  /**
   * Ends the session of the bearer access token: the session, its access tokens and its refresh
   * token stop working at once (decision 0207). 204 with no body.
   */
  HttpApiEndpoint.post("logout", "/api/auth/logout").middleware(RequestValidation).middleware(SessionAuth),
)

/** Strict bodies like every group (docs/decisions/0205). */
export const AuthGroup = strictDecoding(authEndpoints)
