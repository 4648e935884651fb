/**
 * Tests only: a probe module that funds a user or the house through the Ledger (as a deposit would),
 * reads a balance, counts a quote's movements and runs the Ledger audit over HTTP.
 */
import { Effect, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { defineServerPlugin } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { ApiId, RequestValidation } from "@wallet/kernel/api"
import { fundHouse } from "./house.ts"
import { convertKey } from "./quotes.ts"

export const ExchangeProbeGroup = HttpApiGroup.make("exchangeProbe")
  .add(
    HttpApiEndpoint.post("fund", "/api/exchange-probe/fund", {
      /** `userId` 0 funds the house. */
      payload: Schema.Struct({ userId: Schema.Int, currency: Schema.String, amount: Schema.String }),
      success: Schema.Struct({ ok: Schema.Boolean }),
    }),
    HttpApiEndpoint.post("balance", "/api/exchange-probe/balance", {
      payload: Schema.Struct({ owner: Schema.String, currency: Schema.String }),
      success: Schema.Struct({ available: Schema.String }),
    }),
    HttpApiEndpoint.post("movements", "/api/exchange-probe/movements", {
      payload: Schema.Struct({ uid: Schema.String }),
      success: Schema.Struct({ count: Schema.Int }),
    }),
    HttpApiEndpoint.get("audit", "/api/exchange-probe/audit", {
      success: Schema.Struct({ ok: Schema.Boolean, violations: Schema.Array(Schema.Struct({ check: Schema.String, detail: Schema.String })) }),
    }),
  )
  .middleware(RequestValidation)

let funded = 0

export const exchangeProbePlugin = defineServerPlugin({
  id: "exchange-probe",
  dependsOn: ["exchange"],
  groups: [ExchangeProbeGroup],
  handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(ExchangeProbeGroup), "exchangeProbe", (handlers) =>
    handlers
      .handle("fund", ({ payload }) =>
        Effect.gen(function* () {
          const key = `exchange-probe:fund:${payload.userId}:${++funded}:${Date.now()}`
          if (payload.userId === 0) {
            yield* fundHouse(payload.currency, BigInt(payload.amount), key)
            return { ok: true }
          }
          const ledger = yield* Ledger
          const to = { owner: userOwner(payload.userId), currency: payload.currency }
          yield* ledger.openAccount(to)
          yield* ledger.transfer({ key, legs: [{ from: { owner: System.deposits, currency: payload.currency }, to, amount: BigInt(payload.amount) }] })
          return { ok: true }
        }).pipe(Effect.orDie),
      )
      .handle("balance", ({ payload }) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const balance = yield* ledger.balance(payload).pipe(Effect.catchTag("UnknownAccount", () => Effect.succeed({ available: 0n })))
          return { available: balance.available.toString() }
        }).pipe(Effect.orDie),
      )
      .handle("movements", ({ payload }) =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ count: number }>`select count(*)::int as count from ledger_transactions where idempotency_key = ${convertKey(payload.uid)}`
          return { count: Number(row!.count) }
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

export const HOUSE = System.house
export const userOf = userOwner
