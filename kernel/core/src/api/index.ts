/**
 * `@wallet/kernel/api`: the kernel's HTTP contract, defined once with `effect/http-api`.
 * The server implements it (`@wallet/kernel-server`); the mini-app derives its typed client with
 * `HttpApiClient.make(KernelApi, { baseUrl })`. Browser-safe: imports only `effect`.
 *
 * Plugin groups follow the same rules: paths under `/api/`, and `authenticated(group)` (or at least
 * `validated(group)`: `RequestValidation` and strict bodies) applied after the last `add`; text
 * fields use `userText`, bigint ids `bigIntId` (docs/decisions/0205).
 */
import { HttpApi } from "effect/http-api"
import { AuthGroup } from "./auth.ts"
import { DevGroup } from "./dev.ts"
import { FeatureFlagsGroup, ProfileGroup, UsersGroup, ViewSettingsGroup, VisitorGroup } from "./kernel.ts"

export * from "./errors.ts"
export * from "./rateLimit.ts"
export * from "./fields.ts"
export * from "./security.ts"
export * from "./auth.ts"
export * from "./kernel.ts"
export * from "./dev.ts"
export * from "./operations.ts"
export * from "./experiments.ts"

/** Identifier of the composed API (kernel + plugins); plugins build their handlers against it too. */
export const ApiId = "wallet" as const

/** The kernel's endpoints (always served). */
export const KernelApi = HttpApi.make(ApiId).add(AuthGroup, FeatureFlagsGroup, ViewSettingsGroup, ProfileGroup, VisitorGroup, UsersGroup)

/** Dev-only endpoints (served with WALLET_DEV=1). */
export const DevApi = HttpApi.make(ApiId).add(DevGroup)

/** Where the server serves its OpenAPI document. */
export const OpenApiPath = "/api/openapi.json" as const
