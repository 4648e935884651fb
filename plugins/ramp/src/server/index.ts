/**
 * `@wallet/plugin-ramp/server`: buying and selling crypto for fiat on the custodial side (issue 23):
 * the ramp tables, the handlers of `RampGroup` (routing, options, payment methods and currencies, a
 * quote, a purchase, a sale, a transaction's status) and the providers' webhook routes.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession } from "@wallet/kernel/api"
import { defineServerPlugin, ServerConfig, type ServerPlugin } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { Rates } from "@wallet/plugin-custody/server"
import { RampApi, RampGroup, RampNotFound, RampRefused, RampUnavailable } from "../api.ts"
import { defaultFiat, paymentCurrencies, paymentMethods, providersOfMethod, RAMP_ROUTING, supportedFiats, type Direction, type Provider } from "../domain.ts"
import { rampMigrations } from "./migrations.ts"
import { countryOf, createBuy, createSell, quote, readTransaction, recentPurchaseFiats } from "./transactions.ts"
import { rampWebhookRoutes } from "./webhooks.ts"

export { rampMigrations } from "./migrations.ts"
export { creditKey, holdKey, postKey, voidKey, settlementOwner } from "./transactions.ts"
export { WEBHOOK_PATHS } from "./webhooks.ts"
export { DEV_RAMP, readRampConfig } from "./config.ts"

const me = Effect.map(CurrentSession, (session) => session.userId)

type Declared = RampRefused | RampNotFound | RampUnavailable
const isDeclared = (e: unknown): e is Declared => e instanceof RampRefused || e instanceof RampNotFound || e instanceof RampUnavailable
/** Store and Ledger failures are defects (a 500 with the request id in the log); refusals are the declared errors. */
const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Extract<E, Declared>, R> =>
  effect.pipe(Effect.catch((e: E) => (isDeclared(e) ? Effect.fail(e as Extract<E, Declared>) : Effect.die(e))))

/** The providers' currency lists, kept 5 minutes (spec 1 §7 "Payment currency ... cache 5 min"). */
const CURRENCY_TTL_MS = 5 * 60_000
const currencyCache = new Map<string, { at: number; fiats: ReadonlyArray<{ code: string; min: string; max: string }> }>()
const cachedCurrencies = (provider: Provider, direction: Direction) =>
  Effect.map(ServerConfig, (config) => {
    const key = `${provider}:${direction}`
    const now = config.now()
    const hit = currencyCache.get(key)
    if (hit !== undefined && now - hit.at < CURRENCY_TTL_MS && now >= hit.at) return hit.fiats
    const fiats = paymentCurrencies(provider, direction).map(({ code, min, max }) => ({ code, min, max }))
    currencyCache.set(key, { at: now, fiats })
    return fiats
  })

const options = Effect.gen(function* () {
  const userId = yield* me
  const recent = yield* recentPurchaseFiats(userId)
  const country = yield* countryOf(userId)
  return { defaultFiat: defaultFiat(recent, country), recentFiats: recent, country, buyFiats: supportedFiats("buy"), sellFiats: supportedFiats("sell") }
}).pipe(Effect.orDie)

const handlers = HttpApiBuilder.group(RampApi, "ramp", (group) =>
  group
    .handle("routing", () => Effect.succeed(RAMP_ROUTING))
    .handle("options", () => options)
    .handle("paymentMethods", ({ query }) => {
      const answer = paymentMethods(query.direction, query.fiatCurrency)
      return answer.ok
        ? Effect.succeed({
            direction: query.direction,
            fiatCurrency: query.fiatCurrency,
            methods: answer.methods.map((id) => ({ id, providers: providersOfMethod(query.direction, id, query.fiatCurrency) })),
          })
        : Effect.fail(
            new RampRefused({ code: answer.code, message: `No provider takes ${query.fiatCurrency} for a ${query.direction === "buy" ? "purchase" : "sale"}` }),
          )
    })
    .handle("paymentCurrencies", ({ query }) => Effect.map(cachedCurrencies(query.provider, query.direction), (fiats) => ({ ...query, fiats })))
    .handle("quote", ({ payload }) => orDie(quote(payload)))
    .handle("buy", ({ payload }) => orDie(Effect.flatMap(me, (userId) => createBuy(userId, payload))))
    .handle("sell", ({ payload }) => orDie(Effect.flatMap(me, (userId) => createSell(userId, payload))))
    .handle("transaction", ({ query }) => orDie(Effect.flatMap(me, (userId) => readTransaction(userId, query.id)))),
)

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "ramp",
  dependsOn: ["ledger", "custody"],
  migrations: rampMigrations,
  groups: [RampGroup],
  handlers: Layer.mergeAll(handlers, rampWebhookRoutes).pipe(Layer.provide(Layer.mergeAll(Outbox.layer, Rates.layer))),
})
export default serverPlugin
