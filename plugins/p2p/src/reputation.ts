/**
 * Reputation's pure rules (issue 21): who failed an order that closed without a trade, the completion
 * rate, the anti-wash caps per pair of users, and how the screens round times. Shared by the server (the
 * stats query in `server/reputation.ts` counts by these rules) and the screens; no I/O.
 */
import type { AppealOutcome, OrderStatus, Side } from "./domain.ts"

/** The recent window of the stats ("30 d"), in days. */
export const REPUTATION_WINDOW_DAYS = 30

/**
 * Anti-wash: of the COMPLETED orders between the same two users, only the first 10 ever count, and of those
 * completed in the last 30 days only the first 3. Orders beyond the cap raise neither side's completed count,
 * completion rate, release or payment time, nor carry feedback. A failure always counts (it only lowers a score).
 */
export const PAIR_CAP_ALL_TIME = 10
export const PAIR_CAP_WINDOW = 3

/** A rating's comment is at most this long (characters). */
export const FEEDBACK_COMMENT_MAX = 200

/** Who let an order fail: a side, or the offer's owner (who had to accept). */
export type FailedParty = Side | "maker"

export interface Closing {
  /** The status the move leads to. */
  readonly to: OrderStatus
  /** The status it leaves. */
  readonly from: OrderStatus
  /** The side that made the move; null when the system (the sweep) or support made it. */
  readonly by: Side | null
  /** Support's decision on an appeal, when the move is one. */
  readonly outcome?: AppealOutcome
}

/**
 * Who failed the order this move closes, or null when nobody did (a trade, a split, a move that does not close):
 * - a cancel or a reject counts against whoever made it;
 * - an expiry counts against the side whose inaction let it run out: the maker who did not accept a request in
 *   time (REQUESTED), the buyer who did not pay in time (ACCEPTED); never against the other side;
 * - support's decision counts against the side it went against (a split against nobody).
 */
export const failedPartyOf = (closing: Closing): FailedParty | null => {
  if (closing.outcome !== undefined) return closing.outcome === "BUYER" ? "seller" : closing.outcome === "SELLER" ? "buyer" : null
  switch (closing.to) {
    case "CANCELLED":
    case "REJECTED":
      return closing.by
    case "EXPIRED":
      return closing.from === "REQUESTED" ? "maker" : closing.from === "ACCEPTED" ? "buyer" : null
    default:
      return null
  }
}

/** Whole percent, rounded down (a score never reads higher than it is); null when there is nothing to count. */
export const percentOf = (part: number, whole: number): number | null => (whole <= 0 ? null : Math.floor((part * 100) / whole))

/** Completed / (completed + failed), whole percent; null before the first closed order. */
export const completionRate = (completed: number, failed: number): number | null => percentOf(completed, completed + failed)

/** Whether an order that is the `n`-th completed one of its pair (1-based) counts, all time or in the window. */
export const countsInPair = (n: number, window: boolean): boolean => n >= 1 && n <= (window ? PAIR_CAP_WINDOW : PAIR_CAP_ALL_TIME)

/** An average time as the screens say it: under a minute, "~ N min" up to two hours, then "~ N h". */
export type ApproxDuration = { readonly unit: "underMinute" } | { readonly unit: "minutes" | "hours"; readonly count: number }

export const approxDuration = (seconds: number): ApproxDuration => {
  if (seconds < 60) return { unit: "underMinute" }
  const minutes = Math.round(seconds / 60)
  if (minutes < 120) return { unit: "minutes", count: minutes }
  return { unit: "hours", count: Math.round(minutes / 60) }
}
