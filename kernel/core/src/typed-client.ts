/**
 * `@wallet/kernel/client`: the one typed-client factory. Any contract (the kernel's own
 * `@wallet/kernel/api`, a plugin's `api` entry) becomes a client with effect's HttpApiClient over the
 * kernel's policy Http (bearer token, retries, timeouts, 401 refresh). Loaded on demand so the first
 * screen does not carry the HttpApi machinery.
 */
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient, type HttpApi, type HttpApiGroup } from "effect/http-api"
import { KernelApi } from "./api/index.ts"
import { Http } from "./http.ts"

/** The page's origin in a browser, "" elsewhere (relative URLs). */
export const pageOrigin = (): string => (typeof window === "undefined" ? "" : window.location.origin)

/** The typed client of `api` at `baseUrl` (the page's origin by default), its requests through the kernel's Http. */
export const makeApiClient = <ApiId extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<ApiId, Groups>,
  baseUrl: string = pageOrigin(),
): Effect.Effect<HttpApiClient.Client<Groups>, never, Http | HttpApiGroup.MiddlewareClient<Groups>> =>
  Effect.gen(function* () {
    const http = yield* Http
    return yield* HttpApiClient.make(api, { baseUrl }).pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(FetchHttpClient.Fetch, http.fetch))
  })

export type KernelApiClient = HttpApiClient.ForApi<typeof KernelApi>

export const makeKernelClient = (baseUrl: string): Effect.Effect<KernelApiClient, never, Http> => makeApiClient(KernelApi, baseUrl)
