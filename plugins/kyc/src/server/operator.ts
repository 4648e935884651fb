/**
 * `/ops/kyc`: the support staff's verification page (decision 0910). It finds a user by id and
 * shows the status the mini-app reads, the active blocks and the last events. Its forms set the
 * level, block the user (full block) or restrict one permission (partial block), and lift a block.
 * Each change is one transaction with its operator audit entry; the page is English only (staff).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { ServerConfig } from "@wallet/kernel-server"
import { escapeHtml, hiddenField, operatorAudit, operatorPages, statusLines, type OperatorPageInput } from "@wallet/kernel-server/operator"
import { EVIDENCE_GROUPS, FULL_BLOCK_CODES, HELD_LEVELS, RESTRICTED_PERMISSIONS } from "../domain.ts"
import { applyStaffChange, isClientPermission, isFullBlockCode, isHeldLevel, type StaffChange } from "./changes.ts"
import { Outbox } from "@wallet/kernel-server/outbox"
import { decideEdd, EddChangeRefused, eddState, evidenceFile, isEvidenceGroup, requestEdd } from "./edd.ts"
import { KycPartner, type Decision, type KycPartnerShape } from "./partner.ts"
import { partnerReviewOf, verificationStatus } from "./store.ts"

export const KYC_OPERATOR_LABEL = "Verification"

const userIdOf = (raw: string | null): number | undefined => (raw !== null && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : undefined)

const options = (values: ReadonlyArray<string>, selected?: string) =>
  values.map((value) => `<option value="${value}"${value === selected ? " selected" : ""}>${value}</option>`).join("")

const userForms = (csrf: string, userId: number, bypass: boolean) => {
  const form = (action: string, label: string, fields: string) =>
    `<form class="inline" method="post" action="/ops/kyc/${action}">${hiddenField("csrf", csrf)}${hiddenField("user", userId)}${fields}<button type="submit">${label}</button></form>`
  return `<h2>Change</h2>
<p>${form("level", "Set level", `<label>Level <select name="level">${options(HELD_LEVELS)}</select></label> `)}</p>
<p>${form(
    "block",
    "Block the user",
    `<label>Code <select name="code">${options(FULL_BLOCK_CODES)}</select></label>
<label>User can unblock with CS_001 <input type="checkbox" name="requiredAction" value="CS_001"></label>
<label>Or by passing level <select name="requiredLevel"><option value="">—</option>${options(["LEVEL_2", "LEVEL_3"])}</select></label> `,
  )}</p>
<p>${form("bypass", "Save", `<label><input type="checkbox" name="bypass" value="1"${bypass ? " checked" : ""}> Let the user past the blocked screen</label> `)}</p>
<p>${form("partial", "Restrict", `<label>Permission <select name="permission">${options(RESTRICTED_PERMISSIONS)}</select></label> `)}</p>`
}

/** Reviews waiting for a decision, oldest first (the page without a user). */
/** Evidence waiting for a decision, oldest first. */
const eddQueue = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ user_id: unknown; groups: unknown; submitted_at: unknown }>`
    select user_id, groups, submitted_at from kyc_edd where status = 'submitted' order by submitted_at limit 50`
  if (rows.length === 0) return `<h2>Evidence waiting</h2>\n<p class="muted">No evidence waits for a decision</p>`
  const items = rows
    .map((row) => {
      const user = escapeHtml(String(row.user_id))
      const groups = typeof row.groups === "string" ? row.groups : JSON.stringify(row.groups)
      const at = row.submitted_at instanceof Date ? row.submitted_at.toISOString() : String(row.submitted_at)
      return `<tr data-edd-user="${user}"><td><a href="/ops/kyc?user=${user}">${user}</a></td><td>${escapeHtml(groups)}</td><td>${escapeHtml(at)}</td></tr>`
    })
    .join("\n")
  return `<h2>Evidence waiting</h2>\n<table><thead><tr><th scope="col">User</th><th scope="col">Groups</th><th scope="col">Sent</th></tr></thead><tbody>\n${items}\n</tbody></table>`
})

