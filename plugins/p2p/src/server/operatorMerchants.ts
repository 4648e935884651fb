/**
 * `/ops/p2p/merchants`: support's trusted-merchant page (issue 21). The queue of pending applications,
 * oldest first, each with the figures the user applied with and their figures now; approve, or reject
 * with a reason the user reads; the approved merchants with revoke (a reason too); the latest
 * decisions. Each decision is one transaction: the application's conditional update, the operator
 * audit entry and the user's bot message (`decideApplication`). English only (staff).
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig, VerificationLimits } from "@wallet/kernel-server"
import { escapeHtml, hiddenField, operatorAudit, operatorPages, statusLines, type OperatorPageInput } from "@wallet/kernel-server/operator"
import { Outbox } from "@wallet/kernel-server/outbox"
import { MAX_MERCHANT_REASON, accountAgeDays, levelNumber, recentStats, type MerchantFacts } from "../merchantRules.ts"
import { decideApplication, factsJson, merchantRules, MERCHANT_DECISIONS, type ApplicationRow, type MerchantDecision } from "./merchants.ts"
import { P2P_OPERATOR_LABEL } from "./operator.ts"
import { nameOf, statsOf } from "./people.ts"

const PAGE = "/merchants"
const when = (value: unknown) => (value instanceof Date ? value.toISOString().replace("T", " ").slice(0, 19) : "—")
const idOf = (raw: string | null): number | undefined => (raw !== null && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : undefined)

interface Row extends ApplicationRow {
  first_name: string | null
  last_name: string | null
  user_created_at: Date | null
}

const rowsOf = (where: string, order: string, limit: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.unsafe<Row>(
      `select a.id::text as id, a.user_id::text as user_id, a.status, a.facts, a.reason, a.decided_by, a.created_at, a.decided_at,
         u.first_name, u.last_name, u.created_at as user_created_at
       from p2p_merchant_applications a left join kernel_users u on u.id = a.user_id where ${where} order by ${order} limit ${limit}`,
    )
  })

const figures = (facts: Partial<MerchantFacts>) =>
  `level ${facts.level ?? "—"} · ${facts.completedOrders30d ?? 0} orders in 30 days · rate ${facts.completionRatePercent === null || facts.completionRatePercent === undefined ? "—" : `${facts.completionRatePercent} %`} · ${facts.accountAgeDays ?? 0} days old`

const who = (row: Row) =>
  `${escapeHtml(row.first_name === null ? row.user_id : nameOf({ first_name: row.first_name, last_name: row.last_name }))} <span class="muted">(user ${escapeHtml(row.user_id)})</span>`

const reasonField = (id: string, label: string) =>
  `<label for="${id}">${label}</label> <input id="${id}" name="reason" required maxlength="${MAX_MERCHANT_REASON}" size="32">`

const render =
  (levelOf: (userId: number) => Effect.Effect<number | null>) =>
  ({ session, query, document }: OperatorPageInput) =>
    Effect.gen(function* () {
      const rules = yield* merchantRules
      const config = yield* ServerConfig
      const pending = yield* rowsOf(`a.status = 'PENDING'`, "a.id", 100)
      const approved = yield* rowsOf(`a.status = 'APPROVED'`, "a.decided_at desc", 200)
      const decided = yield* rowsOf(`a.status in ('REJECTED', 'REVOKED')`, "a.decided_at desc", 20)
      const stats = yield* statsOf(pending.map((row) => Number(row.user_id)))
      const csrf = session.csrf
      const queue =
        pending.length === 0
          ? `<p class="muted" id="merchant-queue-empty">No application waits for a decision</p>`
          : `<table id="merchant-queue"><thead><tr><th scope="col">Applicant</th><th scope="col">Applied</th><th scope="col">Figures when applying</th><th scope="col">Figures now</th><th scope="col">Decision</th></tr></thead><tbody>
${(yield* Effect.forEach(pending, (row) =>
  Effect.gen(function* () {
    const userId = Number(row.user_id)
    const recent = recentStats(stats.get(userId) ?? { completedOrders: 0, completionRate: null })
    const now: Partial<MerchantFacts> = {
      level: yield* levelOf(userId),
      ...recent,
      accountAgeDays: row.user_created_at === null ? 0 : accountAgeDays(new Date(row.user_created_at), config.now()),
    }
    const id = escapeHtml(row.id)
    return `<tr data-merchant-application="${id}" data-user="${escapeHtml(row.user_id)}"><td>${who(row)}</td><td>${when(row.created_at)}</td><td>${escapeHtml(figures(factsJson(row.facts)))}</td><td>${escapeHtml(figures(now))}</td>
<td><form class="inline" method="post" action="/ops/p2p${PAGE}/approve">${hiddenField("csrf", csrf)}${hiddenField("application", row.id)}<button type="submit" aria-label="Approve application ${id}">Approve</button></form>
<form class="inline" method="post" action="/ops/p2p${PAGE}/reject">${hiddenField("csrf", csrf)}${hiddenField("application", row.id)}${reasonField(`reject-${id}`, `Reason to reject #${id}`)} <button type="submit" aria-label="Reject application ${id}">Reject</button></form></td></tr>`
  }),
)).join("\n")}
</tbody></table>`
      const merchants =
        approved.length === 0
          ? `<p class="muted">No trusted merchants yet</p>`
          : `<table id="merchant-approved"><thead><tr><th scope="col">Merchant</th><th scope="col">Approved</th><th scope="col">By</th><th scope="col">Revoke</th></tr></thead><tbody>
${approved
  .map((row) => {
    const id = escapeHtml(row.id)
    return `<tr data-merchant-approved="${id}" data-user="${escapeHtml(row.user_id)}"><td>${who(row)}</td><td>${when(row.decided_at)}</td><td>${escapeHtml(row.decided_by ?? "—")}</td>
<td><form class="inline" method="post" action="/ops/p2p${PAGE}/revoke">${hiddenField("csrf", csrf)}${hiddenField("application", row.id)}${reasonField(`revoke-${id}`, `Reason to revoke #${id}`)} <button type="submit" aria-label="Revoke the badge of application ${id}">Revoke</button></form></td></tr>`
  })
  .join("\n")}
</tbody></table>`
      const history =
        decided.length === 0
          ? `<p class="muted">No rejections or revocations yet</p>`
          : `<table id="merchant-decided"><thead><tr><th scope="col">User</th><th scope="col">Outcome</th><th scope="col">Reason</th><th scope="col">When</th><th scope="col">By</th></tr></thead><tbody>
${decided
  .map(
    (row) =>
      `<tr data-merchant-decided="${escapeHtml(row.id)}"><td>${who(row)}</td><td>${escapeHtml(row.status)}</td><td>${escapeHtml(row.reason ?? "")}</td><td>${when(row.decided_at)}</td><td>${escapeHtml(row.decided_by ?? "—")}</td></tr>`,
  )
  .join("\n")}
</tbody></table>`
      const criteria = `<p class="muted">Criteria: verification level ${rules.minLevel} or higher, ${rules.minCompletedOrders30d} completed orders in 30 days, a completion rate of ${rules.minCompletionRatePercent} % or more, an account ${rules.minAccountAgeDays} days old. After a rejection or a revocation the user may apply again in ${rules.reapplyCooldownDays} days. The user reads the reason in the app and in a bot message.</p>`
      return document(
        "Trusted merchants",
        `<h1>Trusted merchants</h1>\n${statusLines(query, escapeHtml)}\n<p><a href="/ops/p2p">P2P appeals</a></p>\n${criteria}\n<h2>Applications waiting</h2>\n${queue}\n<h2>Trusted merchants</h2>\n${merchants}\n<h2>Latest rejections and revocations</h2>\n${history}`,
      )
    }).pipe(Effect.orDie)

const NOTICE: Record<MerchantDecision, string> = { approve: "approved", reject: "rejected", revoke: "revoked" }

export const p2pMerchantOperatorPages = Layer.unwrap(
  Effect.gen(function* () {
    const outbox = yield* Outbox
    const limits = Option.getOrElse(yield* Effect.serviceOption(VerificationLimits), () => VerificationLimits.none)
    const levelOf = (userId: number) => Effect.map(limits.allowance(userId, "p2p"), (allowance) => levelNumber(allowance.level))
    return operatorPages(
      { id: "p2p", label: P2P_OPERATOR_LABEL },
      {
        pages: [{ path: PAGE, render: render(levelOf) }],
        actions: MERCHANT_DECISIONS.map((decision) => ({
          path: `${PAGE}/${decision}`,
          page: PAGE,
          apply: ({ form, actor }) =>
            Effect.gen(function* () {
              const applicationId = idOf(form.get("application"))
              if (applicationId === undefined) return yield* Effect.fail({ message: "The application id is a number", back: "" })
              const reason = (form.get("reason") ?? "").trim().slice(0, MAX_MERCHANT_REASON)
              if (decision !== "approve" && reason === "")
                return yield* Effect.fail({ message: `A ${decision === "reject" ? "rejection" : "revocation"} needs a reason the user reads`, back: "" })
              const done = yield* decideApplication(applicationId, decision, reason, actor, (before) =>
                operatorAudit(actor, `p2p.merchant.${decision}`, `user ${before.userId}, application ${applicationId}`, before, {
                  status: NOTICE[decision].toUpperCase(),
                  reason: decision === "approve" ? null : reason,
                }),
              ).pipe(
                Effect.provideService(Outbox, outbox),
                Effect.catch((error: unknown) =>
                  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "DecisionRefused"
                    ? Effect.fail({ message: (error as { message: string }).message, back: "" })
                    : Effect.die(error),
                ),
              )
              return { notice: `Application #${applicationId} (user ${done.userId}) ${NOTICE[decision]}; the user is told`, back: "" }
            }),
        })),
      },
    )
  }),
)
