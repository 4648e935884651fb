/**
 * Tests only: a probe plugin that funds users through the Ledger (as a deposit would), freezes
 * balances, runs the expiry sweeps and the Ledger audit, so server tests can drive custody over HTTP.
 */
import { Effect, Schema } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ServerConfig, UsdBalances, defineServerPlugin } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { ApiId, RequestValidation } from "@wallet/kernel/api"
import { currencyInfo, parseAmount } from "../currencies.ts"
import { freezeBalance } from "./accounts.ts"
import { recordTransaction } from "./history.ts"
import { expireDueTransfers, placeOrphanHold, repairOrphanHolds } from "./transfers.ts"

const FundRequest = Schema.Struct({ userId: Schema.Int, currency: Schema.String, amount: Schema.String, key: Schema.String })
const FreezeRequest = Schema.Struct({
  userId: Schema.Int,
  currency: Schema.String,
  amount: Schema.String,
  key: Schema.String,
  reason: Schema.Literals(["FR_1", "FR_2", "FR_3", "FR_4"]),
})
const Audit = Schema.Struct({ ok: Schema.Boolean, violations: Schema.Array(Schema.Struct({ check: Schema.String, detail: Schema.String })) })

export const ProbeGroup = HttpApiGroup.make("custodyProbe")
  .add(
    HttpApiEndpoint.post("fund", "/api/custody-probe/fund", { payload: FundRequest, success: Schema.Struct({ ok: Schema.Boolean }) }),
    HttpApiEndpoint.post("freeze", "/api/custody-probe/freeze", { payload: FreezeRequest, success: Schema.Struct({ ok: Schema.Boolean }) }),
    HttpApiEndpoint.post("expire", "/api/custody-probe/expire", { success: Schema.Struct({ transfers: Schema.Int, holds: Schema.Int }) }),
    HttpApiEndpoint.post("repair", "/api/custody-probe/repair", { success: Schema.Struct({ repaired: Schema.Int }) }),
    /** A transfer's hold without its rows, as a server before decision 0407 left it when it stopped in between. */
    HttpApiEndpoint.post("orphanTransfer", "/api/custody-probe/orphan-transfer", {
      payload: Schema.Struct({
        senderId: Schema.Int,
        receiverId: Schema.Int,
        currency: Schema.String,
        amount: Schema.String,
        comment: Schema.optional(Schema.String),
        idempotencyKey: Schema.String,
      }),
      success: Schema.Struct({ holdId: Schema.String }),
    }),
    /** A movement as the chain half makes it: a deposit (transfer) or a withdrawal (amount and fee holds, then post or void). */
    HttpApiEndpoint.post("chainLike", "/api/custody-probe/chain-like", {
      payload: Schema.Struct({
        userId: Schema.Int,
        action: Schema.Literals(["deposit", "withdraw", "post", "void"]),
        currency: Schema.String,
        amount: Schema.String,
        id: Schema.String,
      }),
      success: Schema.Struct({ ok: Schema.Boolean }),
    }),
    HttpApiEndpoint.get("audit", "/api/custody-probe/audit", { success: Audit }),
    HttpApiEndpoint.get("balance", "/api/custody-probe/balance/:userId/:currency", {
      params: { userId: Schema.NumberFromString, currency: Schema.String },
      success: Schema.Struct({ available: Schema.String, held: Schema.String }),
    }),
    // Another module reading the kernel's UsdBalances port (which custody implements).
    HttpApiEndpoint.get("usdCents", "/api/custody-probe/usd-cents/:userId", {
      params: { userId: Schema.NumberFromString },
      success: Schema.Struct({ cents: Schema.String }),
    }),
  )
  .middleware(RequestValidation)

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
        Effect.as(freezeBalance(payload.userId, payload.currency, units(payload.currency, payload.amount), payload.reason, payload.key), { ok: true }).pipe(
          Effect.orDie,
        ),
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
      .handle("chainLike", ({ payload }) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const user = { owner: userOwner(payload.userId), currency: payload.currency }
          yield* ledger.openAccount(user)
          const amount = units(payload.currency, payload.amount)
          const base = `probe:withdraw:${payload.id}`
          switch (payload.action) {
            case "deposit":
              yield* ledger.transfer({
                key: `probe:deposit:${payload.id}`,
                legs: [{ from: { owner: System.deposits, currency: payload.currency }, to: user, amount }],
                metadata: { gateway: "top_up", network: "ton", tx_hash: `hash-${payload.id}`, address: "UQdeposit", from: "UQsender" },
              })
              break
            case "withdraw": {
              const metadata = { gateway: "withdraw_onchain", network: "ton", address: "UQdestination" }
              yield* ledger.hold({ key: `${base}:amount`, from: user, to: { owner: System.withdrawals, currency: payload.currency }, amount, metadata })
              yield* ledger.hold({ key: `${base}:fee`, from: user, to: { owner: System.fees, currency: payload.currency }, amount: amount / 100n, metadata })
              break
            }
            case "post":
            case "void":
              for (const part of ["amount", "fee"]) {
                const hold = yield* ledger.movement(`${base}:${part}`)
                const request = { key: `${base}:${part}:${payload.action}`, holdId: hold!.holdId! }
                yield* payload.action === "post" ? ledger.postHold(request) : ledger.voidHold(request)
              }
              break
          }
          return { ok: true }
        }).pipe(Effect.orDie),
      )
      .handle("repair", () => Effect.map(repairOrphanHolds(0), (repaired) => ({ repaired })))
      .handle("orphanTransfer", ({ payload }) =>
        Effect.map(placeOrphanHold(payload.senderId, payload), (placed) => ({ holdId: placed.holdId })).pipe(Effect.orDie),
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
      )
      .handle("usdCents", ({ params }) =>
        Effect.gen(function* () {
          const balances = yield* UsdBalances
          return { cents: (yield* balances.usdCentsOf(params.userId)).toString() }
        }),
      ),
  ),
})
