/**
 * `@wallet/plugin-p2p/server`: the P2P market's server module (issue 20, decision 1000): its tables,
 * the handlers of `P2pGroup`, the sweep that expires orders past their deadline, the demo market of a
 * dev server and the reset of the dev launch's "new" user.
 */
import { Effect, Layer, Schedule } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { CurrentSession } from "@wallet/kernel/api"
import { defineServerPlugin, ServerConfig, type ServerPlugin } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { Rates } from "@wallet/plugin-custody/server"
import { P2pApi, P2pConflict, P2pForbidden, P2pGroup, P2pNotFound, P2pRefused } from "../api.ts"
import { MAX_CHAT_FILE_BYTES } from "../chatRules.ts"
import { FLOATING_MAX_BPS, FLOATING_MIN_BPS, P2P_CRYPTO, P2P_FIATS, PAYMENT_WINDOWS, methodsForFiat } from "../domain.ts"
import { marketConfig } from "./config.ts"
import { p2pDevResetUser, p2pDevSeed } from "./devSeed.ts"
import { p2pMigrations } from "./migrations.ts"
import { createOffer, getOffer, inOffers, listOffers, marketPriceCents, myOffers, setOfferStatus, updateOffer } from "./offers.ts"
import { addStatement, getOrder, history, moveOrder, openAppeal, sweep, takeOffer } from "./orders.ts"
import {
  listMessages,
  markRead,
  notifySettingsOf,
  orderFile,
  pendingReceipts,
  removeReceipt,
  sendImage,
  sendText,
  updateNotifySettings,
  uploadReceipt,
} from "./chat.ts"
import { p2pOperatorPages, P2P_OPERATOR_LABEL } from "./operator.ts"
import { expressCreate, expressCurrentRequest, expressLimits, expressOnlyOf, expressPairs, expressQuote, requireFullMarket } from "./express.ts"
import { orderFeedback, rateOrder, userReputation } from "./reputation.ts"
import { createExport, exportDownloadRoute } from "./export.ts"
import { applyForMerchant, merchantStatus } from "./merchants.ts"
import { p2pMerchantOperatorPages } from "./operatorMerchants.ts"
import { trustedOf } from "./trusted.ts"
import {
  accessOf,
  createPayment,
  deletePayment,
  ensureP2pUser,
  kernelUser,
  listPayments,
  requireMarket,
  settingsOf,
  statsOf,
  updatePayment,
  updateSettings,
} from "./people.ts"

export { p2pMigrations } from "./migrations.ts"
export { sweep } from "./orders.ts"
export { offerOwner } from "./offers.ts"

const me = Effect.map(CurrentSession, (session) => session.userId)

const userView = (userId: number) =>
  Effect.gen(function* () {
    const config = yield* marketConfig
    const row = yield* ensureP2pUser(userId)
    const user = yield* kernelUser(userId)
    const stats = (yield* statsOf([userId])).get(userId)!
    // Spec 3 §3: isExperienced stays true once read.
    const experienced = row.experienced === true || stats.completedOrders > 0
    if (experienced && row.experienced !== true) yield* (yield* SqlClient.SqlClient)`update p2p_users set experienced = true where user_id = ${userId}`
    return {
      userId,
      name: user === undefined ? String(userId) : [user.first_name, user.last_name].filter(Boolean).join(" "),
      p2pInitialized: row.initialized_at !== null,
      isExperienced: experienced,
      ...stats,
      unavailable: accessOf(user, config.restrictedCountries),
      inOffers: yield* inOffers(userId),
      trustedMerchant: (yield* trustedOf([userId])).has(userId),
      expressOnly: yield* expressOnlyOf(userId),
    }
  })

const initUser = (userId: number) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* ensureP2pUser(userId)
    yield* sql`update p2p_users set initialized_at = coalesce(initialized_at, ${new Date(config.now())}) where user_id = ${userId}`
    return yield* userView(userId)
  })

const offerSettings = (userId: number) =>
  Effect.gen(function* () {
    const config = yield* marketConfig
    const user = yield* kernelUser(userId)
    return {
      residenceCountryAlpha2: user?.country_alpha2_ip ?? null,
      fiats: [...P2P_FIATS],
      floatingMinBps: FLOATING_MIN_BPS,
      floatingMaxBps: FLOATING_MAX_BPS,
      paymentWindows: [...PAYMENT_WINDOWS],
      makerFeeBps: config.makerFeeBps,
      takerFeeBps: config.takerFeeBps,
      maxOpenOrdersPerOffer: config.maxOpenOrdersPerOffer,
    } as const
  })

