/**
 * Tests only: a probe plugin that funds users through the Ledger (as a deposit would), freezes
 * balances, runs the expiry sweeps and the Ledger audit, so server tests can drive custody over HTTP.
 */
import { Effect, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ServerConfig, defineServerPlugin } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { ApiId, RequestValidation } from "@wallet/kernel/api"
import { currencyInfo, parseAmount } from "../currencies.ts"
import { freezeBalance } from "./accounts.ts"
import { recordTransaction } from "./history.ts"
import { expireDueTransfers } from "./transfers.ts"

const FundRequest = Schema.Struct({ userId: Schema.Int, currency: Schema.String, amount: Schema.String, key: Schema.String })
const FreezeRequest = Schema.Struct({ userId: Schema.Int, currency: Schema.String, amount: Schema.String, key: Schema.String, reason: Schema.Literals(["FR_1", "FR_2", "FR_3", "FR_4"]) })
const Audit = Schema.Struct({ ok: Schema.Boolean, violations: Schema.Array(Schema.Struct({ check: Schema.String, detail: Schema.String })) })

export const ProbeGroup = HttpApiGroup.make("custodyProbe").add(
  HttpApiEndpoint.post("fund", "/api/custody-probe/fund", { payload: FundRequest, success: Schema.Struct({ ok: Schema.Boolean }) }),
  HttpApiEndpoint.post("freeze", "/api/custody-probe/freeze", { payload: FreezeRequest, success: Schema.Struct({ ok: Schema.Boolean }) }),
  HttpApiEndpoint.post("expire", "/api/custody-probe/expire", { success: Schema.Struct({ transfers: Schema.Int, holds: Schema.Int }) }),
  HttpApiEndpoint.get("audit", "/api/custody-probe/audit", { success: Audit }),
  HttpApiEndpoint.get("balance", "/api/custody-probe/balance/:userId/:currency", {
    params: { userId: Schema.NumberFromString, currency: Schema.String },
    success: Schema.Struct({ available: Schema.String, held: Schema.String }),
  }),
).middleware(RequestValidation)

const units = (currency: string, amount: string) => parseAmount(amount, currencyInfo(currency)!.decimals)!

export const probePlugin = defineServerPlugin({
  id: "custody-probe",
  dependsOn: ["custody"],
  groups: [ProbeGroup],
  handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(ProbeGroup), "custodyProbe", (handlers) =>
    handlers
      .handle("fund", ({ payload }) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const config = yield* ServerConfig
          const to = { owner: userOwner(payload.userId), currency: payload.currency }
          yield* ledger.openAccount(to)
          const amount = units(payload.currency, payload.amount)
          yield* ledger.transfer({ key: payload.key, legs: [{ from: { owner: System.deposits, currency: payload.currency }, to, amount }] })
          yield* recordTransaction({
            userId: payload.userId,
            type: "deposit",
            gateway: "top_up",
            currency: payload.currency,
            amount,
            status: "success",
            ledgerKey: payload.key,
            createdAt: new Date(config.now()),
          })
          return { ok: true }
        }).pipe(Effect.orDie),
      )
      .handle("freeze", ({ payload }) =>
        Effect.as(freezeBalance(payload.userId, payload.currency, units(payload.currency, payload.amount), payload.reason, payload.key), { ok: true }).pipe(Effect.orDie),
      )
      .handle("expire", () =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const config = yield* ServerConfig
          const holds = yield* ledger.expireHolds(new Date(config.now()))
          const transfers = yield* expireDueTransfers()
          return { transfers, holds: holds.length }
        }).pipe(Effect.orDie),
      )
      .handle("audit", () =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const report = yield* ledger.audit
          return { ok: report.ok, violations: report.violations.map((violation) => ({ check: String(violation.check), detail: String(violation.detail) })) }
        }).pipe(Effect.orDie),
      )
      .handle("balance", ({ params }) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const balance = yield* ledger.balance({ owner: userOwner(params.userId), currency: params.currency })
          return { available: balance.available.toString(), held: balance.held.toString() }
        }).pipe(Effect.orDie),
      ),
  ),
})
