/**
 * `/ops/kyc`: the support staff's verification page (decision 0910). It finds a user by id and
 * shows the status the mini-app reads, the active blocks and the last events. Its forms set the
 * level, block the user (full block) or restrict one permission (partial block), and lift a block.
 * Each change is one transaction with its operator audit entry; the page is English only (staff).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { escapeHtml, hiddenField, operatorPages, statusLines, type OperatorPageInput } from "@wallet/kernel-server/operator"
import { FULL_BLOCK_CODES, HELD_LEVELS, RESTRICTED_PERMISSIONS } from "../domain.ts"
import { applyStaffChange, isClientPermission, isFullBlockCode, isHeldLevel, type StaffChange } from "./changes.ts"
import { verificationStatus } from "./store.ts"

export const KYC_OPERATOR_LABEL = "Verification"

const userIdOf = (raw: string | null): number | undefined => (raw !== null && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : undefined)

const options = (values: ReadonlyArray<string>, selected?: string) =>
  values.map((value) => `<option value="${value}"${value === selected ? " selected" : ""}>${value}</option>`).join("")

const userForms = (csrf: string, userId: number) => {
  const form = (action: string, label: string, fields: string) =>
    `<form class="inline" method="post" action="/ops/kyc/${action}">${hiddenField("csrf", csrf)}${hiddenField("user", userId)}${fields}<button type="submit">${label}</button></form>`
  return `<h2>Change</h2>
<p>${form("level", "Set level", `<label>Level <select name="level">${options(HELD_LEVELS)}</select></label> `)}</p>
<p>${form(
    "block",
    "Block the user",
    `<label>Code <select name="code">${options(FULL_BLOCK_CODES)}</select></label>
<label>User can unblock with CS_001 <input type="checkbox" name="requiredAction" value="CS_001"></label>
<label>Or by passing level <select name="requiredLevel"><option value="">—</option>${options(HELD_LEVELS.filter((level) => level !== "LEVEL_0"))}</select></label> `,
  )}</p>
<p>${form("partial", "Restrict", `<label>Permission <select name="permission">${options(RESTRICTED_PERMISSIONS)}</select></label> `)}</p>`
}

const render = ({ session, query, document }: OperatorPageInput) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const userId = userIdOf(query.get("user"))
    const find = `<form method="get" action="/ops/kyc"><label for="user">Telegram user id</label> <input id="user" name="user" inputmode="numeric" value="${userId ?? ""}"> <button type="submit">Find</button></form>`
    if (userId === undefined) return document("Verification", `<h1>Verification</h1>\n${statusLines(query, escapeHtml)}\n${find}`)
    const exists = yield* sql`select 1 from kernel_users where id = ${userId}`
    if (exists.length === 0) return document("Verification", `<h1>Verification</h1>\n<p class="error" role="alert">No user ${userId}</p>\n${find}`)
    const status = yield* verificationStatus(userId)
    const blocks = yield* sql<{
      id: number
      kind: string
      code: string
      permission: string | null
      required_action: string | null
      required_level: string | null
      created_at: unknown
    }>`
      select id, kind, code, permission, required_action, required_level, created_at from kyc_blocks where user_id = ${userId} and lifted_at is null order by id`
    const events = yield* sql<{
      kind: string
      detail: unknown
      at: unknown
    }>`select kind, detail, at from kyc_events where user_id = ${userId} order by id desc limit 20`
    const blockRows = blocks
      .map(
        (
          block,
        ) => `<tr data-block="${block.id}"><td>${escapeHtml(block.kind)}</td><td>${escapeHtml(block.code)}</td><td>${escapeHtml(block.permission ?? "")}</td>
<td>${escapeHtml(block.required_action ?? (block.required_level ? `PASS_KYC ${block.required_level}` : ""))}</td>
<td><form class="inline" method="post" action="/ops/kyc/lift">${hiddenField("csrf", session.csrf)}${hiddenField("user", userId)}${hiddenField("block", block.id)}<button type="submit" aria-label="Lift block ${block.id}">Lift</button></form></td></tr>`,
      )
      .join("\n")
    const eventRows = events
      .map(
        (event) =>
          `<tr><td>${escapeHtml(String(event.at instanceof Date ? event.at.toISOString() : event.at))}</td><td>${escapeHtml(event.kind)}</td><td><pre>${escapeHtml(typeof event.detail === "string" ? event.detail : JSON.stringify(event.detail))}</pre></td></tr>`,
      )
      .join("\n")
    return document(
      `Verification of user ${userId}`,
      `<h1>Verification of user ${userId}</h1>
${statusLines(query, escapeHtml)}
${find}
<table><tbody>
<tr><th scope="row">Level</th><td data-level>${escapeHtml(status.level)}</td></tr>
<tr><th scope="row">Level 1</th><td>${escapeHtml(status.level1Status)}</td></tr>
<tr><th scope="row">Phone</th><td>${escapeHtml(status.phoneMasked ?? "—")}</td></tr>
<tr><th scope="row">Residence</th><td>${escapeHtml(status.residenceCountryAlpha2 ?? "—")}</td></tr>
<tr><th scope="row">Closed permissions</th><td data-closed>${escapeHtml(status.blockedPermissions.join(", ") || "none")}</td></tr>
<tr><th scope="row">Consents</th><td>${escapeHtml(status.entityInfo.consents.join(", ") || "none")}</td></tr>
</tbody></table>
<h2>Active blocks</h2>
${blocks.length === 0 ? `<p class="muted">None</p>` : `<table><thead><tr><th scope="col">Kind</th><th scope="col">Code</th><th scope="col">Permission</th><th scope="col">Lifted by</th><th scope="col"></th></tr></thead><tbody>\n${blockRows}\n</tbody></table>`}
${userForms(session.csrf, userId)}
<h2>Last events</h2>
${events.length === 0 ? `<p class="muted">None</p>` : `<table><thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead><tbody>\n${eventRows}\n</tbody></table>`}`,
    )
  }).pipe(Effect.orDie)

/** Applies a staff change read from a form, answering the notice or the reason it was refused. */
const staffAction = (path: string, read: (form: URLSearchParams) => StaffChange | string) => ({
  path,
  page: "",
  apply: ({ form, actor }: { readonly form: URLSearchParams; readonly actor: string }) => {
    const userId = userIdOf(form.get("user"))
    if (userId === undefined) return Effect.fail({ message: "The user id is a number", back: "" })
    const back = `user=${userId}`
    const change = read(form)
    if (typeof change === "string") return Effect.fail({ message: change, back })
    return applyStaffChange(userId, change, actor).pipe(
      Effect.map((status) => ({ notice: `User ${userId}: ${change.kind} applied; level ${status.level}`, back })),
      Effect.catchTag("KycChangeRefused", (refused) => Effect.fail({ message: refused.message, back })),
      Effect.catchTag("SqlError", (error) => Effect.die(error)),
    )
  },
})

