/**
 * Express mode (spec 3 §2.1, §3 "Express", §4.1, §7.1; issue 21): the pairs and limits other users'
 * active offers make, the best offer for an amount, and the express request that places an order on
 * it through the market's own take (`takeOffer`: the same checks, the same Ledger hold). The server
 * matches again at creation (the client's quote is only what the user saw), holds the price within the
 * market's tolerance, and keeps at most one current request per user (a unique partial index).
 */
import { Cause, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import {
  P2pConflict,
  P2pRefused,
  type ExpressCreateRequest,
  type ExpressLimitsRequest,
  type ExpressMatch,
  type ExpressQuoteRequest,
  type ExpressRequest,
  type Order,
  type Trader,
} from "../api.ts"
import { ACTIVE_STATUSES, cryptoDecimals, orderMoney, P2P_CRYPTO, paymentMethod, type OfferType } from "../domain.ts"
import {
  bestMatch,
  EXPRESS_SHOW_CLOSED_MS,
  EXPRESS_STALE_SEARCH_MS,
  expressAmountProblem,
  isExpressOnly,
  limitsOf,
  matchedOfferType,
  priceAcceptable,
  type ExpressAmounts,
  type ExpressCalculationType,
  type ExpressCandidate,
  type ExpressRequestStatus,
} from "../express.ts"
import { marketConfig } from "./config.ts"
import { OFFER_COLUMNS, priceOf, unavailableReason, type OfferRow } from "./offers.ts"
import { getOrder, takeOffer } from "./orders.ts"
import { accessOf, ensureP2pUser, kernelUser, requireMarket, tradersOf } from "./people.ts"

interface Candidate extends ExpressCandidate {
  readonly row: OfferRow
  readonly trader: Trader
  readonly methods: ReadonlyArray<string>
}

const list = (value: unknown): Array<string> => (typeof value === "string" ? (JSON.parse(value) as Array<string>) : ((value ?? []) as Array<string>))

/**
 * Other users' offers a side can take now, priced: active, with crypto left, under the open-orders cap,
 * not below their own minimum, with a price (a floating one needs the market rate). One pair or all.
 */
const candidatesOf = (userId: number, side: OfferType, pair?: { readonly crypto: string; readonly fiat: string }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const market = yield* marketConfig
    const rows = yield* sql.unsafe<OfferRow>(
      `select ${OFFER_COLUMNS} from p2p_offers
        where type = $1 and status = 'ACTIVE' and available > 0 and user_id <> $2 and open_orders < $3
          and ($4::text is null or crypto = $4) and ($5::text is null or fiat = $5)
        order by id`,
      [matchedOfferType(side), userId, market.maxOpenOrdersPerOffer, pair?.crypto ?? null, pair?.fiat ?? null],
    )
    const traders = yield* tradersOf(rows.map((row) => Number(row.user_id)))
    const priced = yield* Effect.forEach(rows, (row) => Effect.map(priceOf(row), (price) => ({ row, price })))
    return priced.flatMap(({ row, price }): Array<Candidate> => {
      if (price <= 0n || unavailableReason(row, userId, market.maxOpenOrdersPerOffer, price) !== null) return []
      const trader = traders.get(Number(row.user_id))!
      return [
        {
          id: Number(row.id),
          priceCents: price,
          minFiat: BigInt(row.min_fiat),
          maxFiat: BigInt(row.max_fiat),
          available: BigInt(row.available),
          completionRate: trader.completionRate,
          completedOrders: trader.completedOrders,
          row,
          trader,
          methods: list(row.methods),
        },
      ]
    })
  })

/** Spec 3 §7.1 "Express find currency pairs": the pairs other users' offers make for this side. */
export const expressPairs = (userId: number, side: OfferType) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const candidates = yield* candidatesOf(userId, side)
    const seen = new Map<string, { crypto: string; fiat: string }>()
    for (const c of candidates) seen.set(`${c.row.crypto}/${c.row.fiat}`, { crypto: c.row.crypto, fiat: c.row.fiat })
    const rank = (crypto: string) => P2P_CRYPTO.findIndex((c) => c.code === crypto)
    const pairs = [...seen.values()].sort((a, b) => rank(a.crypto) - rank(b.crypto) || a.fiat.localeCompare(b.fiat))
    return { status: "SUCCESS" as const, pairs: pairs as Array<{ crypto: (typeof P2P_CRYPTO)[number]["code"]; fiat: string }> }
  })

