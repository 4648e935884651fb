/**
 * `@wallet/kernel/client`: the typed client of the kernel's endpoints, derived from the contract
 * (`@wallet/kernel/api`) with effect's HttpApiClient over the policy Http. Loaded on demand so the
 * first screen does not carry the HttpApi machinery.
 */
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { KernelApi } from "./api/index.ts"
import { Http } from "./http.ts"

export type KernelApiClient = HttpApiClient.ForApi<typeof KernelApi>

export const makeKernelClient = (baseUrl: string): Effect.Effect<KernelApiClient, never, Http> =>
  Effect.gen(function* () {
    const http = yield* Http
    return yield* HttpApiClient.make(KernelApi, { baseUrl }).pipe(
      Effect.provide(FetchHttpClient.layer),
      Effect.provideService(FetchHttpClient.Fetch, http.fetch),
    )
  })
