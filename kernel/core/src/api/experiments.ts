/**
 * `GET /api/experiments`: the signed-in user's experiment buckets (spec 3 §3; decision 0360): the
 * buckets an operator set for everyone, overridden by the user's own (`ab_tests`). The app reads
 * them with the feature flags, every 60 s.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { authenticated } from "./kernel.ts"

export const ExperimentBuckets = Schema.Struct({ buckets: Schema.Record(Schema.String, Schema.String) })
export type ExperimentBuckets = typeof ExperimentBuckets.Type

export const ExperimentsGroup = authenticated(
  HttpApiGroup.make("experiments").add(HttpApiEndpoint.get("get", "/api/experiments", { success: ExperimentBuckets })),
)

/** The group on its own API (its handlers live in the server's operator module). */
export const ExperimentsApi = HttpApi.make("wallet").add(ExperimentsGroup)