/** Spec 3 §7.1 "Express get limits": the smallest and largest amount some offer of the pair fills. */
export const expressLimits = (userId: number, request: ExpressLimitsRequest) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const candidates = yield* candidatesOf(userId, request.offerType, { crypto: request.baseCurrencyCode, fiat: request.quoteCurrencyCode })
    const limits = limitsOf(candidates, cryptoDecimals(request.baseCurrencyCode) ?? 0)
    return {
      status: "SUCCESS" as const,
      limits:
        limits === null
          ? null
          : {
              minFiat: limits.minFiat.toString(),
              maxFiat: limits.maxFiat.toString(),
              minAmount: limits.minAmount.toString(),
              maxAmount: limits.maxAmount.toString(),
            },
    }
  })

interface Match {
  readonly offer: Candidate
  readonly amounts: ExpressAmounts
  /** The method the order uses and, for a selling user, their details of it. */
  readonly method: string
  readonly methods: ReadonlyArray<string>
  readonly detailsId: number | null
}

/**
 * The offers that can fill the amount, best first (price, then the maker's completion rate), each with
 * the method it would use. A selling user is matched only where they have payment details for one of
 * the offer's methods (the buyer pays to them).
 */
const matchesFor = (userId: number, request: ExpressQuoteRequest) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const side = request.offerType
    const crypto = request.baseCurrencyCode
    const fiat = request.quoteCurrencyCode
    const decimals = cryptoDecimals(crypto) ?? 0
    const typed = BigInt(request.amount)
    const calculation = request.calculationType as ExpressCalculationType
    const all = yield* candidatesOf(userId, side, { crypto, fiat })
    const limits = limitsOf(all, decimals)
    if (limits === null) return yield* Effect.fail(new P2pRefused({ code: "express_no_offer", message: `No offers for ${crypto}/${fiat} right now` }))
    const problem = expressAmountProblem(typed, calculation, limits)
    if (problem !== null) {
      const range =
        calculation === "BY_FIAT" ? `${limits.minFiat}–${limits.maxFiat} ${fiat} cents` : `${limits.minAmount}–${limits.maxAmount} ${crypto} minor units`
      return yield* Effect.fail(
        new P2pRefused({ code: "amount_out_of_limits", message: `An express order of ${crypto}/${fiat} is ${range}`, fields: ["amount"] }),
      )
    }
    const wanted = (methods: ReadonlyArray<string>) => methods.filter((m) => request.paymentMethodCode === undefined || m === request.paymentMethodCode)
    let details = new Map<string, number>()
    if (side === "SALE") {
      const rows = yield* sql<{ id: string; method: string }>`select id::text as id, method from p2p_payment_details
        where user_id = ${userId} and fiat = ${fiat} and deleted_at is null order by id`
      for (const row of rows) if (!details.has(row.method)) details.set(row.method, Number(row.id))
    }
    const usable = all.flatMap((offer) => {
      const methods = wanted(offer.methods).filter((m) => side === "PURCHASE" || details.has(m))
      return methods.length === 0 ? [] : [{ ...offer, methods }]
    })
    const ranked = bestMatch(side, usable, calculation, typed, decimals)
    if (ranked.length === 0) {
      const withoutDetails =
        side === "SALE" &&
        bestMatch(
          side,
          all.filter((offer) => wanted(offer.methods).length > 0),
          calculation,
          typed,
          decimals,
        ).length > 0
      return yield* Effect.fail(
        withoutDetails
          ? new P2pRefused({ code: "express_no_payment_details", message: `Add your payment details for ${fiat} to sell: the buyer pays to them` })
          : new P2pRefused({ code: "express_no_offer", message: `No offer can fill this amount of ${crypto}/${fiat} right now` }),
      )
    }
    return ranked.map(({ offer, amounts }): Match => ({
      offer,
      amounts,
      method: offer.methods[0]!,
      methods: offer.methods,
      detailsId: side === "SALE" ? details.get(offer.methods[0]!)! : null,
    }))
  })

