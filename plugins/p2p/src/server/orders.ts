/**
 * Orders (decision 1000): every move is one conditional update of the order row plus at most one
 * Ledger command, in one transaction, keyed `p2p:order:<id>:<move>`. The take locks the offer row,
 * takes its volume, inserts the order and holds its crypto (from the offer's escrow for a SALE offer,
 * from the taking seller for a PURCHASE offer) to the buyer. A release voids the hold back where it
 * came from (the offer's escrow gets its volume back); a completion posts it to the buyer with the fees.
 */
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { ServerConfig, VerificationLimits } from "@wallet/kernel-server"
import { Ledger, System, userOwner } from "@wallet/kernel-server/ledger"
import { usdValueOf } from "./usd.ts"
import {
  P2pConflict,
  P2pForbidden,
  P2pNotFound,
  P2pRefused,
  type HistoryRequest,
  type MoveRequest,
  type OpenAppealRequest,
  type Order,
  type StatementRequest,
  type TakeOfferRequest,
} from "../api.ts"
import {
  ACCEPT_WINDOW_MINUTES,
  cryptoDecimals,
  fiatOf,
  feeOf,
  MOVES,
  mayMove,
  movesFor,
  orderOfferType,
  paymentMethod,
  statusesOf,
  maskField,
  type FieldKind,
  type AppealOutcome,
  type IssueType,
  type OrderMove,
  type OrderStatus,
  type OfferType,
} from "../domain.ts"
import { marketConfig } from "./config.ts"
import { notifyBoth, eventOf, type Event, type OrderFacts } from "./notify.ts"
import { offerAccount, offerRow, priceOf, refundDue, unavailableReason } from "./offers.ts"
import { attachReceipts, receiptsOf, unreadOf } from "./chat.ts"
import { detailsOf, ensureP2pUser, requireMarket, tradersOf } from "./people.ts"
import { failedPartyOf } from "../reputation.ts"

interface OrderRow {
  id: string
  offer_id: string
  offer_type: OfferType
  maker_id: string
  taker_id: string
  buyer_id: string
  seller_id: string
  crypto: string
  fiat: string
  amount: string
  hold_amount: string
  fiat_amount: string
  price_cents: string
  seller_fee: string
  buyer_fee: string
  method: string
  payment_details: unknown
  payment_window: number
  terms: string | null
  status: OrderStatus
  hold_id: string | null
  deadline: Date | null
  cancelled_by: "buyer" | "seller" | "system" | null
  created_at: Date
  accepted_at: Date | null
  paid_at: Date | null
  completed_at: Date | null
  closed_at: Date | null
}

const ORDER_COLUMNS = `id::text as id, offer_id::text as offer_id, offer_type, maker_id::text as maker_id, taker_id::text as taker_id,
  buyer_id::text as buyer_id, seller_id::text as seller_id, crypto, fiat, amount::text as amount, hold_amount::text as hold_amount,
  fiat_amount::text as fiat_amount, price_cents::text as price_cents, seller_fee::text as seller_fee, buyer_fee::text as buyer_fee, method,
  payment_details, payment_window, terms, status, hold_id::text as hold_id, deadline, cancelled_by, created_at, accepted_at, paid_at, completed_at, closed_at`

const json = (value: unknown): Record<string, unknown> | null =>
  value === null || value === undefined ? null : typeof value === "string" ? (JSON.parse(value) as Record<string, unknown>) : (value as Record<string, unknown>)

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

const facts = (row: OrderRow): OrderFacts => ({
  id: Number(row.id),
  buyerId: Number(row.buyer_id),
  sellerId: Number(row.seller_id),
  crypto: row.crypto,
  amount: BigInt(row.amount),
  fiat: row.fiat,
  fiatAmount: BigInt(row.fiat_amount),
  method: row.method,
  deadline: row.status === "REQUESTED" || row.status === "ACCEPTED" ? row.deadline : null,
})

