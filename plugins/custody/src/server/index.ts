/**
 * `@wallet/plugin-custody/server`: the custodial wallet's server module on the kernel's Ledger:
 * accounts data, rates, custody transfers, history, notification settings (this folder) plus the
 * on-chain half (`./chain`, merged here).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { defineServerPlugin, ServerConfig, UsdBalances, type ServerPlugin } from "@wallet/kernel-server"
import { Ledger } from "@wallet/kernel-server/ledger"
import { AccountsGroup, NotificationsGroup, RatesGroup, TransactionsGroup, TransfersGroup } from "../api.ts"
import { usdBalanceOf } from "./accounts.ts"
import { chainPart } from "./chain/index.ts"
import { custodyHandlers } from "./handlers.ts"
import { custodyMigrations } from "./migrations.ts"
import { Rates } from "./rates/Rates.ts"
import { TransferApprovals, TransferCancels, TransferCreates } from "./transfers.ts"

export { usdBalanceOf, freezeBalance, releaseFrozen, accountsData } from "./accounts.ts"
export { recordTransaction, setTransactionStatus, type NewTransaction } from "./history.ts"
export { expireDueTransfers } from "./transfers.ts"
export { Rates, makeSandboxRates, makeFeedRates, PRICE_SCALE, type RatesShape, type Quote } from "./rates/Rates.ts"
export { percentChange, chunksOf, JETTON_METRICS_CHUNK, type MarketCoin, type MarketSnapshot, type PriceSource } from "./rates/market.ts"
export { COIN_CATALOG, catalogCoin, type CatalogCoin, type CoinCategory } from "./rates/catalog.ts"
export { custodyMigrations } from "./migrations.ts"

/**
 * The kernel's UsdBalances port (the passcode plugin's forced-passcode rule reads it): the user's
 * custodial balances valued by the Rates service; a failed valuation counts as 0.
 */
export const custodyUsdBalances = Layer.effect(
  UsdBalances,
  Effect.gen(function* () {
    const context = yield* Effect.context<SqlClient.SqlClient | Ledger | ServerConfig | Rates>()
    return UsdBalances.of({
      usdCentsOf: (userId) =>
        usdBalanceOf(userId).pipe(
          Effect.provide(context),
          Effect.catchCause(() => Effect.succeed(0n)),
        ),
    })
  }),
).pipe(Layer.provide(Rates.layer))

// Concurrent transfer creations share one batch (docs/decisions/0403), and so do approvals and cancels (0405).
const transferBatches = Layer.mergeAll(TransferCreates.layer, TransferApprovals.layer, TransferCancels.layer)
const handlers = Layer.mergeAll(custodyHandlers.pipe(Layer.provide(transferBatches)), chainPart.handlers as Layer.Layer<never, unknown, unknown>)

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "custody",
  dependsOn: ["ledger"],
  migrations: custodyMigrations,
  groups: [AccountsGroup, RatesGroup, TransfersGroup, TransactionsGroup, NotificationsGroup, ...chainPart.groups],
  handlers,
  usdBalances: custodyUsdBalances,
})
export default serverPlugin
