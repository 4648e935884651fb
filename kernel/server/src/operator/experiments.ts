/** `GET /api/experiments` (decision 0360): the session user's effective buckets. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession, ExperimentsApi } from "@wallet/kernel/api"
import { experimentBucketsFor } from "./service.ts"

export const experimentsHandlers = HttpApiBuilder.group(ExperimentsApi, "experiments", (handlers) =>
  handlers.handle("get", () =>
    Effect.gen(function* () {
      const session = yield* CurrentSession
      return { buckets: yield* Effect.orDie(experimentBucketsFor(session.userId)) }
    }),
  ),
)
