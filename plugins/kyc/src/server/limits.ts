/**
 * The kyc plugin's `VerificationLimits` (decision 0920): a user's allowance is their level's limit
 * (`LEVEL_LIMITS`, decision 0900) over a rolling 30 days; a blocked user's is zero. Reading it
 * creates the verification row at LEVEL_0 when the user has none.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig, VerificationLimits, type Allowance, type LimitKind } from "@wallet/kernel-server"
import { effectiveLevel, HELD_LEVELS, LEVEL_LIMITS, type HeldLevel } from "../domain.ts"
import { activeBlocks, ensureRow } from "./store.ts"

export const LIMIT_WINDOW_DAYS = 30

export const limitOf = (level: HeldLevel, kind: LimitKind): number | null =>
  kind === "p2p" ? LEVEL_LIMITS[level].p2pUsdCents : LEVEL_LIMITS[level].withdrawOuterUsdCents

/** The next level with a higher (or no) limit of this kind, for the refusal. */
export const nextLevelOf = (level: HeldLevel, kind: LimitKind): HeldLevel | null => {
  const current = limitOf(level, kind)
  if (current === null) return null
  for (const candidate of HELD_LEVELS.slice(HELD_LEVELS.indexOf(level) + 1)) {
    const limit = limitOf(candidate, kind)
    if (limit === null || limit > current) return candidate
  }
  return null
}

export const allowanceOf = (userId: number, kind: LimitKind) =>
  Effect.gen(function* () {
    const { row } = yield* ensureRow(userId)
    const blocks = yield* activeBlocks(userId)
    const level = effectiveLevel({ level: row.level, blocks })
    if (level === "BLOCKED") return { level, limitUsdCents: 0n, windowDays: LIMIT_WINDOW_DAYS, nextLevel: null } satisfies Allowance
    const limit = limitOf(level, kind)
    return {
      level,
      limitUsdCents: limit === null ? null : BigInt(limit),
      windowDays: LIMIT_WINDOW_DAYS,
      nextLevel: nextLevelOf(level, kind),
    } satisfies Allowance
  })

export const kycVerificationLimits = Layer.effect(
  VerificationLimits,
  Effect.gen(function* () {
    const context = yield* Effect.context<SqlClient.SqlClient | ServerConfig>()
    return VerificationLimits.of({ allowance: (userId, kind) => allowanceOf(userId, kind).pipe(Effect.orDie, Effect.provide(context)) })
  }),
)