/** The user's EDD request, its files (for this operator only), and what staff can do with it now. */
const eddSection = (csrf: string, userId: number) =>
  Effect.gen(function* () {
    const { request } = yield* eddState(userId)
    const form = (action: string, label: string, fields: string) =>
      `<form method="post" action="/ops/kyc/${action}">${hiddenField("csrf", csrf)}${hiddenField("user", userId)}${fields}<button type="submit">${label}</button></form>`
    const ask = form(
      "edd-request",
      "Ask for evidence",
      `<fieldset><legend>Groups</legend>${EVIDENCE_GROUPS.map((group) => `<label><input type="checkbox" name="group" value="${group}"> ${group}</label>`).join(" ")}</fieldset>
<p><label><input type="checkbox" name="blocking" value="1"> Hold the account until accepted (nothing leaves it)</label></p>
<p><label>Message to the user <input name="note" maxlength="500" size="60"></label></p>`,
    )
    if (request === null) return `<h2>Evidence (EDD)</h2>\n<p class="muted">None asked for</p>\n${ask}`
    const files = request.groups
      .flatMap((group) =>
        group.kinds.flatMap((list) =>
          list.files.map((file) => {
            const href = `/ops/kyc/evidence?user=${userId}&amp;id=${file.id}`
            const preview = file.contentType.startsWith("image/")
              ? `<img src="${href}" alt="${escapeHtml(list.kind)}: ${escapeHtml(file.fileName)}" width="200">`
              : escapeHtml(file.fileName)
            return `<figure data-evidence="${escapeHtml(list.kind)}"><a href="${href}">${preview}</a><figcaption>${escapeHtml(group.group)} · ${escapeHtml(list.kind)} · ${escapeHtml(file.fileName)} · ${Math.ceil(file.size / 1024)} kB</figcaption></figure>`
          }),
        ),
      )
      .join("\n")
    const actions =
      request.status === "submitted"
        ? `${form("edd-decide", "Accept", hiddenField("decision", "approved"))}
${form("edd-decide", "Reject", `${hiddenField("decision", "rejected")}<label>Reason the user reads <input name="reason" maxlength="500" size="60"></label> `)}`
        : request.status === "approved" || request.status === "rejected"
          ? ask
          : `<p class="muted">Waiting for the user's files</p>`
    return `<h2>Evidence (EDD)</h2>
<table><tbody>
<tr><th scope="row">Status</th><td data-edd-status>${escapeHtml(request.status)}</td></tr>
<tr><th scope="row">Groups</th><td>${escapeHtml(request.groups.map((group) => group.group).join(", "))}</td></tr>
<tr><th scope="row">Account held</th><td>${request.blocking ? "yes" : "no"}</td></tr>
<tr><th scope="row">Message</th><td>${escapeHtml(request.note ?? "—")}</td></tr>
</tbody></table>
${files === "" ? `<p class="muted">No files</p>` : `<div class="documents">${files}</div>`}
${actions}`
  })

const reviewQueue = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ user_id: unknown; level: string; review_status: string; updated_at: unknown }>`
    select user_id, level, review_status, updated_at from kyc_applicants where review_status in ('pending', 'onHold') order by updated_at limit 50`
  if (rows.length === 0) return `<h2>Waiting for review</h2>\n<p class="muted">No documents wait for a review</p>`
  const items = rows
    .map(
      (row) =>
        `<tr data-review-user="${escapeHtml(String(row.user_id))}"><td><a href="/ops/kyc?user=${escapeHtml(String(row.user_id))}">${escapeHtml(String(row.user_id))}</a></td><td>${escapeHtml(row.level)}</td><td>${escapeHtml(row.review_status)}</td><td>${escapeHtml(row.updated_at instanceof Date ? row.updated_at.toISOString() : String(row.updated_at))}</td></tr>`,
    )
    .join("\n")
  return `<h2>Waiting for review</h2>\n<table><thead><tr><th scope="col">User</th><th scope="col">Level</th><th scope="col">Status</th><th scope="col">Since</th></tr></thead><tbody>\n${items}\n</tbody></table>`
})