export const kycOperatorPages = operatorPages(
  { id: "kyc", label: KYC_OPERATOR_LABEL },
  {
    pages: [{ path: "", render }],
    actions: [
      staffAction("/level", (form) => {
        const level = form.get("level")
        return isHeldLevel(level) ? { kind: "level", level } : "Choose a level"
      }),
      staffAction("/block", (form) => {
        const code = form.get("code")
        const requiredLevel = form.get("requiredLevel") || null
        if (!isFullBlockCode(code)) return "Choose a block code"
        if (requiredLevel !== null && !isHeldLevel(requiredLevel)) return "Choose a level to pass"
        return { kind: "block", code, requiredAction: form.get("requiredAction") === "CS_001" ? "CS_001" : null, requiredLevel }
      }),
      staffAction("/partial", (form) => {
        const permission = form.get("permission")
        return isClientPermission(permission) ? { kind: "partial", permission } : "Choose a permission"
      }),
      staffAction("/lift", (form) => {
        const blockId = Number(form.get("block"))
        // Block ids are 32-bit (serial): a larger number is no block, not a database error.
        return Number.isInteger(blockId) && blockId > 0 && blockId <= 2_147_483_647 ? { kind: "lift", blockId } : "Choose a block to lift"
      }),
    ],
  },
)