const orderView = (row: OrderRow, viewer: number, traders: Map<number, Order["buyer"]>, appeal: Order["appeal"] = null, unreadMessages = 0): Order => {
  const side = Number(row.buyer_id) === viewer ? "buyer" : "seller"
  const isMaker = Number(row.maker_id) === viewer
  const details = json(row.payment_details)
  // The buyer sees where to pay once the order is accepted; the seller always sees their own.
  const showDetails = details !== null && (side === "seller" || row.status !== "REQUESTED")
  const fields = (details?.fields ?? {}) as Record<string, string>
  const shown =
    side === "seller" || row.status === "ACCEPTED" || row.status === "PAID" || row.status === "IN_APPEAL"
      ? fields
      : Object.fromEntries(Object.entries(fields).map(([kind, value]) => [kind, maskField(kind as FieldKind, value)]))
  return {
    id: Number(row.id),
    offerId: Number(row.offer_id),
    offerType: orderOfferType(row.offer_type),
    status: row.status,
    side,
    role: isMaker ? "maker" : "taker",
    buyer: traders.get(Number(row.buyer_id))!,
    seller: traders.get(Number(row.seller_id))!,
    crypto: row.crypto as Order["crypto"],
    fiat: row.fiat,
    amount: row.amount,
    fiatAmount: row.fiat_amount,
    priceCents: row.price_cents,
    sellerFee: row.seller_fee,
    buyerFee: row.buyer_fee,
    buyerReceives: (BigInt(row.amount) - BigInt(row.buyer_fee)).toString(),
    paymentMethod: { code: row.method as Order["paymentMethod"]["code"], name: paymentMethod(row.method)?.name ?? row.method },
    paymentDetails: showDetails ? { ...(details as unknown as Order["paymentDetails"] & object), fields: shown } : null,
    paymentWindowMinutes: row.payment_window,
    terms: row.terms,
    deadline: row.status === "REQUESTED" || row.status === "ACCEPTED" ? iso(row.deadline) : null,
    moves: movesFor(row.status, side, isMaker),
    cancelledBy: row.cancelled_by,
    appeal,
    createdAt: row.created_at.toISOString(),
    acceptedAt: iso(row.accepted_at),
    paidAt: iso(row.paid_at),
    completedAt: iso(row.completed_at),
    closedAt: iso(row.closed_at),
    unreadMessages,
  }
}

/** The appeals of these orders with their statements (issue 21), by order id. */
export const appealsOf = (orderIds: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const out = new Map<number, NonNullable<Order["appeal"]>>()
    if (orderIds.length === 0) return out
    const sql = yield* SqlClient.SqlClient
    const appeals = yield* sql<{
      order_id: string
      opened_by: string
      buyer_id: string
      issue: IssueType
      status: "OPEN" | "RESOLVED"
      outcome: AppealOutcome | null
      buyer_amount: string | null
      opened_at: Date
      decided_at: Date | null
    }>`select a.order_id::text as order_id, a.opened_by::text as opened_by, o.buyer_id::text as buyer_id, a.issue, a.status, a.outcome,
        a.buyer_amount::text as buyer_amount, a.opened_at, a.decided_at
      from p2p_appeals a join p2p_orders o on o.id = a.order_id where a.order_id = any(${orderIds as Array<number>}::bigint[])`
    if (appeals.length === 0) return out
    const statements = yield* sql<{ id: string; order_id: string; author: "buyer" | "seller" | "support"; text: string; at: Date }>`
      select id::text as id, order_id::text as order_id, author, text, at from p2p_appeal_statements where order_id = any(${appeals.map((a) => Number(a.order_id))}::bigint[]) order by id`
    const receipts = yield* receiptsOf(statements.map((st) => Number(st.id)))
    for (const appeal of appeals) {
      out.set(Number(appeal.order_id), {
        status: appeal.status,
        issue: appeal.issue,
        openedBy: appeal.opened_by === appeal.buyer_id ? "buyer" : "seller",
        outcome: appeal.outcome,
        buyerAmount: appeal.buyer_amount,
        statements: statements
          .filter((st) => st.order_id === appeal.order_id)
          .map((st) => ({ author: st.author, text: st.text, at: st.at.toISOString(), files: receipts.get(Number(st.id)) ?? [] })),
        openedAt: appeal.opened_at.toISOString(),
        decidedAt: iso(appeal.decided_at),
      })
    }
    return out
  })

const viewsOf = (rows: ReadonlyArray<OrderRow>, viewer: number) =>
  Effect.gen(function* () {
    const traders = yield* tradersOf(rows.flatMap((row) => [Number(row.buyer_id), Number(row.seller_id)]))
    const appealed = rows.filter((row) => row.status === "IN_APPEAL" || row.status === "COMPLETED" || row.status === "CANCELLED").map((row) => Number(row.id))
    const appeals = yield* appealsOf(appealed)
    // The chat's unread counts of the viewer (issue 21): one query for the whole page.
    const unread = yield* unreadOf(
      rows.map((row) => Number(row.id)),
      viewer,
    )
    return rows.map((row) => orderView(row, viewer, traders, appeals.get(Number(row.id)) ?? null, unread.get(Number(row.id)) ?? 0))
  })

