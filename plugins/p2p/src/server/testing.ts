/**
 * Tests only: a probe module that funds users through the Ledger (as a deposit would), reads balances
 * (a user's, an offer's escrow, the fee account), runs the Ledger audit and the P2P sweep over HTTP.
 */
import { Effect, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { defineServerPlugin } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { ApiId, RequestValidation } from "@wallet/kernel/api"
import { offerOwner } from "./offers.ts"
import { sweep } from "./orders.ts"

const Balance = Schema.Struct({ available: Schema.String, held: Schema.String })

export const P2pProbeGroup = HttpApiGroup.make("p2pProbe")
  .add(
    HttpApiEndpoint.post("fund", "/api/p2p-probe/fund", {
      payload: Schema.Struct({ userId: Schema.Int, currency: Schema.String, amount: Schema.String }),
      success: Schema.Struct({ ok: Schema.Boolean }),
    }),
    HttpApiEndpoint.post("balance", "/api/p2p-probe/balance", {
      payload: Schema.Struct({ owner: Schema.String, currency: Schema.String }),
      success: Balance,
    }),
    HttpApiEndpoint.post("sweep", "/api/p2p-probe/sweep", { success: Schema.Struct({ expired: Schema.Int }) }),
    HttpApiEndpoint.get("audit", "/api/p2p-probe/audit", {
      success: Schema.Struct({ ok: Schema.Boolean, violations: Schema.Array(Schema.Struct({ check: Schema.String, detail: Schema.String })) }),
    }),
  )
  .middleware(RequestValidation)

let funded = 0

export const p2pProbePlugin = defineServerPlugin({
  id: "p2p-probe",
  dependsOn: ["p2p"],
  groups: [P2pProbeGroup],
  handlers: HttpApiBuilder.group(HttpApi.make(ApiId).add(P2pProbeGroup), "p2pProbe", (handlers) =>
    handlers
      .handle("fund", ({ payload }) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const to = { owner: userOwner(payload.userId), currency: payload.currency }
          yield* ledger.openAccount(to)
          yield* ledger.transfer({
            key: `p2p-probe:fund:${payload.userId}:${++funded}:${Date.now()}`,
            legs: [{ from: { owner: System.deposits, currency: payload.currency }, to, amount: BigInt(payload.amount) }],
          })
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
      .handle("sweep", () => Effect.map(sweep, (expired) => ({ expired })).pipe(Effect.orDie))
      .handle("audit", () =>
        Effect.gen(function* () {
          const report = yield* (yield* Ledger).audit
          return { ok: report.ok, violations: report.violations.map((v) => ({ check: v.check, detail: v.detail })) }
        }).pipe(Effect.orDie),
      ),
  ),
})

export const escrowOwner = offerOwner
export const userOf = userOwner
export const FEES = System.fees
