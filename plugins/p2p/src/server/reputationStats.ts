/**
 * Reputation numbers from the orders themselves (issue 21): one grouped query for any number of users (an
 * offer list page asks once for all its makers). Rules in `../reputation.ts`:
 * - completed: orders COMPLETED as a trade (not by support against a side, not a split), only the first
 *   PAIR_CAP_ALL_TIME of each pair of users (all time) and PAIR_CAP_WINDOW of the last 30 days (anti-wash);
 * - failed: orders whose `failed_by` is the user (set by the move that closed them);
 * - times: seller PAID → COMPLETED, buyer ACCEPTED → PAID, over the counted trades of the last 30 days;
 * - feedback: ratings the user got on counted orders (the pair's first PAIR_CAP_ALL_TIME completed).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { completionRate, PAIR_CAP_ALL_TIME, PAIR_CAP_WINDOW, percentOf, REPUTATION_WINDOW_DAYS } from "../reputation.ts"

export interface TraderStats {
  readonly completedOrders: number
  readonly completionRate: number | null
  readonly completedOrders30d: number
  readonly completionRate30d: number | null
  readonly avgReleaseSeconds: number | null
  readonly avgPaymentSeconds: number | null
  readonly positiveFeedbackRate: number | null
  readonly feedbackCount: number
}

export const EMPTY_STATS: TraderStats = {
  completedOrders: 0,
  completionRate: null,
  completedOrders30d: 0,
  completionRate30d: null,
  avgReleaseSeconds: null,
  avgPaymentSeconds: null,
  positiveFeedbackRate: null,
  feedbackCount: 0,
}

/** The start of the recent window by the server's clock. */
export const windowStart = Effect.gen(function* () {
  const config = yield* ServerConfig
  return new Date(config.now() - REPUTATION_WINDOW_DAYS * 86_400_000)
})

interface StatsRow {
  user_id: string
  completed: number
  completed_30d: number
  failed: number
  failed_30d: number
  release_s: number | null
  payment_s: number | null
  feedback: number
  positive: number
}

/** The reputation of each user (every id gets an entry; a user with no orders has the empty one). */
export const reputationStats = (userIds: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const ids = [...new Set(userIds)]
    const out = new Map<number, TraderStats>(ids.map((id) => [id, EMPTY_STATS]))
    if (ids.length === 0) return out
    const sql = yield* SqlClient.SqlClient
    const since = yield* windowStart
    // Each user's completed orders with the other side, ranked per pair by completion (first come, first count).
    const rows = yield* sql<StatsRow>`
      with ids as (select distinct unnest(${ids}::bigint[]) as user_id),
      mine as (
        select o.seller_id as user_id, o.buyer_id as other_id, true as selling, o.id, o.failed_by, o.accepted_at, o.paid_at, o.completed_at
          from p2p_orders o where o.status = 'COMPLETED' and o.seller_id = any(${ids}::bigint[])
        union all
        select o.buyer_id, o.seller_id, false, o.id, o.failed_by, o.accepted_at, o.paid_at, o.completed_at
          from p2p_orders o where o.status = 'COMPLETED' and o.buyer_id = any(${ids}::bigint[])
      ),
      ranked as (
        select m.*,
          m.failed_by is null and coalesce(a.outcome, '') <> 'SPLIT' as traded,
          row_number() over (partition by m.user_id, m.other_id order by m.completed_at, m.id) as n_all,
          row_number() over (partition by m.user_id, m.other_id, m.completed_at >= ${since} order by m.completed_at, m.id) as n_window
        from mine m left join p2p_appeals a on a.order_id = m.id
      ),
      counted as (
        select r.*, r.n_all <= ${PAIR_CAP_ALL_TIME} as in_all, (r.completed_at >= ${since} and r.n_window <= ${PAIR_CAP_WINDOW}) as in_window from ranked r
      ),
      done as (
        select user_id,
          count(*) filter (where in_all and traded)::int as completed,
          count(*) filter (where in_window and traded)::int as completed_30d,
          round(avg(extract(epoch from completed_at - paid_at)) filter (where in_window and traded and selling and paid_at is not null))::int as release_s,
          round(avg(extract(epoch from paid_at - accepted_at)) filter (where in_window and traded and not selling and accepted_at is not null and paid_at is not null))::int as payment_s
        from counted group by user_id
      ),
      failed as (
        select failed_by as user_id, count(*)::int as failed, count(*) filter (where closed_at >= ${since})::int as failed_30d
        from p2p_orders where failed_by = any(${ids}::bigint[]) group by failed_by
      ),
      feedback as (
        select f.target_id as user_id, count(*)::int as feedback, count(*) filter (where f.positive)::int as positive
        from p2p_order_feedback f join counted c on c.id = f.order_id and c.user_id = f.target_id
        where c.in_all group by f.target_id
      )
      select ids.user_id::text as user_id,
        coalesce(done.completed, 0) as completed, coalesce(done.completed_30d, 0) as completed_30d,
        coalesce(failed.failed, 0) as failed, coalesce(failed.failed_30d, 0) as failed_30d,
        done.release_s, done.payment_s,
        coalesce(feedback.feedback, 0) as feedback, coalesce(feedback.positive, 0) as positive
      from ids left join done using (user_id) left join failed using (user_id) left join feedback using (user_id)`
    for (const row of rows) {
      const completed = Number(row.completed)
      const completed30d = Number(row.completed_30d)
      const feedback = Number(row.feedback)
      out.set(Number(row.user_id), {
        completedOrders: completed,
        completionRate: completionRate(completed, Number(row.failed)),
        completedOrders30d: completed30d,
        completionRate30d: completionRate(completed30d, Number(row.failed_30d)),
        avgReleaseSeconds: row.release_s === null ? null : Number(row.release_s),
        avgPaymentSeconds: row.payment_s === null ? null : Number(row.payment_s),
        positiveFeedbackRate: percentOf(Number(row.positive), feedback),
        feedbackCount: feedback,
      })
    }
    return out
  })

/**
 * Whether an order counts for its parties' reputation: it is one of the first PAIR_CAP_ALL_TIME completed
 * orders between its buyer and seller (later ones carry no score and no feedback).
 */
export const orderCounts = (order: { readonly id: number; readonly buyerId: number; readonly sellerId: number }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: string }>`select id::text as id from p2p_orders
      where status = 'COMPLETED' and ((buyer_id = ${order.buyerId} and seller_id = ${order.sellerId}) or (buyer_id = ${order.sellerId} and seller_id = ${order.buyerId}))
      order by completed_at, id limit ${PAIR_CAP_ALL_TIME}`
    return rows.some((row) => Number(row.id) === order.id)
  })
