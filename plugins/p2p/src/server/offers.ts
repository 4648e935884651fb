/**
 * Offers (decision 1000). A SALE offer's crypto sits in its own Ledger account `p2p:offer:<id>`
 * (the escrow): publishing moves the volume and the maker's fee room there from the seller, each order
 * holds its part from there, a released order's hold returns there, and stopping the offer moves back
 * what no order holds. The row's `escrow` is that account's balance, changed in the same transaction
 * as every movement of it; `available` is the crypto orders may still take.
 */
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Ledger, userOwner, type AccountRef } from "@wallet/kernel-server/ledger"
import { Rates } from "@wallet/plugin-custody/server"
import { P2pConflict, P2pForbidden, P2pNotFound, P2pRefused, type Offer, type OfferForm, type OfferListRequest, type Trader } from "../api.ts"
import {
  cryptoDecimals,
  FLOATING_MAX_BPS,
  FLOATING_MIN_BPS,
  fiatOf,
  offerHoldOf,
  paymentMethod,
  type OfferStatus,
  type OfferType,
  type UnavailableReason,
} from "../domain.ts"
import { marketConfig } from "./config.ts"
import { ensureP2pUser, requireMarket, tradersOf } from "./people.ts"

export const offerOwner = (offerId: number | string) => `p2p:offer:${offerId}`
export const offerAccount = (offerId: number | string, crypto: string): AccountRef => ({ owner: offerOwner(offerId), currency: crypto })

export interface OfferRow {
  id: string
  user_id: string
  type: OfferType
  status: OfferStatus
  crypto: string
  fiat: string
  price_type: "FIXED" | "FLOATING"
  price_value: string
  volume: string
  available: string
  escrow: string
  refund_due: boolean
  min_fiat: string
  max_fiat: string
  methods: unknown
  details_ids: unknown
  payment_window: number
  terms: string | null
  auto_accept: boolean
  maker_fee_bps: number
  taker_fee_bps: number
  open_orders: number
  version: number
  created_at: Date
}

export const OFFER_COLUMNS = `id::text as id, user_id::text as user_id, type, status, crypto, fiat, price_type, price_value::text as price_value,
  volume::text as volume, available::text as available, escrow::text as escrow, refund_due, min_fiat::text as min_fiat, max_fiat::text as max_fiat,
  methods, details_ids, payment_window, terms, auto_accept, maker_fee_bps, taker_fee_bps, open_orders, version, created_at`

const list = (value: unknown): Array<unknown> => (typeof value === "string" ? (JSON.parse(value) as Array<unknown>) : ((value ?? []) as Array<unknown>))

// --- prices --------------------------------------------------------------------------------------

/** The market rate in cents per whole unit (custody's Rates service: sandbox or feed). */
export const marketPriceCents = (crypto: string, fiat: string) =>
  Effect.gen(function* () {
    const rates = yield* Effect.serviceOption(Rates)
    if (Option.isNone(rates)) return undefined
    const quotes = yield* rates.value.quotes([crypto], fiat).pipe(Effect.catch(() => Effect.succeed(new Map())))
    const quote = quotes.get(crypto)
    // Prices are scaled by 10^12: cents are 10^10 of them.
    return quote === undefined ? undefined : quote.price / 10_000_000_000n
  })

/** The offer's price now: fixed, or its share of the market rate. */
export const priceOf = (row: Pick<OfferRow, "price_type" | "price_value" | "crypto" | "fiat">) =>
  Effect.gen(function* () {
    if (row.price_type === "FIXED") return BigInt(row.price_value)
    const market = yield* marketPriceCents(row.crypto, row.fiat)
    return market === undefined ? 0n : (market * BigInt(row.price_value)) / 10_000n
  })

// --- reading -------------------------------------------------------------------------------------

export const unavailableReason = (row: OfferRow, viewer: number, cap: number, priceCents: bigint): UnavailableReason | null => {
  if (row.status !== "ACTIVE") return "inactive"
  if (Number(row.user_id) === viewer) return "own_offer"
  if (BigInt(row.available) === 0n) return "sold_out"
  if (row.open_orders >= cap) return "open_orders_per_offer_cap_reached"
  const decimals = cryptoDecimals(row.crypto) ?? 0
  if (priceCents > 0n && fiatOf(BigInt(row.available), decimals, priceCents) < BigInt(row.min_fiat)) return "below_minimum"
  return null
}

