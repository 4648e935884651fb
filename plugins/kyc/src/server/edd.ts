/**
 * Enhanced due diligence (issue 19, decision 0940). Staff ask a user for evidence in some groups (source
 * of wealth, of funds, …), optionally holding the account meanwhile (EDD-blocked: nothing leaves it);
 * the user uploads files per attachment list and submits; staff accept or reject with a reason. Files
 * live in the kernel's `FileStore` under keys no one can guess, and are served to no one but their owner's
 * operator page (`/ops/kyc/evidence`). Every change of the request is one conditional update on its
 * version, with the permissions it gives and its event, in one transaction.
 */
import { randomUUID } from "node:crypto"
import { Effect, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { FileStore, readUpTo, ServerConfig, sniffFileType } from "@wallet/kernel-server"
import { operatorAudit } from "@wallet/kernel-server/operator"
import { Outbox } from "@wallet/kernel-server/outbox"
import { KycEvidenceRefused, type EddState, type EvidenceFile } from "../api.ts"
import {
  EVIDENCE_GROUPS,
  EVIDENCE_KINDS,
  GROUP_KINDS,
  MAX_EVIDENCE_BYTES,
  MAX_FILES_PER_KIND,
  type EddStatus,
  type EvidenceGroup,
  type EvidenceKind,
} from "../domain.ts"
import { botLanguageOf, currentStatus, eddRowOf, ensureRow, storePermissions } from "./store.ts"

const refuse = (code: KycEvidenceRefused["code"], message: string) => Effect.fail(new KycEvidenceRefused({ code, message }))

type EddRow = NonNullable<Effect.Success<ReturnType<typeof eddRowOf>>>

const eddRow = eddRowOf

const filesOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: unknown; grp: string; kind: string; file_name: string; content_type: string; size: unknown }>`
      select id, grp, kind, file_name, content_type, size from kyc_evidence where user_id = ${userId} and removed_at is null order by id`
    return rows.map((row) => ({
      group: row.grp,
      file: {
        id: Number(row.id),
        kind: row.kind as EvidenceKind,
        fileName: row.file_name,
        contentType: row.content_type,
        size: Number(row.size),
      } satisfies EvidenceFile,
    }))
  })

