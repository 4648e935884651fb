/**
 * Auth: Telegram initData is exchanged once for a session (spec 1 sections 3 and 4).
 * The access token is short-lived; the refresh token rotates on every refresh and a reused
 * refresh token revokes the session.
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api";
import { Unauthorized } from "./errors.ts";
import { InitDataAuth, RequestValidation } from "./security.ts";

import { AuthInitResponse, AuthSession, RefreshRequest } from "./auth-schema.ts";

export * from "./auth-schema.ts";

export const AuthGroup = HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("init", "/api/auth/init", { success: AuthInitResponse })
      .middleware(RequestValidation)
      .middleware(InitDataAuth),
    HttpApiEndpoint.post("refresh", "/api/auth/refresh", {
      payload: RefreshRequest,
      success: AuthSession,
      error: Unauthorized,
    }).middleware(RequestValidation),
  );