export const offerView = (row: OfferRow, viewer: number, trader: Trader, cap: number, priceCents: bigint): Offer => {
  const isMine = Number(row.user_id) === viewer
  return {
    id: Number(row.id),
    type: row.type,
    status: row.status,
    user: trader,
    isMine,
    crypto: row.crypto as Offer["crypto"],
    fiat: row.fiat,
    price: { type: row.price_type, value: row.price_value },
    priceCents: priceCents.toString(),
    volume: row.volume,
    available: row.available,
    minOrderFiat: row.min_fiat,
    maxOrderFiat: row.max_fiat,
    paymentMethods: (list(row.methods) as Array<string>).map((code) => ({
      code: code as Offer["paymentMethods"][number]["code"],
      name: paymentMethod(code)?.name ?? code,
    })),
    paymentDetailsIds: isMine ? (list(row.details_ids) as Array<number>) : [],
    paymentWindowMinutes: row.payment_window,
    terms: row.terms,
    autoAccept: row.auto_accept,
    openOrders: row.open_orders,
    unavailableReason: isMine ? null : unavailableReason(row, viewer, cap, priceCents),
    makerFeeBps: row.maker_fee_bps,
    takerFeeBps: row.taker_fee_bps,
    createdAt: row.created_at.toISOString(),
  }
}

export const viewsOf = (rows: ReadonlyArray<OfferRow>, viewer: number) =>
  Effect.gen(function* () {
    const config = yield* marketConfig
    const traders = yield* tradersOf(rows.map((row) => Number(row.user_id)))
    return yield* Effect.forEach(rows, (row) =>
      Effect.map(priceOf(row), (price) => offerView(row, viewer, traders.get(Number(row.user_id))!, config.maxOpenOrdersPerOffer, price)),
    )
  })

export const offerRow = (offerId: number, lock = false) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<OfferRow>(`select ${OFFER_COLUMNS} from p2p_offers where id = $1${lock ? " for update" : ""}`, [offerId])
    const row = rows[0]
    if (row === undefined) return yield* Effect.fail(new P2pNotFound({ code: "offer_not_found", message: `No offer ${offerId}` }))
    return row
  })

export const getOffer = (viewer: number, offerId: number) =>
  Effect.gen(function* () {
    const row = yield* offerRow(offerId)
    const [view] = yield* viewsOf([row], viewer)
    return view!
  })

/** The market's list: active offers of the type and pair, any of the methods, able to fill the amount; best price first. */
export const listOffers = (viewer: number, request: OfferListRequest) =>
  Effect.gen(function* () {
    yield* requireMarket(viewer)
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<OfferRow>(
      `select ${OFFER_COLUMNS} from p2p_offers
        where type = $1 and crypto = $2 and fiat = $3 and status = 'ACTIVE' and available > 0
          and ($4::text[] is null or methods ?| $4::text[])
          and ($5::bigint is null or (min_fiat <= $5 and max_fiat >= $5))
        order by id`,
      [request.type, request.crypto, request.fiat, request.paymentMethods.length === 0 ? null : [...request.paymentMethods], request.amountFiat ?? null],
    )
    const views = yield* viewsOf(rows, viewer)
    // Buyers want the lowest price of a SALE offer, sellers the highest of a PURCHASE offer; then the oldest.
    const sorted = [...views].sort((a, b) => {
      const diff = BigInt(a.priceCents) - BigInt(b.priceCents)
      const order = diff === 0n ? a.id - b.id : diff < 0n ? -1 : 1
      return request.type === "SALE" || diff === 0n ? order : -order
    })
    const amount = request.amountFiat === undefined ? undefined : BigInt(request.amountFiat)
    const fits =
      amount === undefined ? sorted : sorted.filter((o) => fiatOf(BigInt(o.available), cryptoDecimals(o.crypto) ?? 0, BigInt(o.priceCents)) >= amount)
    return { items: fits.slice(request.offset, request.offset + request.limit) }
  })

