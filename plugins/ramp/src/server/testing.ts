/**
 * Tests only: a probe module that funds a user through the Ledger (as a deposit would), reads a
 * balance and runs the Ledger audit over HTTP.
 */
import { Effect, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { defineServerPlugin } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { ApiId, RequestValidation } from "@wallet/kernel/api"

export const RampProbeGroup = HttpApiGroup.make("rampProbe")
  .add(
    HttpApiEndpoint.post("fund", "/api/ramp-probe/fund", {
      payload: Schema.Struct({ userId: Schema.Int, currency: Schema.String, amount: Schema.String }),
      success: Schema.Struct({ ok: Schema.Boolean }),
    }),
    HttpApiEndpoint.post("balance", "/api/ramp-probe/balance", {
      payload: Schema.Struct({ owner: Schema.String, currency: Schema.String }),
      success: Schema.Struct({ available: Schema.String, held: Schema.String }),
    }),
    HttpApiEndpoint.get("audit", "/api/ramp-probe/audit", {
      success: Schema.Struct({ ok: Schema.Boolean, violations: Schema.Array(Schema.Struct({ check: Schema.String, detail: Schema.String })) }),
    }),
  )
  .middleware(RequestValidation)

let funded = 0

export const rampProbePlugin = defineServerPlugin({
  id: "ramp-probe",
  dependsOn: ["ramp"],
  groups: [RampProbeGroup],
  handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(RampProbeGroup), "rampProbe", (handlers) =>
    handlers
      .handle("fund", ({ payload }) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const to = { owner: userOwner(payload.userId), currency: payload.currency }
          yield* ledger.openAccount(to)
          const key = `ramp-probe:fund:${payload.userId}:${++funded}:${Date.now()}`
          yield* ledger.transfer({ key, legs: [{ from: { owner: System.deposits, currency: payload.currency }, to, amount: BigInt(payload.amount) }] })
          return { ok: true }
        }).pipe(Effect.orDie),
      )
      .handle("balance", ({ payload }) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const balance = yield* ledger.balance(payload).pipe(Effect.catchTag("UnknownAccount", () => Effect.succeed({ available: 0n, held: 0n })))
          return { available: balance.available.toString(), held: balance.held.toString() }
        }).pipe(Effect.orDie),
      )
      .handle("audit", () =>
        Effect.gen(function* () {
          const report = yield* (yield* Ledger).audit
          return { ok: report.ok, violations: report.violations.map((v) => ({ check: v.check, detail: v.detail })) }
        }).pipe(Effect.orDie),
      ),
  ),
})