/** The reject reasons an operator picks from (the partner's labels; the app explains each). */
export const REJECT_LABELS = [
  "BAD_PROOF_OF_IDENTITY",
  "BAD_SELFIE",
  "DOCUMENT_EXPIRED",
  "SCREENSHOTS",
  "UNSATISFACTORY_PHOTOS",
  "DIFFERENT_DOCS",
  "FORGERY",
] as const

/** The partner's applicant of the user: its review (as the wallet knows it), documents, and the decision forms (sandbox). */
const partnerSection = (partner: KycPartnerShape, csrf: string, userId: number) =>
  Effect.gen(function* () {
    if (!partner.configured) return `<h2>Documents</h2>\n<p class="muted">No verification partner is configured</p>`
    const review = yield* partnerReviewOf(userId)
    const applicant = yield* partner.applicantOf(userId)
    if (applicant === null) return `<h2>Documents</h2>\n<p class="muted">The user has not opened the partner's check</p>`
    const files = yield* partner.files(applicant.id)
    const atPartner = (yield* partner.reviewStatus(applicant.id)).reviewStatus
    const fileItems = files
      .map(
        (file) =>
          `<figure data-document="${escapeHtml(file.idDocDef.idDocType)}"><a href="/ops/kyc/document?user=${userId}&amp;image=${encodeURIComponent(file.id)}"><img src="/ops/kyc/document?user=${userId}&amp;image=${encodeURIComponent(file.id)}" alt="${escapeHtml(file.idDocDef.idDocType)} of user ${userId}" width="240"></a><figcaption>${escapeHtml(file.idDocDef.idDocType)}${file.idDocDef.country ? ` (${escapeHtml(file.idDocDef.country)})` : ""} · ${escapeHtml(file.fileMetadata.fileName)} · ${Math.ceil(file.fileMetadata.fileSize / 1024)} kB</figcaption></figure>`,
      )
      .join("\n")
    // The partner's status decides (the wallet learns it from webhooks, which may come late).
    const inReview = atPartner === "pending" || atPartner === "onHold"
    const form = (decision: string, label: string, fields: string) =>
      `<form method="post" action="/ops/kyc/review">${hiddenField("csrf", csrf)}${hiddenField("user", userId)}${hiddenField("decision", decision)}${fields}<button type="submit">${label}</button></form>`
    const reasons = `<fieldset><legend>Reasons</legend>${REJECT_LABELS.map((label) => `<label><input type="checkbox" name="label" value="${label}"> ${label}</label>`).join(" ")}</fieldset>
<p><label>Message to the user <input name="comment" maxlength="500" size="60"></label></p>
<p><label>Note for staff <input name="note" maxlength="500" size="60"></label></p>`
    const decisions = !inReview
      ? `<p class="muted">Nothing to decide: ${atPartner === "init" ? "the documents were not sent yet" : `the review is ${escapeHtml(atPartner)}`}</p>`
      : partner.sandbox
        ? `<h3>Decide</h3>\n${form("approve", "Approve", "")}\n<h3>Reject</h3>\n${form("retry", "Ask to send again", reasons.replaceAll("<fieldset>", '<fieldset data-form="retry">'))}\n${form("final", "Decline for good", reasons.replaceAll("<fieldset>", '<fieldset data-form="final">'))}`
        : `<p class="muted">Reviews are decided in the partner's dashboard</p>`
    return `<h2>Documents</h2>
<table><tbody>
<tr><th scope="row">Applicant</th><td>${escapeHtml(applicant.id)}</td></tr>
<tr><th scope="row">At the partner</th><td data-partner-review>${escapeHtml(atPartner)}</td></tr>
<tr><th scope="row">Known to the wallet</th><td data-review>${review === null ? "—" : `${escapeHtml(review.level)} ${escapeHtml(review.reviewStatus)}${review.answer ? ` ${escapeHtml(review.answer)}` : ""}${review.rejectType ? ` ${escapeHtml(review.rejectType)}` : ""}`}</td></tr>
</tbody></table>
${files.length === 0 ? `<p class="muted">No documents uploaded</p>` : `<div class="documents">${fileItems}</div>`}
${decisions}`
  }).pipe(
    Effect.catchTag("PartnerUnavailable", (error) =>
      Effect.succeed(`<h2>Documents</h2>\n<p class="error" role="alert">The partner cannot be reached: ${escapeHtml(error.message)}</p>`),
    ),
  )