export const myOffers = (viewer: number, type: OfferType | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<OfferRow>(
      `select ${OFFER_COLUMNS} from p2p_offers where user_id = $1 and ($2::text is null or type = $2) order by (status = 'ACTIVE') desc, id desc limit 100`,
      [viewer, type ?? null],
    )
    return { items: yield* viewsOf(rows, viewer) }
  })

/** Crypto in the user's SALE offers' escrows (the wallet shows it as "in P2P offers"). */
export const inOffers = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ crypto: string; amount: string }>`
      select crypto, sum(escrow)::text as amount from p2p_offers where user_id = ${userId} and type = 'SALE' and escrow > 0 group by crypto order by crypto`
    return rows.map((row) => ({ crypto: row.crypto as Offer["crypto"], amount: row.amount }))
  })

// --- writing -------------------------------------------------------------------------------------

/** The fee rates an offer was published with. */
const feesOf = (row: OfferRow) => ({ makerBps: row.maker_fee_bps, takerBps: row.taker_fee_bps })

const refuse = (message: string) => Effect.fail(new P2pRefused({ code: "invalid_offer", message }))

/** Checks a form against the catalogue and the user's own payment details; the method codes the offer lists. */
const checkForm = (userId: number, form: OfferForm) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const decimals = cryptoDecimals(form.crypto)
    if (decimals === undefined) return yield* refuse(`${form.crypto} is not traded`)
    const price = BigInt(form.price.value)
    if (form.price.type === "FLOATING" && (price < BigInt(FLOATING_MIN_BPS) || price > BigInt(FLOATING_MAX_BPS))) {
      return yield* refuse(`A floating price is ${FLOATING_MIN_BPS / 100}–${FLOATING_MAX_BPS / 100} % of the market rate`)
    }
    const min = BigInt(form.minOrderFiat)
    const max = BigInt(form.maxOrderFiat)
    if (min > max) return yield* refuse("The minimum per order is above the maximum")
    let methods: Array<string>
    if (form.type === "SALE") {
      if (form.paymentDetailsIds.length === 0) return yield* refuse("Choose at least one of your payment methods")
      const rows = yield* sql<{ id: string; method: string; fiat: string }>`select id::text as id, method, fiat from p2p_payment_details
        where user_id = ${userId} and deleted_at is null and id = any(${[...form.paymentDetailsIds]}::bigint[])`
      if (rows.length !== new Set(form.paymentDetailsIds).size || rows.some((row) => row.fiat !== form.fiat)) {
        return yield* refuse(`Choose your own ${form.fiat} payment methods`)
      }
      methods = [...new Set(rows.map((row) => row.method))]
    } else {
      if (form.paymentMethodCodes.length === 0) return yield* refuse("Choose at least one payment method")
      if (form.paymentMethodCodes.some((code) => !paymentMethod(code)?.fiats.includes(form.fiat))) return yield* refuse(`A method does not serve ${form.fiat}`)
      methods = [...new Set(form.paymentMethodCodes)]
    }
    const priceCents = form.price.type === "FIXED" ? price : (((yield* marketPriceCents(form.crypto, form.fiat)) ?? 0n) * price) / 10_000n
    if (priceCents <= 0n) return yield* refuse("No market rate for this pair now")
    if (fiatOf(BigInt(form.volume), decimals, priceCents) < min) return yield* refuse("The volume is worth less than the minimum per order")
    return { methods, detailsIds: form.type === "SALE" ? [...new Set(form.paymentDetailsIds)] : [] }
  })

const noFunds = (crypto: string) => new P2pRefused({ code: "insufficient_funds", message: `Not enough ${crypto} to hold for this offer` })