const orderRow = (orderId: number, lock = false) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<OrderRow>(`select ${ORDER_COLUMNS} from p2p_orders where id = $1${lock ? " for update" : ""}`, [orderId])
    return rows[0]
  })

const notFound = (orderId: number) => new P2pNotFound({ code: "order_not_found", message: `No order ${orderId}` })

const minutes = (now: Date, n: number) => new Date(now.getTime() + n * 60_000)

// --- take ----------------------------------------------------------------------------------------

const replayOf = (takerId: number, key: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<OrderRow>(`select ${ORDER_COLUMNS} from p2p_orders where taker_id = $1 and idempotency_key = $2`, [takerId, key])
    return rows[0]
  })

/** The verification limit (decision 0920): the order's USD value within what the user's level allows in its window. */
const checkLimit = (userId: number, usdCents: bigint | undefined, now: Date) =>
  Effect.gen(function* () {
    const limits = Option.getOrElse(yield* Effect.serviceOption(VerificationLimits), () => VerificationLimits.none)
    const allowance = yield* limits.allowance(userId, "p2p")
    if (allowance.limitUsdCents === null) return
    const sql = yield* SqlClient.SqlClient
    const since = new Date(now.getTime() - allowance.windowDays * 86_400_000)
    const [used] = yield* sql<{ used: string }>`select coalesce(sum(usd_cents), 0)::text as used from p2p_orders
      where (buyer_id = ${userId} or seller_id = ${userId}) and created_at >= ${since} and status not in ('CANCELLED', 'EXPIRED', 'REJECTED')`
    const room = allowance.limitUsdCents - BigInt(used!.used)
    if (usdCents === undefined || usdCents > room) {
      const dollars = (c: bigint) => `$${(Number(c > 0n ? c : 0n) / 100).toFixed(2)}`
      return yield* Effect.fail(
        new P2pRefused({
          code: "verification_limit",
          message:
            `Verification level ${allowance.level} allows ${dollars(allowance.limitUsdCents)} of P2P trades in ${allowance.windowDays} days; ${dollars(room)} left.` +
            (allowance.nextLevel === null ? "" : ` Verify to ${allowance.nextLevel} to trade more.`),
        }),
      )
    }
  })

