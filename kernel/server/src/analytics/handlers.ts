/** Handlers of the analytics gateway and its dev page. */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { enforceAddressRateLimit } from "../ratelimit/RateLimiter.ts"
import { AnalyticsApi, AnalyticsDevApi } from "./api.ts"
import { renderAnalyticsPage } from "./page.ts"
import { AnalyticsStore } from "./store.ts"

export const analyticsHandlers = HttpApiBuilder.group(AnalyticsApi, "analytics", (handlers) =>
  handlers
    .handle("events", ({ payload }) =>
      Effect.gen(function* () {
        yield* enforceAddressRateLimit("analyticsPerAddress")
        const store = yield* AnalyticsStore
        return yield* Effect.orDie(store.storeEvents(payload))
      }),
    )
    .handle("meters", ({ payload }) =>
      Effect.gen(function* () {
        yield* enforceAddressRateLimit("analyticsPerAddress")
        const store = yield* AnalyticsStore
        return yield* Effect.orDie(store.storeMeters(payload))
      }),
    ),
).pipe(Layer.provide(AnalyticsStore.layer))

export const analyticsDevHandlers = HttpApiBuilder.group(AnalyticsDevApi, "devAnalytics", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function* () {
        const store = yield* AnalyticsStore
        return yield* Effect.orDie(store.latest({ limit: query.limit ?? 100, ...(query.userId ? { userId: query.userId } : {}) }))
      }),
    )
    .handle("page", ({ query }) =>
      Effect.gen(function* () {
        const store = yield* AnalyticsStore
        const { events } = yield* Effect.orDie(store.latest({ limit: query.limit ?? 100, ...(query.userId ? { userId: query.userId } : {}) }))
        return renderAnalyticsPage(events)
      }),
    ),
).pipe(Layer.provide(AnalyticsStore.layer))