/** Moves `amount` between the seller and the offer's escrow (one Ledger command); a refusal for lack of funds. */
const moveEscrow = (key: string, offerId: string, sellerId: number, crypto: string, amount: bigint, toEscrow: boolean) =>
  Effect.gen(function* () {
    if (amount === 0n) return
    const ledger = yield* Ledger
    const seller = { owner: userOwner(sellerId), currency: crypto }
    const escrow = offerAccount(offerId, crypto)
    yield* ledger.openAccount(escrow)
    yield* ledger
      .transfer({
        key,
        legs: [toEscrow ? { from: seller, to: escrow, amount } : { from: escrow, to: seller, amount }],
        metadata: { gateway: toEscrow ? "p2p_offer" : "p2p_refund", offerId: Number(offerId) },
      })
      .pipe(
        Effect.catchTags({
          InsufficientFunds: () => Effect.fail(noFunds(crypto)),
          UnknownAccount: () => Effect.fail(noFunds(crypto)),
        }),
      )
  })

export const createOffer = (userId: number, request: OfferForm & { readonly idempotencyKey: string }) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const market = yield* marketConfig
    yield* ensureP2pUser(userId)
    const replay = yield* sql<{ id: string }>`select id::text as id from p2p_offers where user_id = ${userId} and idempotency_key = ${request.idempotencyKey}`
    if (replay[0] !== undefined) return yield* getOffer(userId, Number(replay[0].id))
    const { methods, detailsIds } = yield* checkForm(userId, request)
    const now = new Date(config.now())
    const volume = BigInt(request.volume)
    const escrow = request.type === "SALE" ? offerHoldOf(volume, { makerBps: market.makerFeeBps, takerBps: market.takerFeeBps }) : 0n
    const id = yield* sql.withTransaction(
      Effect.gen(function* () {
        const [row] = yield* sql<{
          id: string
        }>`insert into p2p_offers (user_id, type, status, crypto, fiat, price_type, price_value, volume, available, escrow,
            min_fiat, max_fiat, methods, details_ids, payment_window, terms, auto_accept, maker_fee_bps, taker_fee_bps, idempotency_key, created_at, updated_at)
          values (${userId}, ${request.type}, 'ACTIVE', ${request.crypto}, ${request.fiat}, ${request.price.type}, ${request.price.value}, ${request.volume},
            ${request.volume}, ${escrow.toString()}, ${request.minOrderFiat}, ${request.maxOrderFiat}, ${JSON.stringify(methods)}::jsonb, ${JSON.stringify(detailsIds)}::jsonb,
            ${request.paymentWindowMinutes}, ${request.terms}, ${request.autoAccept}, ${market.makerFeeBps}, ${market.takerFeeBps}, ${request.idempotencyKey}, ${now}, ${now})
          returning id::text as id`
        // The one Ledger command: the seller's crypto into the offer's escrow.
        yield* moveEscrow(`p2p:offer:${row!.id}:publish`, row!.id, userId, request.crypto, escrow, true)
        return row!.id
      }),
    )
    return yield* getOffer(userId, Number(id))
  })

/**
 * An edit: the terms change at once; the volume may not go below what orders took (volume -
 * available), and a SALE offer's escrow follows the new available volume (one transfer either way).
 */