export const takeOffer = (takerId: number, request: TakeOfferRequest) =>
  Effect.gen(function* () {
    const replay = yield* replayOf(takerId, request.idempotencyKey)
    if (replay !== undefined) return (yield* viewsOf([replay], takerId))[0]!
    yield* requireMarket(takerId)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const ledger = yield* Ledger
    const market = yield* marketConfig
    yield* ensureP2pUser(takerId)

    const seen = yield* offerRow(request.offerId)
    const decimals = cryptoDecimals(seen.crypto) ?? 0
    const now = yield* priceOf(seen)
    const asked = BigInt(request.priceCents)
    // A fixed price matches exactly; a floating one within the tolerance, and the order keeps the seen price.
    const close = seen.price_type === "FLOATING" && now > 0n && (asked > now ? asked - now : now - asked) * 10_000n <= now * BigInt(market.floatingToleranceBps)
    if (asked !== now && !close) return yield* Effect.fail(new P2pConflict({ code: "price_moved", message: "The price changed", priceCents: now.toString() }))
    const price = asked
    const amount = BigInt(request.amount)
    const fiatAmount = fiatOf(amount, decimals, price)
    if (fiatAmount < BigInt(seen.min_fiat) || fiatAmount > BigInt(seen.max_fiat)) {
      return yield* Effect.fail(
        new P2pRefused({
          code: "amount_out_of_limits",
          message: `An order of this offer is ${seen.min_fiat}–${seen.max_fiat} ${seen.fiat} cents; this one is ${fiatAmount}`,
        }),
      )
    }
    const makerId = Number(seen.user_id)
    const sale = seen.type === "SALE"
    const buyerId = sale ? takerId : makerId
    const sellerId = sale ? makerId : takerId
    // Where the buyer pays: the maker's details of the chosen method (SALE), or the taking seller's own (PURCHASE).
    const methods = (typeof seen.methods === "string" ? JSON.parse(seen.methods) : seen.methods) as Array<string>
    let details: ReturnType<typeof detailsOf>
    if (sale) {
      const code = request.paymentMethodCode
      if (code === undefined || !methods.includes(code)) {
        return yield* Effect.fail(new P2pRefused({ code: "payment_method_required", message: "Choose one of the offer's payment methods" }))
      }
      const ids = (typeof seen.details_ids === "string" ? JSON.parse(seen.details_ids) : seen.details_ids) as Array<number>
      const rows = yield* sql<{ id: string; user_id: string; method: string; fiat: string; fields: unknown }>`
        select id::text as id, user_id::text as user_id, method, fiat, fields from p2p_payment_details where id = any(${ids}::bigint[]) and method = ${code} order by id limit 1`
      if (rows[0] === undefined)
        return yield* Effect.fail(new P2pRefused({ code: "payment_method_required", message: "The seller no longer offers this method" }))
      details = detailsOf(rows[0])
    } else {
      const rows =
        request.paymentDetailsId === undefined
          ? []
          : yield* sql<{ id: string; user_id: string; method: string; fiat: string; fields: unknown }>`
              select id::text as id, user_id::text as user_id, method, fiat, fields from p2p_payment_details
              where id = ${request.paymentDetailsId} and user_id = ${takerId} and deleted_at is null`
      const row = rows[0]
      if (row === undefined || !methods.includes(row.method) || row.fiat !== seen.fiat) {
        return yield* Effect.fail(new P2pRefused({ code: "payment_method_required", message: "Choose your payment details for one of the offer's methods" }))
      }
      details = detailsOf(row)
    }
    const usdCents = yield* usdValueOf(seen.crypto, amount)

    const made = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const at = new Date(config.now())
          // One taker at a time (the verification limit counts their orders), then the offer.
          yield* sql`select 1 from p2p_users where user_id = ${takerId} for update`
          const offer = yield* offerRow(request.offerId, true)
          const reason = unavailableReason(offer, takerId, market.maxOpenOrdersPerOffer, 0n)
          if (reason !== null)
            return yield* Effect.fail(new P2pConflict({ code: "offer_unavailable", message: `The offer is unavailable (${reason})`, reason }))
          if (offer.price_type !== seen.price_type || offer.price_value !== seen.price_value) {
            return yield* Effect.fail(new P2pConflict({ code: "price_moved", message: "The price changed", priceCents: (yield* priceOf(offer)).toString() }))
          }
          if (amount > BigInt(offer.available)) {
            return yield* Effect.fail(new P2pRefused({ code: "amount_above_available", message: `The offer has ${offer.available} left` }))
          }
          yield* checkLimit(takerId, usdCents, at)
          yield* checkLimit(makerId, usdCents, at)
          const sellerBps = sale ? offer.maker_fee_bps : offer.taker_fee_bps
          const buyerBps = sale ? offer.taker_fee_bps : offer.maker_fee_bps
          // The seller's fee rides on the hold; a SALE offer's escrow always covers the amount (escrow >= available).
          const sellerFee = sale
            ? feeOf(amount, sellerBps) < BigInt(offer.escrow) - amount
              ? feeOf(amount, sellerBps)
              : BigInt(offer.escrow) - amount
            : feeOf(amount, sellerBps)
          const buyerFee = feeOf(amount, buyerBps)
          const hold = amount + sellerFee
          // The conditional update of the offer (locked above): its volume and escrow.
          const updated = yield* sql`update p2p_offers set available = available - ${amount.toString()}, escrow = escrow - ${sale ? hold.toString() : "0"},
              open_orders = open_orders + 1, version = version + 1, updated_at = ${at}
            where id = ${request.offerId} and version = ${offer.version} and available >= ${amount.toString()} returning id`
          if (updated.length === 0) return yield* Effect.fail(new P2pConflict({ code: "offer_state_changed", message: "The offer changed; read it again" }))
          const status: OrderStatus = offer.auto_accept ? "ACCEPTED" : "REQUESTED"
          const deadline = minutes(at, offer.auto_accept ? offer.payment_window : ACCEPT_WINDOW_MINUTES)
          const [row] = yield* sql.unsafe<OrderRow>(
            `insert into p2p_orders (offer_id, offer_type, maker_id, taker_id, buyer_id, seller_id, crypto, fiat, amount, hold_amount, fiat_amount, price_cents,
               seller_fee, buyer_fee, usd_cents, method, payment_details, payment_window, terms, status, deadline, idempotency_key, created_at, accepted_at, updated_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb, $18, $19, $20, $21, $22, $23, $24, $23)
             returning ${ORDER_COLUMNS}`,
            [
              request.offerId,
              offer.type,
              makerId,
              takerId,
              buyerId,
              sellerId,
              offer.crypto,
              offer.fiat,
              amount.toString(),
              hold.toString(),
              fiatAmount.toString(),
              price.toString(),
              sellerFee.toString(),
              buyerFee.toString(),
              usdCents === undefined ? null : usdCents.toString(),
              details.paymentMethod.code,
              JSON.stringify(details),
              offer.payment_window,
              offer.terms,
              status,
              deadline,
              request.idempotencyKey,
              at,
              offer.auto_accept ? at : null,
            ],
          )
          const buyer = { owner: userOwner(buyerId), currency: offer.crypto }
          yield* ledger.openAccount(buyer)
          yield* notifyBoth(facts(row!), eventOf(status, offer.auto_accept))
          // The one Ledger command: the order's crypto held for the buyer.
          const movement = yield* ledger
            .hold({
              key: `p2p:order:${row!.id}:take`,
              from: sale ? offerAccount(offer.id, offer.crypto) : { owner: userOwner(sellerId), currency: offer.crypto },
              to: buyer,
              amount: hold,
              metadata: { gateway: "p2p_order", orderId: Number(row!.id) },
            })
            .pipe(
              Effect.catchTags({
                InsufficientFunds: () =>
                  Effect.fail(new P2pRefused({ code: "insufficient_funds", message: `Not enough ${offer.crypto} to hold for this order` })),
                UnknownAccount: () => Effect.fail(new P2pRefused({ code: "insufficient_funds", message: `Not enough ${offer.crypto} to hold for this order` })),
              }),
            )
          yield* sql`update p2p_orders set hold_id = ${movement.holdId} where id = ${row!.id}`
          yield* sql`insert into p2p_order_events (order_id, move, by_user, from_status, to_status, transaction_id, at)
            values (${row!.id}, 'take', ${takerId}, null, ${status}, ${movement.transactionId}, ${at})`
          return { ...row!, hold_id: movement.holdId }
        }),
      )
      .pipe(
        // Two requests with one idempotency key: the second's insert met the first's row; answer with it.
        Effect.catchTag("SqlError", (error) =>
          Effect.flatMap(replayOf(takerId, request.idempotencyKey), (row) => (row === undefined ? Effect.die(error) : Effect.succeed(row))),
        ),
      )
    return (yield* viewsOf([made], takerId))[0]!
  })

