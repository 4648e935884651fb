/**
 * The typed client of the passcode plugin's endpoints, derived from `../api.ts` with effect's
 * HttpApiClient over the kernel's Http (bearer token, retries, timeouts). Loaded with the service.
 */
import type { Effect } from "effect"
import type { HttpApiClient } from "effect/http-api"
import type { Http } from "@wallet/kernel"
import { makeApiClient } from "@wallet/kernel/client"
import { PasscodeApi } from "../api.ts"

export type PasscodeClient = HttpApiClient.ForApi<typeof PasscodeApi>

export const makePasscodeClient = (baseUrl: string): Effect.Effect<PasscodeClient, never, Http> => makeApiClient(PasscodeApi, baseUrl)

/** The catalogue code of a failure (`PasscodeError`, `EmailCodeError`, ...), or `technical_issue`. */
export const failureCode = (error: unknown): string => {
  const e = error as { _tag?: string; code?: unknown }
  return typeof e?.code === "string" && e._tag !== "HttpError" && e._tag !== "HttpClientError" ? e.code.replace(/^passcode\./, "") : "technical_issue"
}