export const updateOffer = (userId: number, offerId: number, form: OfferForm) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const { methods, detailsIds } = yield* checkForm(userId, form)
    yield* sql.withTransaction(
      Effect.gen(function* () {
        const row = yield* offerRow(offerId, true)
        if (Number(row.user_id) !== userId) return yield* Effect.fail(new P2pForbidden({ code: "wrong_side", message: "Only the offer's owner edits it" }))
        if (form.type !== row.type || form.crypto !== row.crypto || form.fiat !== row.fiat)
          return yield* refuse("The type and the pair of an offer do not change")
        const taken = BigInt(row.volume) - BigInt(row.available)
        const volume = BigInt(form.volume)
        if (volume < taken) return yield* refuse(`Orders already took ${taken}: the volume cannot go below it`)
        const available = volume - taken
        const active = row.status === "ACTIVE"
        const target = row.type === "SALE" && active ? offerHoldOf(available, feesOf(row)) : BigInt(row.escrow)
        // The escrow keeps what active orders' fee room needs: only the difference of the available part moves.
        const delta = row.type === "SALE" && active ? target - offerHoldOf(BigInt(row.available), feesOf(row)) : 0n
        const nextEscrow = BigInt(row.escrow) + delta
        if (nextEscrow < 0n) return yield* refuse("The escrow cannot go below zero")
        const version = row.version
        yield* sql`update p2p_offers set price_type = ${form.price.type}, price_value = ${form.price.value}, volume = ${form.volume}, available = ${available.toString()},
            escrow = ${nextEscrow.toString()}, min_fiat = ${form.minOrderFiat}, max_fiat = ${form.maxOrderFiat}, methods = ${JSON.stringify(methods)}::jsonb,
            details_ids = ${JSON.stringify(detailsIds)}::jsonb, payment_window = ${form.paymentWindowMinutes}, terms = ${form.terms}, auto_accept = ${form.autoAccept},
            version = version + 1, updated_at = ${new Date(config.now())}
          where id = ${offerId}`
        if (delta !== 0n) yield* moveEscrow(`p2p:offer:${offerId}:edit:${version + 1}`, row.id, userId, row.crypto, delta > 0n ? delta : -delta, delta > 0n)
      }),
    )
    return yield* getOffer(userId, offerId)
  })

/**
 * Stop: the offer leaves the market and a SALE offer's escrow returns to the seller, except what its
 * active orders hold (their holds are separate; a released one comes back to the escrow and is refunded
 * by `refundDue`). Activate: a SALE offer holds its available volume again.
 */
export const setOfferStatus = (userId: number, offerId: number, status: OfferStatus) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    if (status === "ACTIVE") yield* requireMarket(userId)
    yield* sql.withTransaction(
      Effect.gen(function* () {
        const row = yield* offerRow(offerId, true)
        if (Number(row.user_id) !== userId) return yield* Effect.fail(new P2pForbidden({ code: "wrong_side", message: "Only the offer's owner changes it" }))
        if (row.status === status) return
        const version = row.version
        const now = new Date(config.now())
        if (status === "INACTIVE") {
          const escrow = BigInt(row.escrow)
          yield* sql`update p2p_offers set status = 'INACTIVE', escrow = 0, refund_due = false, version = version + 1, updated_at = ${now} where id = ${offerId}`
          if (row.type === "SALE") yield* moveEscrow(`p2p:offer:${offerId}:stop:${version + 1}`, row.id, userId, row.crypto, escrow, false)
        } else {
          if (row.type === "SALE" && BigInt(row.available) === 0n)
            return yield* Effect.fail(new P2pConflict({ code: "offer_unavailable", message: "The offer is sold out", reason: "sold_out" }))
          // What released orders brought back stays in the escrow; only the rest of the hold moves in.
          const need = row.type === "SALE" ? offerHoldOf(BigInt(row.available), feesOf(row)) - BigInt(row.escrow) : 0n
          const escrow = need > 0n ? need : 0n
          yield* sql`update p2p_offers set status = 'ACTIVE', escrow = escrow + ${escrow.toString()}, refund_due = false, version = version + 1, updated_at = ${now} where id = ${offerId}`
          if (row.type === "SALE") yield* moveEscrow(`p2p:offer:${offerId}:activate:${version + 1}`, row.id, userId, row.crypto, escrow, true)
        }
      }),
    )
    return yield* getOffer(userId, offerId)
  })

/**
 * Orders released on a stopped offer put their hold back into its escrow: this moves it to the seller
 * (one transfer per offer, keyed by the offer's version). Run after such a release and by the sweep.
 */
export const refundDue = (offerId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* sql.withTransaction(
      Effect.gen(function* () {
        const row = yield* offerRow(offerId, true)
        if (row.status !== "INACTIVE" || !row.refund_due || row.type !== "SALE") return
        yield* sql`update p2p_offers set escrow = 0, refund_due = false, version = version + 1, updated_at = ${new Date(config.now())} where id = ${offerId}`
        yield* moveEscrow(`p2p:offer:${offerId}:refund:${row.version + 1}`, row.id, Number(row.user_id), row.crypto, BigInt(row.escrow), false)
      }),
    )
  })