// --- moves ---------------------------------------------------------------------------------------

type Actor = { readonly userId: number } | "system" | { readonly operator: string }

/** Support's decision on an appealed order (issue 21): release to the buyer, return to the seller, or split. */
export interface Resolution {
  readonly kind: "resolve"
  readonly outcome: AppealOutcome
  /** SPLIT: the crypto the buyer gets (the rest returns where the hold came from). */
  readonly buyerAmount: bigint | null
}

/** Rows a move writes beside the order's (an appeal's), in its transaction, before the Ledger command. */
type Extra = (row: OrderRow, at: Date) => Effect.Effect<void, SqlError | P2pRefused, SqlClient.SqlClient | ServerConfig>

/**
 * One move of one order: the row locked, checked against the machine, moved by a conditional update,
 * and its Ledger command (void or post) in the same transaction; both sides told. A move already made
 * (the same move by the same side) answers the order as it is.
 */
const applyMove = (orderId: number, step: OrderMove | "expire" | Resolution, actor: Actor, expected?: OrderStatus, extra?: Extra) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const ledger = yield* Ledger
    const result = yield* sql.withTransaction(
      Effect.gen(function* () {
        const at = new Date(config.now())
        const row = yield* orderRow(orderId, true)
        const viewer = typeof actor === "object" && "userId" in actor ? actor.userId : undefined
        if (row === undefined || (viewer !== undefined && Number(row.buyer_id) !== viewer && Number(row.seller_id) !== viewer)) {
          return yield* Effect.fail(notFound(orderId))
        }
        const move = typeof step === "string" ? step : "resolve"
        let to: OrderStatus
        let ledgerMove: "none" | "release" | "post" | "split"
        if (typeof step === "object") {
          if (row.status !== "IN_APPEAL") {
            return yield* Effect.fail(new P2pConflict({ code: "order_state_changed", message: `The order is ${row.status} now`, status: row.status }))
          }
          to = step.outcome === "SELLER" ? "CANCELLED" : "COMPLETED"
          ledgerMove = step.outcome === "SELLER" ? "release" : step.outcome === "BUYER" ? "post" : "split"
        } else if (step === "expire") {
          if ((row.status !== "REQUESTED" && row.status !== "ACCEPTED") || row.deadline === null || row.deadline.getTime() > at.getTime()) {
            return { row, refund: false, changed: false }
          }
          to = "EXPIRED"
          ledgerMove = "release"
        } else {
          const rule = MOVES[step]
          const side = Number(row.buyer_id) === viewer ? "buyer" : "seller"
          if (!mayMove(step, side, Number(row.maker_id) === viewer)) {
            return yield* Effect.fail(new P2pForbidden({ code: "wrong_side", message: `The ${rule.by} makes this move` }))
          }
          if (row.status === rule.to) {
            const done = yield* sql`select 1 from p2p_order_events where order_id = ${orderId} and move = ${move} and by_user = ${viewer!}`
            if (done.length > 0) return { row, refund: false, changed: false }
          }
          if ((expected !== undefined && expected !== row.status) || !rule.from.includes(row.status)) {
            return yield* Effect.fail(new P2pConflict({ code: "order_state_changed", message: `The order is ${row.status} now`, status: row.status }))
          }
          to = rule.to
          ledgerMove = rule.ledger
        }
        const sale = row.offer_type === "SALE"
        const cancelledBy =
          typeof step === "object"
            ? to === "CANCELLED"
              ? "support"
              : null
            : to === "CANCELLED"
              ? Number(row.buyer_id) === viewer
                ? "buyer"
                : "seller"
              : to === "EXPIRED"
                ? "system"
                : null
        const deadline = to === "ACCEPTED" ? minutes(at, row.payment_window) : null
        // Reputation (issue 21): who let the order fail, written by the same conditional update (`failed_by`, migration 4).
        const failedParty = failedPartyOf({
          to,
          from: row.status,
          by: viewer === undefined ? null : Number(row.buyer_id) === viewer ? "buyer" : "seller",
          ...(typeof step === "object" ? { outcome: step.outcome } : {}),
        })
        const failedBy = failedParty === null ? null : failedParty === "buyer" ? row.buyer_id : failedParty === "seller" ? row.seller_id : row.maker_id
        // The conditional update: only from the status read under the lock.
        const moved = yield* sql.unsafe<OrderRow>(
          `update p2p_orders set status = $2, deadline = $3, cancelled_by = coalesce($4, cancelled_by), updated_at = $5, failed_by = coalesce($7, failed_by),
             accepted_at = case when $2 = 'ACCEPTED' then $5 else accepted_at end,
             paid_at = case when $2 = 'PAID' then $5 else paid_at end,
             completed_at = case when $2 = 'COMPLETED' then $5 else completed_at end,
             closed_at = case when $2 in ('COMPLETED', 'CANCELLED', 'EXPIRED', 'REJECTED') then $5 else closed_at end
           where id = $1 and status = $6 returning ${ORDER_COLUMNS}`,
          [orderId, to, deadline, cancelledBy, at, row.status, failedBy],
        )
        const next = moved[0]
        if (next === undefined) return yield* Effect.fail(new P2pConflict({ code: "order_state_changed", message: "The order moved on", status: row.status }))
        const key = `p2p:order:${orderId}:${move}`
        // Lock order (as the take's): the order, then the offer, then the Ledger's rows last, so that
        // the Ledger's hot rows (the currency's holds account) stay locked only until the commit.
        let refund = false
        if (ledgerMove === "release") {
          // The volume goes back to the offer; a SALE offer's escrow gets the hold back (refunded when the offer is stopped).
          const offers = yield* sql<{ status: string }>`update p2p_offers set available = available + ${row.amount}, open_orders = open_orders - 1,
              escrow = escrow + ${sale ? row.hold_amount : "0"}, refund_due = refund_due or (status = 'INACTIVE' and ${sale}), version = version + 1, updated_at = ${at}
            where id = ${row.offer_id} returning status`
          refund = sale && offers[0]?.status === "INACTIVE"
        } else if (ledgerMove === "post") {
          yield* sql`update p2p_offers set open_orders = open_orders - 1, version = version + 1, updated_at = ${at} where id = ${row.offer_id}`
        } else if (ledgerMove === "split" && typeof step === "object") {
          // The buyer's part is posted; the rest of the hold returns where it came from (the offer's escrow for a SALE offer).
          const toBuyer = step.buyerAmount ?? 0n
          const back = BigInt(row.hold_amount) - toBuyer
          const volumeBack = BigInt(row.amount) > toBuyer ? BigInt(row.amount) - toBuyer : 0n
          const offers = yield* sql<{ status: string }>`update p2p_offers set available = available + ${volumeBack.toString()}, open_orders = open_orders - 1,
              escrow = escrow + ${sale ? back.toString() : "0"}, refund_due = refund_due or (status = 'INACTIVE' and ${sale}), version = version + 1, updated_at = ${at}
            where id = ${row.offer_id} returning status`
          refund = sale && offers[0]?.status === "INACTIVE"
        }
        if (row.status === "IN_APPEAL") {
          const outcome = typeof step === "object" ? step.outcome : "BUYER"
          yield* sql`update p2p_appeals set status = 'RESOLVED', outcome = ${outcome},
              buyer_amount = ${typeof step === "object" && step.buyerAmount !== null ? step.buyerAmount.toString() : null},
              decided_by = ${typeof actor === "object" && "operator" in actor ? actor.operator : null}, decided_at = ${at}
            where order_id = ${orderId} and status = 'OPEN'`
        }
        if (extra !== undefined) yield* extra(next, at)
        yield* notifyBoth(facts(next), typeof step === "object" ? "resolved" : step === "appeal" ? "appealed" : (eventOf(to, false) as Event))
        let transactionId: string | null = null
        if (ledgerMove === "release") {
          transactionId = (yield* ledger.voidHold({ key, holdId: row.hold_id!, metadata: { gateway: "p2p_order", orderId } })).transactionId
        } else if (ledgerMove === "split" && typeof step === "object") {
          transactionId = (yield* ledger.postHold({ key, holdId: row.hold_id!, amount: step.buyerAmount!, metadata: { gateway: "p2p_order", orderId } }))
            .transactionId
        } else if (ledgerMove === "post") {
          const fee = BigInt(row.seller_fee) + BigInt(row.buyer_fee)
          transactionId = (yield* ledger.postHold({
            key,
            holdId: row.hold_id!,
            fees: fee > 0n ? [{ to: { owner: System.fees, currency: row.crypto }, amount: fee }] : [],
            metadata: { gateway: "p2p_order", orderId },
          })).transactionId
        }
        yield* sql`insert into p2p_order_events (order_id, move, by_user, from_status, to_status, transaction_id, at)
          values (${orderId}, ${move}, ${viewer ?? null}, ${row.status}, ${to}, ${transactionId}, ${at})`
        return { row: next, refund, changed: true }
      }),
    )
    if (result.refund) yield* refundDue(Number(result.row.offer_id))
    return result
  })

