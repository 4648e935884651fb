/**
 * Trusted merchants (issue 21; the rules in `../merchantRules.ts`): the user's criteria and
 * application, the application itself (the server checks every criterion again and refuses with
 * `merchant_criteria_not_met`, `merchant_application_exists` or `merchant_cooldown`), and support's
 * decisions (approve, reject with a reason, revoke), each one conditional update of the application
 * with its operator audit entry and the user's bot message in one transaction.
 */
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { ServerConfig, VerificationLimits } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { P2pRefused, type MerchantApplication, type MerchantStatus } from "../api.ts"
import {
  accountAgeDays,
  evaluateCriteria,
  levelNumber,
  mayApply,
  reapplyAt,
  readTrustedMerchantRules,
  recentStats,
  type MerchantApplicationStatus,
  type MerchantFacts,
  type TrustedMerchantRules,
} from "../merchantRules.ts"
import { languageOf } from "./notify.ts"
import { ensureP2pUser, requireMarket, statsOf } from "./people.ts"

export const merchantRules = Effect.map(ServerConfig, (config) =>
  readTrustedMerchantRules(((config.pluginConfig.p2p ?? {}) as Record<string, unknown>).trustedMerchant),
)

export interface ApplicationRow {
  id: string
  user_id: string
  status: MerchantApplicationStatus
  facts: unknown
  reason: string | null
  decided_by: string | null
  created_at: Date
  decided_at: Date | null
}

const COLUMNS = `id::text as id, user_id::text as user_id, status, facts, reason, decided_by, created_at, decided_at`

export const factsJson = (value: unknown): Partial<MerchantFacts> => (typeof value === "string" ? JSON.parse(value) : (value ?? {})) as Partial<MerchantFacts>

/** The user's level (the `VerificationLimits` port: the kyc plugin's level), 30-day stats and account age. */
export const factsOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const limits = Option.getOrElse(yield* Effect.serviceOption(VerificationLimits), () => VerificationLimits.none)
    const allowance = yield* limits.allowance(userId, "p2p")
    const stats = (yield* statsOf([userId])).get(userId)
    const [user] = yield* sql<{ created_at: Date }>`select created_at from kernel_users where id = ${userId}`
    const recent = recentStats(stats ?? { completedOrders: 0, completionRate: null })
    return {
      level: levelNumber(allowance.level),
      ...recent,
      accountAgeDays: user === undefined ? 0 : accountAgeDays(new Date(user.created_at), config.now()),
    } satisfies MerchantFacts
  })

export const latestApplication = (userId: number, lock = false) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<ApplicationRow>(
      `select ${COLUMNS} from p2p_merchant_applications where user_id = $1 order by id desc limit 1${lock ? " for update" : ""}`,
      [userId],
    )
    return rows[0]
  })

export const applicationById = (id: number, lock = false) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<ApplicationRow>(`select ${COLUMNS} from p2p_merchant_applications where id = $1${lock ? " for update" : ""}`, [id])
    return rows[0]
  })

const applicationView = (row: ApplicationRow, rules: TrustedMerchantRules): MerchantApplication => ({
  id: Number(row.id),
  status: row.status,
  reason: row.reason,
  createdAt: new Date(row.created_at).toISOString(),
  decidedAt: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
  reapplyAt:
    (row.status === "REJECTED" || row.status === "REVOKED") && row.decided_at !== null ? reapplyAt(new Date(row.decided_at), rules).toISOString() : null,
})

const statusView = (facts: MerchantFacts, latest: ApplicationRow | undefined, rules: TrustedMerchantRules, nowMs: number): MerchantStatus => {
  const criteria = evaluateCriteria(facts, rules)
  const decided = latest === undefined ? null : { status: latest.status, decidedAt: latest.decided_at === null ? null : new Date(latest.decided_at) }
  return {
    trustedMerchant: latest?.status === "APPROVED",
    criteria,
    canApply: mayApply(criteria, decided, rules, nowMs) === "ok",
    application: latest === undefined ? null : applicationView(latest, rules),
  }
}

/** `GET /api/p2p/merchant`. */
export const merchantStatus = (userId: number) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const rules = yield* merchantRules
    return statusView(yield* factsOf(userId), yield* latestApplication(userId), rules, config.now())
  })

// --- bot messages --------------------------------------------------------------------------------

type MerchantEvent = "applied" | "approved" | "rejected" | "revoked"
const day = (date: Date) => date.toISOString().slice(0, 10)

const TEXT: Record<"en" | "ru", Record<MerchantEvent, (reason: string, again: Date) => string>> = {
  en: {
    applied: () => "We got your trusted-merchant application. Support checks it and tells you here.",
    approved: () => "You are a trusted merchant now: your ads and your profile show the badge.",
    rejected: (reason, again) => `Your trusted-merchant application was declined: ${reason}. You can apply again from ${day(again)}.`,
    revoked: (reason, again) => `Support removed your trusted-merchant badge: ${reason}. You can apply again from ${day(again)}.`,
  },
  ru: {
    applied: () => "Мы получили вашу заявку на статус надёжного продавца. Поддержка проверит её и ответит здесь.",
    approved: () => "Теперь вы надёжный продавец: ваши объявления и профиль отмечены значком.",
    rejected: (reason, again) => `Заявка на статус надёжного продавца отклонена: ${reason}. Подать новую можно с ${day(again)}.`,
    revoked: (reason, again) => `Поддержка сняла с вас статус надёжного продавца: ${reason}. Подать новую заявку можно с ${day(again)}.`,
  },
}

