/**
 * The typed client of the passcode plugin's endpoints, derived from `../api.ts` with effect's
 * HttpApiClient over the kernel's Http (bearer token, retries, timeouts). Loaded with the service.
 */
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Http } from "@wallet/kernel"
import { PasscodeApi } from "../api.ts"

export type PasscodeClient = HttpApiClient.ForApi<typeof PasscodeApi>

export const makePasscodeClient = (baseUrl: string): Effect.Effect<PasscodeClient, never, Http> =>
  Effect.gen(function* () {
    const http = yield* Http
    return yield* HttpApiClient.make(PasscodeApi, { baseUrl }).pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(FetchHttpClient.Fetch, http.fetch))
  })

/** The catalogue code of a failure (`PasscodeError`, `EmailCodeError`, ...), or `technical_issue`. */
export const failureCode = (error: unknown): string => {
  const e = error as { _tag?: string; code?: unknown }
  return typeof e?.code === "string" && e._tag !== "HttpError" && e._tag !== "HttpClientError" ? e.code.replace(/^passcode\./, "") : "technical_issue"
}