/** Store failures are defects (a 500 with the request id in the log); refusals are the declared errors. */
type Declared = P2pRefused | P2pConflict | P2pForbidden | P2pNotFound
const isDeclared = (e: unknown): e is Declared => e instanceof P2pRefused || e instanceof P2pConflict || e instanceof P2pForbidden || e instanceof P2pNotFound
const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Extract<E, Declared>, R> =>
  effect.pipe(Effect.catch((e: E) => (isDeclared(e) ? Effect.fail(e as Extract<E, Declared>) : Effect.die(e))))

const handlers = HttpApiBuilder.group(P2pApi, "p2p", (group) =>
  group
    .handle("user", () => orDie(Effect.flatMap(me, userView)))
    .handle("initUser", () => orDie(Effect.flatMap(me, initUser)))
    .handle("settings", () => orDie(Effect.flatMap(me, settingsOf)))
    .handle("updateSettings", ({ payload }) => orDie(Effect.flatMap(me, (id) => updateSettings(id, payload))))
    .handle("offerSettings", () => orDie(Effect.flatMap(me, offerSettings)))
    .handle("currencies", () =>
      Effect.succeed({ data: { crypto: P2P_CRYPTO.map((c) => ({ code: c.code, decimals: c.decimals })), fiat: P2P_FIATS.map((code) => ({ code })) } }),
    )
    .handle("pairAvailability", ({ query }) => Effect.succeed({ data: { data: methodsForFiat(query.fiat).length > 0 } }))
    .handle("marketPrice", ({ query }) =>
      Effect.flatMap(marketPriceCents(query.crypto, query.fiat), (price: bigint | undefined) =>
        price === undefined || price <= 0n
          ? Effect.fail(new P2pRefused({ code: "invalid_offer", message: `No market rate for ${query.crypto}/${query.fiat}` }))
          : Effect.succeed({ crypto: query.crypto, fiat: query.fiat, priceCents: price.toString() }),
      ),
    )
    .handle("methods", ({ query }) =>
      Effect.succeed({
        fiat: query.fiat,
        methods: methodsForFiat(query.fiat).map((m) => ({ code: m.code as never, name: m.name, fields: [...m.fields], paymentWindow: m.paymentWindow })),
      }),
    )
    .handle("myPayments", () => orDie(Effect.flatMap(me, listPayments)))
    .handle("createPayment", ({ payload }) => orDie(Effect.flatMap(me, (id) => createPayment(id, payload))))
    .handle("updatePayment", ({ payload: { id, ...rest } }) => orDie(Effect.flatMap(me, (user) => updatePayment(user, id, rest))))
    .handle("deletePayment", ({ payload }) => orDie(Effect.flatMap(me, (user) => deletePayment(user, payload.id))))
    .handle("createOffer", ({ payload }) => orDie(Effect.flatMap(me, (user) => Effect.andThen(requireFullMarket(user), createOffer(user, payload)))))
    .handle("updateOffer", ({ payload: { id, ...form } }) => orDie(Effect.flatMap(me, (user) => updateOffer(user, id, form))))
    .handle("setOfferStatus", ({ payload }) => orDie(Effect.flatMap(me, (user) => setOfferStatus(user, payload.id, payload.status))))
    .handle("getOffer", ({ payload }) => orDie(Effect.flatMap(me, (user) => getOffer(user, payload.offerId))))
    .handle("listOffers", ({ payload }) => orDie(Effect.flatMap(me, (user) => listOffers(user, payload))))
    .handle("myOffers", ({ payload }) => orDie(Effect.flatMap(me, (user) => myOffers(user, payload.type))))
    .handle("takeOffer", ({ payload }) => orDie(Effect.flatMap(me, (user) => Effect.andThen(requireFullMarket(user), takeOffer(user, payload)))))
    .handle("getOrder", ({ payload }) => orDie(Effect.flatMap(me, (user) => getOrder(user, payload.orderId))))
    .handle("moveOrder", ({ payload }) => orDie(Effect.flatMap(me, (user) => moveOrder(user, payload))))
    .handle("history", ({ payload }) => orDie(Effect.flatMap(me, (user) => history(user, payload))))
    .handle("openAppeal", ({ payload }) => orDie(Effect.flatMap(me, (user) => openAppeal(user, payload))))
    .handle("addStatement", ({ payload }) => orDie(Effect.flatMap(me, (user) => addStatement(user, payload))))
    .handle("merchantStatus", () => orDie(Effect.flatMap(me, merchantStatus)))
    .handle("merchantApply", () => orDie(Effect.flatMap(me, applyForMerchant)))
    .handle("exportOrders", ({ payload }) => orDie(Effect.flatMap(me, (user) => createExport(user, payload))))
    .handle("chatList", ({ payload }) => orDie(Effect.flatMap(me, (user) => listMessages(user, payload))))
    .handle("chatSend", ({ payload }) => orDie(Effect.flatMap(me, (user) => sendText(user, payload))))
    .handle("chatImage", ({ query, payload }) => orDie(Effect.flatMap(me, (user) => sendImage(user, Number(query.orderId), payload))))
    .handle("chatRead", ({ payload }) => orDie(Effect.flatMap(me, (user) => markRead(user, payload))))
    .handle("orderFile", ({ query }) => orDie(Effect.flatMap(me, (user) => orderFile(user, query))))
    .handle("uploadReceipt", ({ query, payload }) => orDie(Effect.flatMap(me, (user) => uploadReceipt(user, query, payload))))
    .handle("pendingReceipts", ({ payload }) => orDie(Effect.flatMap(me, (user) => pendingReceipts(user, payload.orderId))))
    .handle("removeReceipt", ({ payload }) => orDie(Effect.flatMap(me, (user) => removeReceipt(user, payload))))
    .handle("notifySettings", () => orDie(Effect.flatMap(me, notifySettingsOf)))
    .handle("updateNotifySettings", ({ payload }) => orDie(Effect.flatMap(me, (user) => updateNotifySettings(user, payload))))
    .handle("expressPairs", ({ payload }) => orDie(Effect.flatMap(me, (user) => expressPairs(user, payload.offerType))))
    .handle("expressLimits", ({ payload }) => orDie(Effect.flatMap(me, (user) => expressLimits(user, payload))))
    .handle("expressQuote", ({ payload }) => orDie(Effect.flatMap(me, (user) => expressQuote(user, payload))))
    .handle("expressCreate", ({ payload }) => orDie(Effect.flatMap(me, (user) => expressCreate(user, payload))))
    .handle("expressCurrentRequest", () => orDie(Effect.flatMap(me, expressCurrentRequest)))
    .handle("reputation", ({ payload }) => orDie(userReputation(payload.userId)))
    .handle("orderFeedback", ({ payload }) => orDie(Effect.flatMap(me, (user) => orderFeedback(user, payload.orderId))))
    .handle("rateOrder", ({ payload }) => orDie(Effect.flatMap(me, (user) => rateOrder(user, payload)))),
)

