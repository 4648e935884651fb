/**
 * Reputation's endpoints (issue 21): a user's record (30 days and all time, average times, feedback) and the
 * ratings of an order: one per side, only by a party, only once the order is COMPLETED; a second one is 409.
 * The numbers come from `reputationStats.ts`; the rules from `../reputation.ts`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { P2pConflict, P2pNotFound, type OrderFeedback, type RateOrderRequest, type Reputation } from "../api.ts"
import type { OrderStatus } from "../domain.ts"
import { PAIR_CAP_ALL_TIME } from "../reputation.ts"
import { recipientOf } from "./notify.ts"
import { nameOf, requireMarket } from "./people.ts"
import { orderCounts, reputationStats } from "./reputationStats.ts"

interface FeedbackRow {
  author_id: string
  positive: boolean
  comment: string | null
  created_at: Date
}

interface PartiesRow {
  id: string
  buyer_id: string
  seller_id: string
  status: OrderStatus
}

const entryOf = (row: FeedbackRow) => ({ positive: row.positive, comment: row.comment, at: row.created_at.toISOString() })

const orderNotFound = (orderId: number) => new P2pNotFound({ code: "order_not_found", message: `No order ${orderId}` })

/** The order's parties, or 404 when the requester is not one of them (an order is private to its two sides). */
const partiesOf = (userId: number, orderId: number, lock: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = lock
      ? yield* sql<PartiesRow>`select id::text as id, buyer_id::text as buyer_id, seller_id::text as seller_id, status from p2p_orders where id = ${orderId} for update`
      : yield* sql<PartiesRow>`select id::text as id, buyer_id::text as buyer_id, seller_id::text as seller_id, status from p2p_orders where id = ${orderId}`
    const row = rows[0]
    if (row === undefined || (Number(row.buyer_id) !== userId && Number(row.seller_id) !== userId)) return yield* Effect.fail(orderNotFound(orderId))
    return row
  })

const feedbackView = (userId: number, order: PartiesRow) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows =
      yield* sql<FeedbackRow>`select author_id::text as author_id, positive, comment, created_at from p2p_order_feedback where order_id = ${order.id}`
    const mine = rows.find((row) => Number(row.author_id) === userId)
    const theirs = rows.find((row) => Number(row.author_id) !== userId)
    const completed = order.status === "COMPLETED"
    const counts = completed ? yield* orderCounts({ id: Number(order.id), buyerId: Number(order.buyer_id), sellerId: Number(order.seller_id) }) : false
    return {
      orderId: Number(order.id),
      mine: mine === undefined ? null : entryOf(mine),
      theirs: theirs === undefined ? null : entryOf(theirs),
      canRate: completed && mine === undefined,
      counts,
    } satisfies OrderFeedback
  })

/** The order's ratings as the requester sees them. */
export const orderFeedback = (userId: number, orderId: number) => Effect.flatMap(partiesOf(userId, orderId, false), (order) => feedbackView(userId, order))

const TEXT = {
  en: (id: number, buyer: boolean, positive: boolean) =>
    `Order #${id}: the ${buyer ? "buyer" : "seller"} rated the trade with you ${positive ? "positive" : "negative"}.`,
  ru: (id: number, buyer: boolean, positive: boolean) =>
    `Сделка №${id}: ${buyer ? "покупатель" : "продавец"} ${positive ? "оставил положительный" : "оставил отрицательный"} отзыв о сделке с вами.`,
} as const

/**
 * One side rates the other after a completed order: the order row locked, the party and status checked, one
 * insert (its primary key is the order and the author, so a second rating is refused), and the rated side told
 * through the Outbox, all in one transaction.
 */
export const rateOrder = (userId: number, request: RateOrderRequest) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const outbox = yield* Outbox
    const comment = request.comment?.trim() ?? ""
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const order = yield* partiesOf(userId, request.orderId, true)
        if (order.status !== "COMPLETED") {
          return yield* Effect.fail(new P2pConflict({ code: "order_state_changed", message: "Only a completed order can be rated", status: order.status }))
        }
        const buyer = Number(order.buyer_id) === userId
        const target = buyer ? Number(order.seller_id) : Number(order.buyer_id)
        const inserted = yield* sql`insert into p2p_order_feedback (order_id, author_id, target_id, positive, comment, created_at)
          values (${request.orderId}, ${userId}, ${target}, ${request.positive}, ${comment === "" ? null : comment}, ${new Date(config.now())})
          on conflict (order_id, author_id) do nothing returning order_id`
        if (inserted.length === 0) return yield* Effect.fail(new P2pConflict({ code: "already_rated", message: "You have already rated this order" }))
        // The rated side is told in their language, unless they turned order messages off.
        const recipient = yield* recipientOf(target)
        if (recipient.settings.orders) {
          yield* outbox.enqueue({
            channel: "telegram",
            recipient: String(target),
            subject: "p2p.order.rated",
            body: TEXT[recipient.language](Number(order.id), buyer, request.positive),
          })
        }
        return yield* feedbackView(userId, order)
      }),
    )
  })

/** A user's reputation as anyone on the market sees it (404 for an unknown user). */
export const userReputation = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [user] = yield* sql<{ first_name: string; last_name: string | null }>`select first_name, last_name from kernel_users where id = ${userId}`
    if (user === undefined) return yield* Effect.fail(new P2pNotFound({ code: "user_not_found", message: `No user ${userId}` }))
    const stats = (yield* reputationStats([userId])).get(userId)!
    // The latest ratings the user got on orders that count (each pair's first completed ones), newest first.
    const recent = yield* sql<FeedbackRow>`
      select f.author_id::text as author_id, f.positive, f.comment, f.created_at from p2p_order_feedback f
      where f.target_id = ${userId} and f.order_id in (
        select id from (
          select o.id, row_number() over (
            partition by case when o.buyer_id = ${userId} then o.seller_id else o.buyer_id end order by o.completed_at, o.id) as n
          from p2p_orders o where o.status = 'COMPLETED' and (o.buyer_id = ${userId} or o.seller_id = ${userId})
        ) ranked where n <= ${PAIR_CAP_ALL_TIME})
      order by f.created_at desc, f.order_id desc limit 5`
    return {
      userId,
      name: nameOf(user),
      last30d: { completedOrders: stats.completedOrders30d, completionRate: stats.completionRate30d },
      allTime: { completedOrders: stats.completedOrders, completionRate: stats.completionRate },
      avgReleaseSeconds: stats.avgReleaseSeconds,
      avgPaymentSeconds: stats.avgPaymentSeconds,
      positiveFeedbackRate: stats.positiveFeedbackRate,
      feedbackCount: stats.feedbackCount,
      recentFeedback: recent.map(entryOf),
    } satisfies Reputation
  })