const render =
  (partner: KycPartnerShape) =>
  ({ session, query, document }: OperatorPageInput) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const userId = userIdOf(query.get("user"))
      const find = `<form method="get" action="/ops/kyc"><label for="user">Telegram user id</label> <input id="user" name="user" inputmode="numeric" value="${userId ?? ""}"> <button type="submit">Find</button></form>`
      if (userId === undefined)
        return document("Verification", `<h1>Verification</h1>\n${statusLines(query, escapeHtml)}\n${find}\n${yield* reviewQueue}\n${yield* eddQueue}`)
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
${yield* partnerSection(partner, session.csrf, userId)}
${yield* eddSection(session.csrf, userId)}
${userForms(session.csrf, userId, status.bypassBlockedScreen)}
<h2>Last events</h2>
${events.length === 0 ? `<p class="muted">None</p>` : `<table><thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead><tbody>\n${eventRows}\n</tbody></table>`}`,
      )
    }).pipe(Effect.orDie)

/** Applies a staff change read from a form, answering the notice or the reason it was refused. */
/** An EDD change from a form: the user from the form, the notice, or the reason it was refused on the page. */
const eddAction =
  (
    path: string,
    run: (
      userId: number,
      form: URLSearchParams,
      actor: string,
    ) => Effect.Effect<string, EddChangeRefused | SqlError, SqlClient.SqlClient | ServerConfig | Outbox>,
  ) =>
  (outbox: Outbox["Service"]) => ({
    path,
    page: "",
    apply: ({ form, actor }: { readonly form: URLSearchParams; readonly actor: string }) =>
      Effect.gen(function* () {
        const userId = userIdOf(form.get("user"))
        if (userId === undefined) return yield* Effect.fail({ message: "The user id is a number", back: "" })
        const back = `user=${userId}`
        const notice = yield* run(userId, form, actor).pipe(
          Effect.provideService(Outbox, outbox),
          Effect.catchTag("EddChangeRefused", (refused) => Effect.fail({ message: refused.message, back })),
          Effect.catchTag("SqlError", (error) => Effect.die(error)),
        )
        return { notice: `User ${userId}: ${notice}`, back }
      }),
  })

const eddRequestAction = eddAction("/edd-request", (userId, form, actor) => {
  const groups = form.getAll("group").filter(isEvidenceGroup)
  return requestEdd(userId, groups, form.get("blocking") === "1", (form.get("note") ?? "").trim().slice(0, 500), actor).pipe(
    Effect.as(`evidence asked for (${groups.join(", ")})`),
  )
})

const eddDecideAction = eddAction("/edd-decide", (userId, form, actor) => {
  const decision = form.get("decision") === "approved" ? "approved" : form.get("decision") === "rejected" ? "rejected" : undefined
  if (decision === undefined) return Effect.fail(new EddChangeRefused("Choose a decision"))
  return decideEdd(userId, decision, (form.get("reason") ?? "").slice(0, 500), actor).pipe(
    Effect.as(`evidence ${decision === "approved" ? "accepted" : "rejected"}`),
  )
})

/** An evidence file of the user, for the signed-in operator. */
const evidenceFileServed = {
  path: "/evidence",
  serve: ({ query }: { readonly query: URLSearchParams }) =>
    Effect.gen(function* () {
      const userId = userIdOf(query.get("user"))
      const id = Number(query.get("id"))
      if (userId === undefined || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) return yield* Effect.fail({ message: "No such file" })
      const file = yield* evidenceFile(userId, id).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))
      if (file === undefined) return yield* Effect.fail({ message: "No such file" })
      return file
    }),
}

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

const reviewDecision = (form: URLSearchParams): Decision | string => {
  const decision = form.get("decision")
  if (decision === "approve") return { reviewAnswer: "GREEN" }
  if (decision !== "retry" && decision !== "final") return "Choose a decision"
  const labels = form.getAll("label").filter((label): label is (typeof REJECT_LABELS)[number] => (REJECT_LABELS as ReadonlyArray<string>).includes(label))
  if (labels.length === 0) return "Choose at least one reason"
  return {
    reviewAnswer: "RED",
    reviewRejectType: decision === "retry" ? "RETRY" : "FINAL",
    rejectLabels: labels,
    moderationComment: (form.get("comment") ?? "").trim().slice(0, 500),
    clientComment: (form.get("note") ?? "").trim().slice(0, 500),
  }
}

/**
 * The sandbox partner's review, decided here (the real partner's staff decide in its dashboard):
 * the decision goes to the partner, which answers with its signed webhook like any review. The audit
 * entry records who decided what.
 */
const reviewAction = (partner: KycPartnerShape) => ({
  path: "/review",
  page: "",
  apply: ({ form, actor }: { readonly form: URLSearchParams; readonly actor: string }) =>
    Effect.gen(function* () {
      const userId = userIdOf(form.get("user"))
      if (userId === undefined) return yield* Effect.fail({ message: "The user id is a number", back: "" })
      const back = `user=${userId}`
      const decision = reviewDecision(form)
      if (typeof decision === "string") return yield* Effect.fail({ message: decision, back })
      const applicant = yield* partner.applicantOf(userId).pipe(Effect.mapError((error) => ({ message: error.message, back })))
      if (applicant === null) return yield* Effect.fail({ message: "The user has no applicant at the partner", back })
      yield* partner.decide(applicant.id, decision).pipe(Effect.mapError((error) => ({ message: `The partner refused: ${error.message}`, back })))
      yield* operatorAudit(actor, "kyc.review", `user ${userId}`, { applicantId: applicant.id }, decision).pipe(Effect.orDie)
      return {
        notice: `User ${userId}: ${decision.reviewAnswer === "GREEN" ? "approved" : decision.reviewRejectType === "RETRY" ? "asked to send again" : "declined"}; the partner's webhook follows`,
        back,
      }
    }),
})