/** The sweep's beat (ms; `pluginConfig.p2p.sweepMs`, default 5 s). A failed round is logged and the next one runs. */
const Sweeper = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const raw = (config.pluginConfig.p2p ?? {}) as { sweepMs?: unknown }
    const every = typeof raw.sweepMs === "number" && raw.sweepMs >= 100 ? raw.sweepMs : 5_000
    // The demo market (dev): here rather than in `devSeed`, for the Ledger and the rates of floating prices.
    if (config.dev) yield* p2pDevSeed.pipe(Effect.catchCause((cause) => Effect.logWarning("p2p demo market not seeded", cause)))
    yield* Effect.forkScoped(
      sweep.pipe(
        Effect.catchCause((cause) => Effect.logWarning("p2p sweep failed", cause)),
        Effect.repeat(Schedule.spaced(`${every} millis`)),
      ),
    )
  }),
)

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "p2p",
  dependsOn: ["ledger", "custody"],
  migrations: p2pMigrations,
  groups: [P2pGroup],
  handlers: Layer.mergeAll(handlers, Sweeper, p2pOperatorPages, p2pMerchantOperatorPages, exportDownloadRoute).pipe(
    Layer.provide(Layer.mergeAll(Outbox.layer, Rates.layer)),
  ),
  operatorLabel: P2P_OPERATOR_LABEL,
  // Chat images and appeal receipts up to 5 MB (the API's other bodies stay within the server's 1 MiB).
  uploads: [
    { method: "POST", path: "/api/p2p/chat/image", maxBytes: MAX_CHAT_FILE_BYTES + 64 * 1024 },
    { method: "POST", path: "/api/p2p/orders/appeal/receipt", maxBytes: MAX_CHAT_FILE_BYTES + 64 * 1024 },
  ],
  devResetUser: p2pDevResetUser,
})
export default serverPlugin