export const moveOrder = (userId: number, request: MoveRequest) =>
  Effect.gen(function* () {
    yield* expireIfDue(request.orderId)
    const { row } = yield* applyMove(request.orderId, request.move, { userId }, request.status)
    return (yield* viewsOf([row], userId))[0]!
  })

/** Issue 21: a side of a paid order asks support; its statement is the appeal's first. */
export const openAppeal = (userId: number, request: OpenAppealRequest) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { row } = yield* applyMove(request.orderId, "appeal", { userId }, request.status, (order, at) =>
      Effect.gen(function* () {
        const author = Number(order.buyer_id) === userId ? "buyer" : "seller"
        yield* sql`insert into p2p_appeals (order_id, opened_by, issue, status, opened_at) values (${request.orderId}, ${userId}, ${request.issue}, 'OPEN', ${at})
          on conflict (order_id) do nothing`
        const [statement] = yield* sql<{ id: string }>`insert into p2p_appeal_statements (order_id, author, user_id, text, at)
          values (${request.orderId}, ${author}, ${userId}, ${request.statement}, ${at}) returning id::text as id`
        yield* attachReceipts(request.orderId, userId, Number(statement!.id), request.receiptIds)
      }),
    )
    return (yield* viewsOf([row], userId))[0]!
  })