const matchView = (side: OfferType, match: Match): ExpressMatch => {
  const { row } = match.offer
  const money = orderMoney(match.amounts.amount, row.type, { makerBps: row.maker_fee_bps, takerBps: row.taker_fee_bps })
  const ref = (code: string) => ({ code: code as ExpressMatch["paymentMethod"]["code"], name: paymentMethod(code)?.name ?? code })
  return {
    offerId: match.offer.id,
    side,
    crypto: row.crypto as ExpressMatch["crypto"],
    fiat: row.fiat,
    priceCents: match.offer.priceCents.toString(),
    amount: match.amounts.amount.toString(),
    fiatAmount: match.amounts.fiat.toString(),
    sellerFee: money.sellerFee.toString(),
    buyerFee: money.buyerFee.toString(),
    buyerReceives: money.buyerReceives.toString(),
    hold: money.hold.toString(),
    paymentMethod: ref(match.method),
    paymentMethods: match.methods.map(ref),
    paymentDetailsId: match.detailsId,
    merchant: match.offer.trader,
    paymentWindowMinutes: row.payment_window,
    autoAccept: row.auto_accept,
  }
}

/** The best offer for the amount and the order it would make (nothing is placed). */
export const expressQuote = (userId: number, request: ExpressQuoteRequest) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const [best] = yield* matchesFor(userId, request)
    return { status: "SUCCESS" as const, match: matchView(request.offerType, best!) }
  })

// --- requests ------------------------------------------------------------------------------------

interface RequestRow {
  id: string
  side: OfferType
  crypto: string
  fiat: string
  calculation_type: ExpressCalculationType
  amount: string
  status: ExpressRequestStatus
  order_id: string | null
  failure: string | null
  created_at: Date
}

const REQUEST_COLUMNS = `id::text as id, side, crypto, fiat, calculation_type, amount::text as amount, status, order_id::text as order_id, failure, created_at`

const requestByKey = (userId: number, key: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RequestRow>(`select ${REQUEST_COLUMNS} from p2p_express_requests where user_id = $1 and idempotency_key = $2`, [userId, key])
    return rows[0]
  })

/** The order key of a request's take: a retried or interrupted take finds its order by it. */
const takeKey = (requestId: number | string) => `express-${requestId}`

const isOpenOrder = (order: Order | null) => order !== null && ACTIVE_STATUSES.includes(order.status)

const viewOf = (userId: number, row: RequestRow) =>
  Effect.gen(function* () {
    const order = row.order_id === null ? null : yield* getOrder(userId, Number(row.order_id)).pipe(Effect.catchTag("P2pNotFound", () => Effect.succeed(null)))
    let status = row.status
    // The read may have just expired the order (reads expire due orders): the request is over with it.
    if (status === "MATCHED" && order !== null && !isOpenOrder(order)) {
      const sql = yield* SqlClient.SqlClient
      const config = yield* ServerConfig
      yield* sql`update p2p_express_requests set status = 'CLOSED', updated_at = ${new Date(config.now())} where id = ${row.id} and status = 'MATCHED'`
      status = "CLOSED"
    }
    return {
      id: Number(row.id),
      side: row.side,
      crypto: row.crypto as ExpressRequest["crypto"],
      fiat: row.fiat,
      calculationType: row.calculation_type,
      amount: row.amount,
      status,
      failure: row.failure,
      order,
      createdAt: row.created_at.toISOString(),
    } satisfies ExpressRequest
  })

/**
 * Brings the user's requests up to date before they are read or a new one is made: a request whose
 * order finished is CLOSED; one left SEARCHING by a stopped process is MATCHED if its take made an
 * order, else FAILED. Each one conditional update.
 */
