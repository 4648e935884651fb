/**
 * `@wallet/plugin-custody/server`: the custodial wallet's server module on the kernel's Ledger:
 * accounts data, rates, custody transfers, history, notification settings (this folder) plus the
 * on-chain half (`./chain`, merged here).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { defineServerPlugin, ServerConfig, type ServerPlugin } from "@wallet/kernel-server"
import { Ledger } from "@wallet/kernel-server/ledger"
import { AccountsGroup, NotificationsGroup, RatesGroup, TransactionsGroup, TransfersGroup } from "../api.ts"
import { usdBalanceOf } from "./accounts.ts"
import { chainPart } from "./chain/index.ts"
import { custodyHandlers } from "./handlers.ts"
import { custodyMigrations } from "./migrations.ts"
import { Rates } from "./rates/Rates.ts"

export { usdBalanceOf, freezeBalance, releaseFrozen, accountsData } from "./accounts.ts"
export { recordTransaction, setTransactionStatus, type NewTransaction } from "./history.ts"
export { expireDueTransfers } from "./transfers.ts"
export { Rates, makeSandboxRates, makeFeedRates, PRICE_SCALE, type RatesShape, type Quote } from "./rates/Rates.ts"
export { custodyMigrations } from "./migrations.ts"

/**
 * The forced-passcode rule's USD balance (`UsdBalanceShape` of the passcode plugin): works once
 * the custody handlers are built in the same server (they capture the database and the Ledger);
 * 0 before that. Wire: `makePasscodeServerPlugin({ usdBalance: custodyUsdBalance })`.
 */
let captured: Context.Context<SqlClient.SqlClient | Ledger | ServerConfig | Rates> | undefined
export const custodyUsdBalance = {
  usdCentsOf: (userId: number): Effect.Effect<bigint> =>
    captured === undefined ? Effect.succeed(0n) : usdBalanceOf(userId).pipe(Effect.provide(captured), Effect.catchCause(() => Effect.succeed(0n))),
}

const CaptureContext = Layer.effectDiscard(
  Effect.gen(function* () {
    captured = yield* Effect.context<SqlClient.SqlClient | Ledger | ServerConfig | Rates>()
  }),
)

const handlers = Layer.mergeAll(custodyHandlers, CaptureContext.pipe(Layer.provide(Rates.layer)), chainPart.handlers as Layer.Layer<never, unknown, unknown>)

const migrations = [...custodyMigrations, ...chainPart.migrations].sort((a, b) => a.id - b.id)

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "custody",
  dependsOn: ["ledger"],
  migrations,
  groups: [AccountsGroup, RatesGroup, TransfersGroup, TransactionsGroup, NotificationsGroup, ...chainPart.groups],
  handlers,
})
export default serverPlugin