/** A document image of the user's applicant, fetched from the partner for the operator only. */
const documentFile = (partner: KycPartnerShape) => ({
  path: "/document",
  serve: ({ query }: { readonly query: URLSearchParams }) =>
    Effect.gen(function* () {
      const missing = { message: "No such document" }
      const unreachable = (error: { readonly message: string }) => ({ message: `The partner cannot be reached: ${error.message}` })
      const userId = userIdOf(query.get("user"))
      const image = query.get("image") ?? ""
      if (userId === undefined || !/^[\w-]{1,64}$/.test(image)) return yield* Effect.fail(missing)
      const applicant = yield* partner.applicantOf(userId).pipe(Effect.mapError(unreachable))
      if (applicant === null) return yield* Effect.fail(missing)
      // Only a file of this user's applicant: the image id alone is not trusted.
      const files = yield* partner.files(applicant.id).pipe(Effect.mapError(unreachable))
      if (!files.some((file) => file.id === image)) return yield* Effect.fail(missing)
      return yield* partner.file(applicant.inspectionId, image).pipe(Effect.mapError(unreachable))
    }),
})

export const kycOperatorPages = Layer.unwrap(
  Effect.gen(function* () {
    const partner = yield* KycPartner
    const outbox = yield* Outbox
    return operatorPages(
      { id: "kyc", label: KYC_OPERATOR_LABEL },
      {
        pages: [{ path: "", render: render(partner) }],
        files: [documentFile(partner), evidenceFileServed],
        actions: [
          reviewAction(partner),
          eddRequestAction(outbox),
          eddDecideAction(outbox),
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
          staffAction("/bypass", (form) => ({ kind: "bypass", bypass: form.get("bypass") === "1" })),
          staffAction("/lift", (form) => {
            const blockId = Number(form.get("block"))
            // Block ids are 32-bit (serial): a larger number is no block, not a database error.
            return Number.isInteger(blockId) && blockId > 0 && blockId <= 2_147_483_647 ? { kind: "lift", blockId } : "Choose a block to lift"
          }),
        ],
      },
    )
  }),
)