/** Either side adds to an open appeal (what happened, what the receipt shows). */
export const addStatement = (userId: number, request: StatementRequest) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const row = yield* sql.withTransaction(
      Effect.gen(function* () {
        const order = yield* orderRow(request.orderId, true)
        if (order === undefined || (Number(order.buyer_id) !== userId && Number(order.seller_id) !== userId))
          return yield* Effect.fail(notFound(request.orderId))
        if (order.status !== "IN_APPEAL") {
          return yield* Effect.fail(new P2pConflict({ code: "order_state_changed", message: "The order has no open appeal", status: order.status }))
        }
        const [{ n }] = (yield* sql<{
          n: number
        }>`select count(*)::int as n from p2p_appeal_statements where order_id = ${request.orderId} and user_id = ${userId}`) as [{ n: number }]
        if (n >= 20) return yield* Effect.fail(new P2pRefused({ code: "invalid_offer", message: "At most 20 statements per side" }))
        const [statement] = yield* sql<{ id: string }>`insert into p2p_appeal_statements (order_id, author, user_id, text, at)
          values (${request.orderId}, ${Number(order.buyer_id) === userId ? "buyer" : "seller"}, ${userId}, ${request.text}, ${new Date(config.now())}) returning id::text as id`
        yield* attachReceipts(request.orderId, userId, Number(statement!.id), request.receiptIds)
        return order
      }),
    )
    return (yield* viewsOf([row], userId))[0]!
  })

