/**
 * The `VerificationLimits` port (decision 0920): how much a user may move in a rolling window at
 * their verification level. One server module implements it (the kyc plugin, from the user's level
 * and its per-level limits); the modules that move money check it in the transaction that moves it
 * (custody's withdrawals to outside addresses today, P2P next). No module imports another.
 *
 * Without an implementation nobody is limited by verification (the server has no verification).
 */
import { Context, Effect } from "effect"

/** What a limit counts: withdrawals to addresses outside the wallet, and P2P volume. */
export type LimitKind = "withdraw_outer" | "p2p"

export interface Allowance {
  /** The user's verification level as the provider names it (e.g. LEVEL_0, BLOCKED). */
  readonly level: string
  /** The most the user may move in `windowDays`, in US cents; null: no limit of the level's own. */
  readonly limitUsdCents: bigint | null
  readonly windowDays: number
  /** The next level that allows more (for the refusal's message), or null. */
  readonly nextLevel: string | null
}

export interface VerificationLimitsShape {
  readonly allowance: (userId: number, kind: LimitKind) => Effect.Effect<Allowance>
}

export class VerificationLimits extends Context.Service<VerificationLimits, VerificationLimitsShape>()("wallet/server/VerificationLimits") {
  /** Without a provider: no verification limits. */
  static readonly none: VerificationLimitsShape = { allowance: () => Effect.succeed({ level: "none", limitUsdCents: null, windowDays: 30, nextLevel: null }) }
}