const settle = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = new Date(config.now())
    yield* sql`update p2p_express_requests r set status = 'CLOSED', updated_at = ${now}
      from p2p_orders o
      where r.user_id = ${userId} and r.status = 'MATCHED' and o.id = r.order_id and o.status <> all(${[...ACTIVE_STATUSES]}::text[])`
    const stale = yield* sql<{ id: string }>`select id::text as id from p2p_express_requests
      where user_id = ${userId} and status = 'SEARCHING' and updated_at < ${new Date(now.getTime() - EXPRESS_STALE_SEARCH_MS)}`
    for (const { id } of stale) {
      const orders = yield* sql<{ id: string; offer_id: string }>`select id::text as id, offer_id::text as offer_id from p2p_orders
        where taker_id = ${userId} and idempotency_key = ${takeKey(id)}`
      const order = orders[0]
      if (order === undefined) {
        yield* sql`update p2p_express_requests set status = 'FAILED', failure = 'interrupted', updated_at = ${now} where id = ${id} and status = 'SEARCHING'`
      } else {
        yield* sql`update p2p_express_requests set status = 'MATCHED', order_id = ${order.id}, offer_id = ${order.offer_id}, updated_at = ${now}
          where id = ${id} and status = 'SEARCHING'`
      }
    }
  })

/** Spec 3 §7.1 "Express get current request": the open request, else one whose order finished within the hour. */
export const expressCurrentRequest = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* settle(userId)
    const since = new Date(config.now() - EXPRESS_SHOW_CLOSED_MS)
    const rows = yield* sql.unsafe<RequestRow>(
      `select ${REQUEST_COLUMNS} from p2p_express_requests
        where user_id = $1 and (status in ('SEARCHING', 'MATCHED') or (status = 'CLOSED' and updated_at >= $2))
        order by (status in ('SEARCHING', 'MATCHED')) desc, id desc limit 1`,
      [userId, since],
    )
    return { request: rows[0] === undefined ? null : yield* viewOf(userId, rows[0]) }
  })

type TakeFailure = Effect.Error<ReturnType<typeof takeOffer>>

/** A take refused because of that offer (taken or changed meanwhile): the next best offer may still do. */
const tryNext = (side: OfferType, error: TakeFailure): boolean => {
  if (error instanceof P2pConflict) return true
  if (error instanceof P2pRefused) {
    if (error.code === "amount_above_available" || error.code === "amount_out_of_limits" || error.code === "payment_method_required") return true
    // A buyer's take holds from the offer's escrow; a seller's from their own balance (no other offer helps).
    return error.code === "insufficient_funds" && side === "PURCHASE"
  }
  return typeof error === "object" && error !== null && "_tag" in error && error._tag === "P2pNotFound"
}

const failureOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : "error"

/** How many offers a create tries when the best ones are taken meanwhile. */
const ATTEMPTS = 3

/**
 * Places the express order: matches again (never the client's offer blindly), refuses a price worse
 * than the confirmed one beyond the market's tolerance, records the request (one current per user),
 * and takes the best offer with the market's own take and the request's idempotency key. The request
 * becomes MATCHED in the take's transaction, or FAILED with the refusal's code.
 */
