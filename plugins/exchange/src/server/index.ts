/**
 * `@wallet/plugin-exchange/server`: the exchange's server module (issue 22, decision 1100): the quotes
 * table, the handlers of `ExchangeGroup` (settings, quote, get a quote, confirm) and, on a dev server,
 * the house's inventory of every custodial currency.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession } from "@wallet/kernel/api"
import { defineServerPlugin, ServerConfig, type ServerPlugin } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { Rates } from "@wallet/plugin-custody/server"
import { ExchangeApi, ExchangeConflict, ExchangeForbidden, ExchangeGroup, ExchangeNotFound, ExchangeRefused } from "../api.ts"
import { isStock, nextOpening, offered, tradingOpen } from "../domain.ts"
import { exchangeConfig } from "./config.ts"
import { seedHouse } from "./house.ts"
import { exchangeMigrations } from "./migrations.ts"
import { confirmQuote, createQuote, getQuote } from "./quotes.ts"

export { exchangeMigrations } from "./migrations.ts"
export { convertKey } from "./quotes.ts"
export { fundHouse } from "./house.ts"

const me = Effect.map(CurrentSession, (session) => session.userId)

const settings = Effect.gen(function* () {
  const config = yield* exchangeConfig
  const now = (yield* ServerConfig).now()
  return {
    currencies: config.currencies.flatMap((code) => {
      const info = offered(config, code)
      return info === undefined ? [] : [{ code, name: info.name, decimals: info.decimals, category: info.category, marketHours: isStock(code) }]
    }),
    minUsdCents: config.minUsdCents,
    maxUsdCents: config.maxUsdCents,
    quoteTtlMs: config.quoteTtlMs,
    spreadBps: config.spreadBps,
    feeBps: config.feeBps,
    marketOpen: tradingOpen(now),
    nextMarketOpening: nextOpening(now).toISOString(),
    serverTime: new Date(now).toISOString(),
  }
})

/** Store failures are defects (a 500 with the request id in the log); refusals are the declared errors. */
type Declared = ExchangeRefused | ExchangeForbidden | ExchangeNotFound | ExchangeConflict
const isDeclared = (e: unknown): e is Declared =>
  e instanceof ExchangeRefused || e instanceof ExchangeForbidden || e instanceof ExchangeNotFound || e instanceof ExchangeConflict
const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Extract<E, Declared>, R> =>
  effect.pipe(Effect.catch((e: E) => (isDeclared(e) ? Effect.fail(e as Extract<E, Declared>) : Effect.die(e))))

const handlers = HttpApiBuilder.group(ExchangeApi, "exchange", (group) =>
  group
    .handle("settings", () => settings)
    .handle("quote", ({ payload }) => orDie(Effect.flatMap(me, (user) => createQuote(user, payload))))
    .handle("getQuote", ({ payload }) => orDie(Effect.flatMap(me, (user) => getQuote(user, payload.uid))))
    .handle("confirm", ({ payload }) => orDie(Effect.flatMap(me, (user) => confirmQuote(user, payload.uid, payload.platform)))),
)

/** A dev server's house holds inventory of every currency (after custody defined them at its boot). */
const DevHouse = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    if (config.dev) yield* seedHouse.pipe(Effect.catchCause((cause) => Effect.logWarning("exchange house inventory not seeded", cause)))
  }),
)

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "exchange",
  dependsOn: ["ledger", "custody"],
  migrations: exchangeMigrations,
  groups: [ExchangeGroup],
  handlers: Layer.mergeAll(handlers, DevHouse).pipe(Layer.provide(Layer.mergeAll(Outbox.layer, Rates.layer))),
})
export default serverPlugin
