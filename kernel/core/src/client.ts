import { Context, Effect, Layer } from "effect"
import { HttpApiClient } from "effect/http-api"
import { KernelApi } from "./api/index.ts"
import { Http } from "./http.ts"

/** The typed client of the kernel's endpoints, derived from the contract, over the policy Http client. */
export class KernelClient extends Context.Service<KernelClient, HttpApiClient.ForApi<typeof KernelApi>>()("wallet/KernelClient") {
  static readonly layer = (baseUrl: string) =>
    Layer.effect(
      KernelClient,
      Effect.gen(function* () {
        const http = yield* Http
        return yield* HttpApiClient.make(KernelApi, { baseUrl, transformClient: () => http })
      }),
    )
}