/** `GET /api/kyc/edd`: the request and the files per group and list. */
export const eddState = (userId: number) =>
  Effect.gen(function* () {
    const row = yield* eddRow(userId)
    if (row === undefined) return { request: null } satisfies EddState
    const files = yield* filesOf(userId)
    return {
      request: {
        status: row.status,
        blocking: row.blocking,
        note: row.note,
        reason: row.reason,
        groups: row.groups.map((group) => ({
          group,
          kinds: GROUP_KINDS[group].map((kind) => ({
            kind,
            files: files.filter((item) => item.group === group && item.file.kind === kind).map((item) => item.file),
          })),
        })),
      },
    } satisfies EddState
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

const open = (row: EddRow | undefined): row is EddRow => row !== undefined && (row.status === "requested" || row.status === "rejected")

/**
 * Stores one evidence file: the request must be open and ask for the group, the list must belong to
 * the group and have room, and the bytes must be a JPEG, PNG, WebP or PDF of at most 10 MB. The file
 * is written before its row; a row that cannot be written leaves an unreferenced file, never a row
 * without its file.
 */
export const uploadEvidence = (userId: number, group: EvidenceGroup, kind: EvidenceKind, name: string, body: Stream.Stream<Uint8Array, unknown>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const files = yield* FileStore
    const row = yield* eddRow(userId)
    if (!open(row)) return yield* refuse("edd_not_open", "no evidence is asked for now")
    if (!row.groups.includes(group)) return yield* refuse("group_not_requested", `the ${group} group is not asked for`)
    if (!GROUP_KINDS[group].includes(kind)) return yield* refuse("kind_not_in_group", `${kind} is not a list of the ${group} group`)
    // The framework's own cap (the endpoint's maxBytes) ends the stream early: that is too large too.
    const bytes = yield* readUpTo(body, MAX_EVIDENCE_BYTES)
    if (bytes === undefined) return yield* refuse("file_too_large", "a file is at most 10 MB")
    const type = sniffFileType(bytes)
    if (bytes.byteLength === 0 || type === undefined) return yield* refuse("file_invalid", "send a JPEG, PNG or WebP photo, or a PDF")
    const counted = yield* sql<{ n: unknown }>`
      select count(*)::int as n from kyc_evidence where user_id = ${userId} and grp = ${group} and kind = ${kind} and removed_at is null`
    if (Number(counted[0]?.n ?? 0) >= MAX_FILES_PER_KIND) return yield* refuse("too_many_files", `a list holds at most ${MAX_FILES_PER_KIND} files`)
    const key = `kyc/evidence/${userId}/${randomUUID()}`
    const stored = yield* files.put(key, bytes, type).pipe(Effect.orDie)
    yield* sql`insert into kyc_evidence (user_id, grp, kind, file_key, file_name, content_type, size, sha256, created_at)
      values (${userId}, ${group}, ${kind}, ${key}, ${name.trim()}, ${type}, ${stored.size}, ${stored.sha256}, ${new Date(config.now())})`
    return yield* eddState(userId)
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

/** Removes one of the user's files while the request is open (the stored file goes too). */
export const removeEvidence = (userId: number, id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const files = yield* FileStore
    if (!open(yield* eddRow(userId))) return yield* refuse("edd_not_open", "the evidence cannot change now")
    const removed = yield* sql<{ file_key: string }>`
      update kyc_evidence set removed_at = ${new Date(config.now())} where id = ${id} and user_id = ${userId} and removed_at is null returning file_key`
    if (removed[0] === undefined) return yield* refuse("no_such_file", "no such file")
    yield* files.remove(removed[0].file_key).pipe(Effect.orDie)
    return yield* eddState(userId)
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

/**
 * One change of the request, in one transaction: the row moved from one of `from` on the version
 * read, the permissions the new status gives written to the user, the event recorded.
 */
const moveRequest = (userId: number, from: ReadonlyArray<EddStatus>, kind: string, set: (now: Date) => Effect.Effect<unknown, SqlError, SqlClient.SqlClient>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const now = new Date(config.now())
        const row = yield* eddRow(userId)
        if (row === undefined || !from.includes(row.status)) return false
        const taken = yield* sql`update kyc_edd set version = version + 1 where user_id = ${userId} and version = ${row.version} returning user_id`
        if (taken.length === 0) return false
        yield* set(now)
        yield* ensureRow(userId)
        const status = yield* currentStatus(userId)
        yield* storePermissions(userId, status)
        yield* sql`insert into kyc_events (user_id, kind, detail, at) values (${userId}, ${kind}, ${JSON.stringify({ edd: status.edd, blockedPermissions: status.blockedPermissions })}::jsonb, ${now})`
        return true
      }),
    )
  })

/** The user sends the evidence: every requested group has at least one file. */
export const submitEdd = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const row = yield* eddRow(userId)
    if (!open(row)) return yield* refuse("edd_not_open", "no evidence is asked for now")
    const files = yield* filesOf(userId)
    const missing = row.groups.filter((group) => !files.some((item) => item.group === group))
    if (missing.length > 0) return yield* refuse("evidence_missing", `add a file to: ${missing.join(", ")}`)
    const moved = yield* moveRequest(
      userId,
      ["requested", "rejected"],
      "edd.submitted",
      (now) => sql`update kyc_edd set status = 'submitted', submitted_at = ${now}, reason = null where user_id = ${userId}`,
    )
    if (!moved) return yield* refuse("edd_not_open", "the request changed meanwhile; read it again")
    return yield* eddState(userId)
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

const BOT_TEXT = {
  en: {
    requested: "We need a few more documents to keep your account fully open. Open the wallet to send them.",
    approved: "Thank you: your documents are accepted.",
    rejected: (reason: string) => `We could not accept your documents. ${reason} Open the wallet to send them again.`.replace(/\s+/g, " "),
  },
  ru: {
    requested: "Нам нужны ещё несколько документов, чтобы аккаунт оставался полностью открытым. Откройте кошелёк, чтобы отправить их.",
    approved: "Спасибо: документы приняты.",
    rejected: (reason: string) => `Не удалось принять документы. ${reason} Откройте кошелёк, чтобы отправить их снова.`.replace(/\s+/g, " "),
  },
} as const