/**
 * Support's decision (the operator page): one transaction with the audit entry, the conditional update of
 * the order (IN_APPEAL only), the appeal closed, and the one Ledger command (post, void or a partial post).
 */
export const resolveAppeal = (
  orderId: number,
  resolution: Resolution,
  operator: string,
  note: string,
  audit: (before: unknown) => Effect.Effect<void, SqlError, SqlClient.SqlClient | ServerConfig>,
) =>
  applyMove(orderId, resolution, { operator }, "IN_APPEAL", (order, at) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* audit({ status: "IN_APPEAL", orderId })
      if (note.length > 0)
        yield* sql`insert into p2p_appeal_statements (order_id, author, user_id, text, at) values (${orderId}, 'support', null, ${note}, ${at})`
      yield* sql`update p2p_appeals set note = ${note || null} where order_id = ${order.id}`
    }),
  )

/** Lazily expires an order read after its deadline (the sweep does the same on its beat); a cheap read first. */
const expireIfDue = (orderId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const due = yield* sql`select 1 from p2p_orders where id = ${orderId} and status in ('REQUESTED', 'ACCEPTED') and deadline <= ${new Date(config.now())}`
    if (due.length > 0) yield* expireNow(orderId)
  })

const expireNow = (orderId: number) =>
  applyMove(orderId, "expire", "system").pipe(
    Effect.catchTag("P2pNotFound", () => Effect.void),
    Effect.asVoid,
  )

export const getOrder = (userId: number, orderId: number) =>
  Effect.gen(function* () {
    yield* expireIfDue(orderId)
    const row = yield* orderRow(orderId)
    if (row === undefined || (Number(row.buyer_id) !== userId && Number(row.seller_id) !== userId)) return yield* Effect.fail(notFound(orderId))
    return (yield* viewsOf([row], userId))[0]!
  })

export const history = (userId: number, request: HistoryRequest) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const statuses = statusesOf(request.filter.status)
    const rows = yield* sql.unsafe<OrderRow>(
      `select ${ORDER_COLUMNS} from p2p_orders where (buyer_id = $1 or seller_id = $1) and status = any($2::text[]) order by id desc offset $3 limit $4`,
      [userId, [...statuses], request.offset, request.limit],
    )
    return { items: yield* viewsOf(rows, userId) }
  })

/** The sweep: orders past their deadline expire, stopped offers with released holds are refunded. */
export const sweep = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* ServerConfig
  const due = yield* sql<{
    id: string
  }>`select id::text as id from p2p_orders where status in ('REQUESTED', 'ACCEPTED') and deadline <= ${new Date(config.now())}
    order by deadline limit 200`
  for (const { id } of due) yield* expireIfDue(Number(id))
  const refunds = yield* sql<{ id: string }>`select id::text as id from p2p_offers where refund_due limit 200`
  for (const { id } of refunds) yield* refundDue(Number(id))
  return due.length
})