const tell = (userId: number, event: MerchantEvent, reason: string, again: Date) =>
  Effect.gen(function* () {
    const outbox = yield* Outbox
    const language = yield* languageOf(userId)
    yield* outbox.enqueue({ channel: "telegram", recipient: String(userId), subject: `p2p.merchant.${event}`, body: TEXT[language][event](reason, again) })
  })

// --- applying ------------------------------------------------------------------------------------

/**
 * `POST /api/p2p/merchant/apply`: the criteria checked again, then the application (PENDING) with the
 * figures it was made with and the user's bot message, in one transaction under the user's P2P row
 * lock (the partial unique index also stops a second PENDING).
 */
export const applyForMerchant = (userId: number) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const rules = yield* merchantRules
    yield* ensureP2pUser(userId)
    // The level comes from another module's port: read before the transaction, the rest under the lock.
    const facts = yield* factsOf(userId)
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`select 1 from p2p_users where user_id = ${userId} for update`
        const now = config.now()
        const latest = yield* latestApplication(userId)
        const criteria = evaluateCriteria(facts, rules)
        const verdict = mayApply(
          criteria,
          latest === undefined ? null : { status: latest.status, decidedAt: latest.decided_at === null ? null : new Date(latest.decided_at) },
          rules,
          now,
        )
        if (verdict === "exists") {
          return yield* Effect.fail(
            new P2pRefused({ code: "merchant_application_exists", message: `The application is ${latest!.status.toLowerCase()} already` }),
          )
        }
        if (verdict === "cooldown") {
          const again = reapplyAt(new Date(latest!.decided_at!), rules)
          return yield* Effect.fail(new P2pRefused({ code: "merchant_cooldown", message: `A new application is possible from ${again.toISOString()}` }))
        }
        if (verdict === "criteria_not_met") {
          const missing = criteria.filter((c) => !c.met).map((c) => c.id)
          return yield* Effect.fail(new P2pRefused({ code: "merchant_criteria_not_met", message: `Not met yet: ${missing.join(", ")}`, fields: missing }))
        }
        const [row] = yield* sql.unsafe<ApplicationRow>(
          `insert into p2p_merchant_applications (user_id, status, facts, created_at) values ($1, 'PENDING', $2::jsonb, $3) returning ${COLUMNS}`,
          [userId, JSON.stringify(facts), new Date(now)],
        )
        yield* tell(userId, "applied", "", new Date(now))
        return statusView(facts, row, rules, now)
      }),
    )
  })

// --- support's decisions -------------------------------------------------------------------------

export const MERCHANT_DECISIONS = ["approve", "reject", "revoke"] as const
export type MerchantDecision = (typeof MERCHANT_DECISIONS)[number]

const MOVE: Record<MerchantDecision, { readonly from: MerchantApplicationStatus; readonly to: MerchantApplicationStatus }> = {
  approve: { from: "PENDING", to: "APPROVED" },
  reject: { from: "PENDING", to: "REJECTED" },
  revoke: { from: "APPROVED", to: "REVOKED" },
}

/** A decision refused: the application is not where the decision starts (someone decided first), or unknown. */
export class DecisionRefused {
  readonly _tag = "DecisionRefused"
  constructor(readonly message: string) {}
}

/**
 * One decision: the conditional update (from PENDING, or from APPROVED for a revocation), the audit
 * entry (`audit`, given the row before), and the user's bot message, in one transaction.
 */
export const decideApplication = (
  applicationId: number,
  decision: MerchantDecision,
  reason: string,
  actor: string,
  audit: (before: {
    readonly userId: number
    readonly status: MerchantApplicationStatus
    readonly reason: string | null
  }) => Effect.Effect<void, SqlError, SqlClient.SqlClient | ServerConfig>,
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const rules = yield* merchantRules
    const move = MOVE[decision]
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const before = yield* applicationById(applicationId, true)
        if (before === undefined) return yield* Effect.fail(new DecisionRefused(`No application #${applicationId}`))
        const now = new Date(config.now())
        const kept = decision === "approve" ? null : reason
        const moved = yield* sql<{ user_id: string }>`update p2p_merchant_applications
          set status = ${move.to}, reason = ${kept}, decided_by = ${actor}, decided_at = ${now}
          where id = ${applicationId} and status = ${move.from} returning user_id::text as user_id`
        if (moved.length === 0) {
          return yield* Effect.fail(new DecisionRefused(`Application #${applicationId} is ${before.status}, not ${move.from}: nothing changed`))
        }
        yield* audit({ userId: Number(before.user_id), status: before.status, reason: before.reason })
        const userId = Number(moved[0]!.user_id)
        yield* tell(userId, move.to === "APPROVED" ? "approved" : move.to === "REJECTED" ? "rejected" : "revoked", reason, reapplyAt(now, rules))
        return { userId, status: move.to }
      }),
    )
  })