const notify = (userId: number, text: (language: (typeof BOT_TEXT)["en"] | (typeof BOT_TEXT)["ru"]) => string) =>
  Effect.gen(function* () {
    const outbox = yield* Outbox
    const language = yield* botLanguageOf(userId)
    yield* outbox.enqueue({ channel: "telegram", recipient: String(userId), subject: "kyc.edd", body: text(BOT_TEXT[language]) })
  })

export class EddChangeRefused extends Error {
  readonly _tag = "EddChangeRefused"
}

/**
 * Staff ask for evidence (a new request, or again after a decision): the groups, whether the account is
 * held meanwhile, and what to tell the user. Files of an earlier request stay on record but not in view.
 */
export const requestEdd = (userId: number, groups: ReadonlyArray<EvidenceGroup>, blocking: boolean, note: string, actor: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    if (groups.length === 0) return yield* Effect.fail(new EddChangeRefused("Choose at least one group"))
    const known = yield* sql`select 1 from kernel_users where id = ${userId}`
    if (known.length === 0) return yield* Effect.fail(new EddChangeRefused(`No user ${userId}`))
    const before = yield* eddRow(userId)
    if (before !== undefined && (before.status === "requested" || before.status === "submitted"))
      return yield* Effect.fail(new EddChangeRefused("Evidence is asked for already: decide on it first"))
    const now = new Date(config.now())
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`update kyc_evidence set removed_at = ${now} where user_id = ${userId} and removed_at is null`
        yield* sql`insert into kyc_edd (user_id, groups, status, blocking, note, requested_at)
          values (${userId}, ${JSON.stringify(groups)}::jsonb, 'requested', ${blocking}, ${note || null}, ${now})
          on conflict (user_id) do update set groups = excluded.groups, status = 'requested', blocking = excluded.blocking, note = excluded.note,
            reason = null, version = kyc_edd.version + 1, requested_at = excluded.requested_at, submitted_at = null, decided_at = null`
        yield* ensureRow(userId)
        const status = yield* currentStatus(userId)
        yield* storePermissions(userId, status)
        yield* sql`insert into kyc_events (user_id, kind, detail, at) values (${userId}, ${"edd.requested"}, ${JSON.stringify({ groups, blocking, actor })}::jsonb, ${now})`
        yield* operatorAudit(actor, "kyc.edd_request", `user ${userId}`, before ? { status: before.status } : null, { groups, blocking })
        yield* notify(userId, (text) => text.requested)
      }),
    )
  })

/** Staff accept the evidence (the hold lifts) or reject it with a reason the user reads (they may send again). */
export const decideEdd = (userId: number, decision: "approved" | "rejected", reason: string, actor: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (decision === "rejected" && reason.trim() === "") return yield* Effect.fail(new EddChangeRefused("Write the reason the user will read"))
    const result = yield* sql.withTransaction(
      Effect.gen(function* () {
        const moved = yield* moveRequest(
          userId,
          ["submitted"],
          `edd.${decision}`,
          (now) =>
            sql`update kyc_edd set status = ${decision}, reason = ${decision === "rejected" ? reason.trim() : null}, decided_at = ${now} where user_id = ${userId}`,
        )
        if (!moved) return false
        yield* operatorAudit(actor, `kyc.edd_${decision}`, `user ${userId}`, { status: "submitted" }, { status: decision, reason: reason.trim() || null })
        yield* notify(userId, (text) => (decision === "approved" ? text.approved : text.rejected(reason.trim())))
        return true
      }),
    )
    if (!result) return yield* Effect.fail(new EddChangeRefused("There is no submitted evidence to decide on"))
  })

/** One evidence file of `userId` for the operator page (never by id alone: it must be this user's). */
export const evidenceFile = (userId: number, id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const files = yield* FileStore
    const rows = yield* sql<{ file_key: string }>`select file_key from kyc_evidence where id = ${id} and user_id = ${userId}`
    if (rows[0] === undefined) return undefined
    return yield* files.get(rows[0].file_key).pipe(Effect.orDie)
  })

export const isEvidenceGroup = (value: unknown): value is EvidenceGroup => (EVIDENCE_GROUPS as ReadonlyArray<unknown>).includes(value)
export const isEvidenceKind = (value: unknown): value is EvidenceKind => (EVIDENCE_KINDS as ReadonlyArray<unknown>).includes(value)