export const expressCreate = (userId: number, request: ExpressCreateRequest) =>
  Effect.gen(function* () {
    const replay = yield* requestByKey(userId, request.idempotencyKey)
    if (replay !== undefined) return yield* viewOf(userId, replay)
    yield* requireMarket(userId)
    yield* ensureP2pUser(userId)
    yield* settle(userId)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const market = yield* marketConfig
    const side = request.offerType
    const ranked = yield* matchesFor(userId, request)
    const seen = BigInt(request.priceCents)
    const acceptable = ranked.filter((match) => priceAcceptable(side, seen, match.offer.priceCents, market.floatingToleranceBps))
    if (acceptable.length === 0) {
      return yield* Effect.fail(new P2pConflict({ code: "price_moved", message: "The best price changed", priceCents: ranked[0]!.offer.priceCents.toString() }))
    }

    const at = new Date(config.now())
    const inserted = yield* sql<{ id: string }>`insert into p2p_express_requests
        (user_id, side, crypto, fiat, calculation_type, amount, price_cents, status, idempotency_key, created_at, updated_at)
      values (${userId}, ${side}, ${request.baseCurrencyCode}, ${request.quoteCurrencyCode}, ${request.calculationType}, ${request.amount},
        ${request.priceCents}, 'SEARCHING', ${request.idempotencyKey}, ${at}, ${at})
      on conflict do nothing returning id::text as id`
    if (inserted[0] === undefined) {
      // Either this very request (the same key, sent twice at once) or another one still current.
      const same = yield* requestByKey(userId, request.idempotencyKey)
      if (same !== undefined) return yield* viewOf(userId, same)
      return yield* Effect.fail(new P2pRefused({ code: "express_request_open", message: "Finish the current express order first" }))
    }
    const requestId = inserted[0].id

    const take = (match: Match) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const order = yield* takeOffer(userId, {
            offerId: match.offer.id,
            amount: match.amounts.amount.toString(),
            priceCents: match.offer.priceCents.toString(),
            ...(side === "PURCHASE" ? { paymentMethodCode: match.method as never } : { paymentDetailsId: match.detailsId! }),
            idempotencyKey: takeKey(requestId),
          })
          const moved = yield* sql`update p2p_express_requests set status = 'MATCHED', offer_id = ${match.offer.id}, order_id = ${order.id},
              price_cents = ${match.offer.priceCents.toString()}, updated_at = ${new Date(config.now())}
            where id = ${requestId} and status = 'SEARCHING' returning id`
          // Settled meanwhile (a stalled take outlived the stale limit): undo this take.
          if (moved.length === 0) return yield* Effect.fail(new P2pRefused({ code: "express_request_open", message: "The request was settled meanwhile" }))
          return order
        }),
      )

    const fail = (code: string) =>
      sql`update p2p_express_requests set status = 'FAILED', failure = ${code}, updated_at = ${new Date(config.now())}
        where id = ${requestId} and status = 'SEARCHING'`

    let lastError: TakeFailure | undefined
    for (const match of acceptable.slice(0, ATTEMPTS)) {
      const outcome = yield* take(match).pipe(
        Effect.map((order) => ({ order }) as const),
        Effect.catch((error: TakeFailure) => (tryNext(side, error) ? Effect.succeed({ error } as const) : Effect.fail(error))),
        Effect.tapCause((cause) => fail(failureOf(Cause.squash(cause))).pipe(Effect.ignore)),
      )
      if ("order" in outcome) {
        const [row] = yield* sql.unsafe<RequestRow>(`select ${REQUEST_COLUMNS} from p2p_express_requests where id = $1`, [requestId])
        return yield* viewOf(userId, row!)
      }
      lastError = outcome.error
    }
    yield* fail(failureOf(lastError))
    return yield* Effect.fail(lastError!)
  })

// --- express-only (spec 3 §4.1) ------------------------------------------------------------------

/**
 * The residence the kyc plugin's verification records (its self-declared country, else the phone's),
 * read from its table when that plugin is installed; null otherwise or when the read fails (the
 * profile's countries still count). No import: modules share only the database.
 */
const verifiedResidence = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [kyc] = yield* sql<{ present: boolean }>`select to_regclass('kyc_verifications') is not null as present`
    if (kyc?.present !== true) return null
    const rows = yield* sql<{ country: string | null }>`select coalesce(self_declared_country, phone_country) as country
      from kyc_verifications where user_id = ${userId}`
    return rows[0]?.country ?? null
  }).pipe(Effect.catch(() => Effect.succeed(null)))

/** Whether the user is kept to express (spec 3 §4.1): see `isExpressOnly`. */
export const expressOnlyOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const market = yield* marketConfig
    const [row] = yield* sql<{ created_at: Date; country_alpha2_ip: string | null; country_alpha2_phone: string | null }>`
      select coalesce(profile_created_at, created_at) as created_at, country_alpha2_ip, country_alpha2_phone from kernel_users where id = ${userId}`
    if (row === undefined) return false
    // The wallet account's creation (the profile's, as the current user shows it), else the first sign-in.
    const restricted = accessOf(yield* kernelUser(userId), market.restrictedCountries) !== null
    return isExpressOnly({
      countries: [row.country_alpha2_ip, row.country_alpha2_phone, yield* verifiedResidence(userId)],
      restricted,
      restrictedCountries: market.restrictedCountries,
      accountCreatedAt: row.created_at,
      now: new Date(config.now()),
    })
  })

/** The full market's own actions (making an ad, taking one from the list) are refused to an express-only user. */
export const requireFullMarket = (userId: number) =>
  Effect.flatMap(expressOnlyOf(userId), (only) =>
    only ? Effect.fail(new P2pRefused({ code: "express_only", message: "Today the market is open to this account in express mode only" })) : Effect.void,
  )
