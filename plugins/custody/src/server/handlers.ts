/** Handlers of the custody groups (accounts, rates, transfers, transactions, notifications). */
import { Effect, Layer, Schedule } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession } from "@wallet/kernel/api"
import { enforceRateLimit, ServerConfig } from "@wallet/kernel-server"
import { CustodyApi, CustodyBadRequest, CustodyForbidden, CustodyNotFound, type AssetChart, type Rates as RatesAnswer } from "../api.ts"
import { currencyInfo } from "../currencies.ts"
import { accountsData, frozenBalances, setNewCurrencySeen } from "./accounts.ts"
import { seedDemoData } from "./demo.ts"
import { defineCustodyCurrencies } from "./ledgerSetup.ts"
import { guardTransfer } from "./guard.ts"
import { formatPrice, percentChange } from "./money.ts"
import { notificationSettings, setNotification } from "./notifications.ts"
import { Rates } from "./rates/Rates.ts"
import { searchReceivers } from "./receivers.ts"
import { oneTransaction, transactionsPage } from "./transactions.ts"
import { approveTransfer, cancelTransfer, createTransfer, expireDueTransfers, getTransfer, incomingTransfers, repairOrphanHolds } from "./transfers.ts"
import { accessFlags, currentUser } from "./users.ts"

const userId = Effect.gen(function* () {
  const session = yield* CurrentSession
  return session.userId
})

const AccountsLive = HttpApiBuilder.group(CustodyApi, "custodyAccounts", (handlers) =>
  handlers
    .handle("accounts", ({ query }) => Effect.flatMap(userId, (user) => accountsData(user, query.fiatCurrency)))
    .handle("setNewCurrencySeen", ({ query }) => Effect.flatMap(userId, (user) => setNewCurrencySeen(user, query.currency)))
    .handle("frozenBalances", ({ query }) => Effect.flatMap(userId, (user) => frozenBalances(user, query.fiatCurrency))),
)

const signedPercent = (value: number) => `${value >= 0 ? "+" : "-"}${Math.abs(value).toFixed(2)}%`

const RatesLive = HttpApiBuilder.group(CustodyApi, "custodyRates", (handlers) =>
  handlers
    .handle("rates", ({ query }) =>
      Effect.gen(function* () {
        const rates = yield* Rates
        if (!rates.isFiat(query.currencies))
          return yield* new CustodyBadRequest({ code: "unsupported_fiat", message: `${query.currencies} is not a supported fiat currency` })
        const tokens = [...new Set(query.tokens.split(","))]
        const quotes = yield* rates.quotes(tokens, query.currencies).pipe(Effect.orDie)
        const answer: Record<string, RatesAnswer["rates"][string]> = {}
        for (const [token, quote] of quotes) {
          answer[token] = {
            prices: { [query.currencies]: formatPrice(quote.price) },
            diff_24h: { [query.currencies]: signedPercent(percentChange(quote.price, quote.price24hAgo)) },
          }
        }
        return { rates: answer }
      }),
    )
    .handle("chart", ({ params, query }) =>
      Effect.gen(function* () {
        const rates = yield* Rates
        const user = yield* currentUser(yield* userId)
        if (!accessFlags(user).accessToAssetCharts) {
          return yield* new CustodyForbidden({ code: "access_denied", message: "Asset charts are unavailable", flag: "accessToAssetCharts" })
        }
        if (currencyInfo(params.crypto) === undefined)
          return yield* new CustodyNotFound({ code: "currency_not_found", message: `${params.crypto} is not a custodial currency` })
        if (!rates.isFiat(params.fiat))
          return yield* new CustodyBadRequest({ code: "unsupported_fiat", message: `${params.fiat} is not a supported fiat currency` })
        const samples = yield* rates.chart(params.crypto, params.fiat, query.period).pipe(Effect.orDie)
        const first = samples[0]?.price ?? 0n
        const last = samples[samples.length - 1]?.price ?? 0n
        const chart: AssetChart = {
          crypto: params.crypto,
          fiat: params.fiat,
          period: query.period,
          points: samples.map((sample) => ({ time: sample.time.toISOString(), price: formatPrice(sample.price) })),
          percentChange: percentChange(last, first),
          absoluteChange: formatPrice(last - first),
        }
        return chart
      }),
    ),
)

const TransfersLive = HttpApiBuilder.group(CustodyApi, "custodyTransfers", (handlers) =>
  handlers
    .handle("searchReceivers", ({ query }) => Effect.flatMap(userId, (user) => searchReceivers(user, query.query)))
    // The operation token first (decision 0550), so no path (the batch included) moves money without it.
    // Money calls per user before anything else (decision 0206).
    .handle("create", ({ payload }) =>
      Effect.flatMap(userId, (user) =>
        Effect.andThen(enforceRateLimit("moneyPerUser", user), Effect.andThen(guardTransfer(user, payload), createTransfer(user, payload))),
      ),
    )
    .handle("list", () => Effect.map(Effect.flatMap(userId, incomingTransfers), (items) => ({ items })))
    .handle("get", ({ params }) => Effect.flatMap(userId, (user) => getTransfer(user, params.transfer_id)))
    .handle("approve", ({ params }) => Effect.flatMap(userId, (user) => approveTransfer(user, params.transfer_id)))
    .handle("cancel", ({ params }) => Effect.flatMap(userId, (user) => cancelTransfer(user, params.transfer_id))),
)

const TransactionsLive = HttpApiBuilder.group(CustodyApi, "custodyTransactions", (handlers) =>
  handlers
    .handle("list", ({ query }) => Effect.flatMap(userId, (user) => transactionsPage(user, query)))
    .handle("get", ({ params }) => Effect.flatMap(userId, (user) => oneTransaction(user, params.transaction_id))),
)

const NotificationsLive = HttpApiBuilder.group(CustodyApi, "custodyNotifications", (handlers) =>
  handlers
    .handle("list", () => Effect.flatMap(userId, notificationSettings))
    .handle("set", ({ params, payload }) => Effect.flatMap(userId, (user) => setNotification(user, params.type, payload.enabled))),
)

/** Expiry of custody transfers, every minute (idempotent; each process may run it). */
const TRANSFER_EXPIRY_INTERVAL = "1 minute"

/** Boot: currencies in the Ledger, demo data (dev), the expiry sweep. */
export const CustodyBoot = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    yield* Effect.orDie(defineCustodyCurrencies)
    if (config.dev) yield* seedDemoData
    yield* Effect.forkScoped(
      Effect.andThen(repairOrphanHolds(), expireDueTransfers()).pipe(Effect.ignore, Effect.repeat(Schedule.spaced(TRANSFER_EXPIRY_INTERVAL))),
    )
  }),
)

export const custodyHandlers = Layer.mergeAll(AccountsLive, RatesLive, TransfersLive, TransactionsLive, NotificationsLive, CustodyBoot).pipe(
  Layer.provide(Rates.layer),
)
