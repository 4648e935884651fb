/**
 * `@wallet/plugin-kyc/server`: identity verification on the server (issue 19). Levels, the level-1
 * steps (phone from Telegram's signed contact, country, name), blocks and partial blocks, and the
 * permissions they give, written to the user's `permissions` (which every plugin's server checks)
 * in the same transaction as the change that moves them.
 */
import { Effect, Layer, Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { CurrentSession } from "@wallet/kernel/api"
import { defineServerPlugin, ServerConfig, sqlStatements, type Migration, type ServerPlugin } from "@wallet/kernel-server"
import { Outbox } from "@wallet/kernel-server/outbox"
import { KycApi, KycConflict, KycError, KycGroup, KycPartnerUnavailable, type VerificationStatus } from "../api.ts"
import { MAX_EVIDENCE_BYTES, NAME_PATTERN, type HeldLevel } from "../domain.ts"
import { acceptTerms, CONSENTS, giveConsent, KycChangeRefused } from "./changes.ts"
import { kycDevResetUser, kycDevSeed } from "./devSeed.ts"
import { kycVerificationLimits } from "./limits.ts"
import { kycOperatorPages, KYC_OPERATOR_LABEL } from "./operator.ts"
import { kycPartnerLayer, type PartnerLevel } from "./partner.ts"
import { partnerToken, reconcileSubmission, tokenRefusal, type TokenRefusal } from "./review.ts"
import { partnerWebhookRoute } from "./webhook.ts"
import { eddState, removeEvidence, submitEdd, uploadEvidence } from "./edd.ts"
import { activeBlocks, currentStatus, ensureRow, statusFrom, storePermissions, verificationStatus, type VerificationRow } from "./store.ts"
import { countryOfPhone, UNSUPPORTED_COUNTRIES, verifyContact } from "./phone.ts"

export const kycMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "kyc: verifications, blocks, events",
    up: sqlStatements(
      `create table kyc_verifications (
        user_id bigint primary key,
        level text not null default 'LEVEL_0' check (level in ('LEVEL_0', 'LEVEL_1', 'LEVEL_2', 'LEVEL_3', 'LEVEL_4')),
        phone text,
        phone_country text,
        self_declared_country text,
        first_name text,
        last_name text,
        required_level_after_kyc1 text not null default 'LEVEL_1',
        consents jsonb not null default '[]'::jsonb,
        version integer not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`,
      `create table kyc_blocks (
        id serial primary key,
        user_id bigint not null,
        kind text not null check (kind in ('full', 'partial')),
        code text not null,
        required_action text,
        required_level text,
        permission text,
        created_at timestamptz not null,
        lifted_at timestamptz
      )`,
      `create index kyc_blocks_active on kyc_blocks (user_id) where lifted_at is null`,
      `create table kyc_events (
        id serial primary key,
        user_id bigint not null,
        kind text not null,
        detail jsonb not null,
        at timestamptz not null
      )`,
      `create index kyc_events_user on kyc_events (user_id, id)`,
    ),
  },
  {
    id: 2,
    name: "kyc: partner applicants and webhook deliveries",
    up: sqlStatements(
      `create table kyc_applicants (
        user_id bigint primary key,
        applicant_id text not null,
        level text not null check (level in ('LEVEL_2', 'LEVEL_3')),
        review_status text not null,
        answer text check (answer in ('GREEN', 'RED')),
        reject_type text,
        reject_labels jsonb not null default '[]'::jsonb,
        moderation_comment text,
        client_comment text,
        event_at text not null,
        updated_at timestamptz not null
      )`,
      `create index kyc_applicants_review on kyc_applicants (review_status, updated_at)`,
      // Staff may let a blocked user past the blocked screen (spec 3 §4.2 "unless a bypass permission is held").
      `alter table kyc_verifications add column block_bypass boolean not null default false`,
      `create table kyc_webhooks (
        id text primary key,
        applicant_id text not null,
        type text not null,
        event_at text not null,
        outcome text not null,
        received_at timestamptz not null
      )`,
    ),
  },
  {
    id: 3,
    name: "kyc: enhanced due diligence requests and evidence files",
    up: sqlStatements(
      `create table kyc_edd (
        user_id bigint primary key,
        groups jsonb not null,
        status text not null check (status in ('requested', 'submitted', 'approved', 'rejected')),
        blocking boolean not null,
        note text,
        reason text,
        version integer not null default 0,
        requested_at timestamptz not null,
        submitted_at timestamptz,
        decided_at timestamptz
      )`,
      `create index kyc_edd_queue on kyc_edd (status, submitted_at)`,
      `create table kyc_evidence (
        id serial primary key,
        user_id bigint not null,
        grp text not null,
        kind text not null,
        file_key text not null unique,
        file_name text not null,
        content_type text not null,
        size integer not null,
        sha256 text not null,
        created_at timestamptz not null,
        removed_at timestamptz
      )`,
      `create index kyc_evidence_user on kyc_evidence (user_id, grp, kind) where removed_at is null`,
    ),
  },
]

type Change = Partial<{
  readonly phone: string
  readonly phoneCountry: string | null
  readonly selfDeclaredCountry: string
  readonly firstName: string
  readonly lastName: string
}>

/**
 * One step: in one transaction, the row read, the step's precondition checked, one conditional
 * update (on the version read), level 1 granted when it passes, the permissions rewritten and the
 * event recorded. A concurrent change makes the update miss: the step answers step_not_open.
 */
const applyStep = (userId: number, kind: string, decide: (status: VerificationStatus, row: VerificationRow) => Effect.Effect<Change, KycError | KycConflict>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const { row } = yield* ensureRow(userId)
        const blocks = yield* activeBlocks(userId)
        const before = statusFrom(row, blocks)
        if (before.status === "BLOCKED")
          return yield* Effect.fail(new KycConflict({ code: "user_blocked", message: "a blocked user cannot take verification steps" }))
        const change = yield* decide(before, row)
        const next: VerificationRow = { ...row, ...change, version: row.version + 1 }
        const passed = statusFrom(next, blocks).level1Status === "PASSED"
        const level: HeldLevel = passed && row.level === "LEVEL_0" ? "LEVEL_1" : row.level
        const now = new Date(config.now())
        const updated = yield* sql<{ user_id: unknown }>`
          update kyc_verifications set
            phone = ${next.phone}, phone_country = ${next.phoneCountry}, self_declared_country = ${next.selfDeclaredCountry},
            first_name = ${next.firstName}, last_name = ${next.lastName}, level = ${level},
            version = version + 1, updated_at = ${now}
          where user_id = ${userId} and version = ${row.version}
          returning user_id`
        if (updated.length === 0)
          return yield* Effect.fail(new KycConflict({ code: "step_not_open", message: "the verification changed meanwhile; read the status again" }))
        const after = yield* currentStatus(userId, { ...next, level })
        yield* storePermissions(userId, after)
        yield* sql`insert into kyc_events (user_id, kind, detail, at) values (${userId}, ${kind}, ${JSON.stringify({ level: after.level, level1Status: after.level1Status })}::jsonb, ${now})`
        return { status: "SUCCESS" as const, data: after }
      }),
    )
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

const notOpen = (step: string) => Effect.fail(new KycConflict({ code: "step_not_open", message: `the ${step} step is not open` }))

const setPhone = (contactRawData: string) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    const config = yield* ServerConfig
    const verified = verifyContact(contactRawData, { botToken: Redacted.value(config.botToken), sessionUserId: session.userId, nowMs: config.now() })
    if (!verified.ok) return yield* Effect.fail(new KycError(verified.failure))
    const phone = verified.contact.phone
    return yield* applyStep(session.userId, "phone", (status) =>
      status.level1Status === "PHONE_NUMBER_REQUIRED" ? Effect.succeed({ phone, phoneCountry: countryOfPhone(phone) }) : notOpen("phone"),
    )
  })

const setCountry = (country: string) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    if (UNSUPPORTED_COUNTRIES.has(country))
      return yield* Effect.fail(new KycError({ code: "country_unsupported", message: `the wallet does not serve residents of ${country}` }))
    return yield* applyStep(session.userId, "country", (status) =>
      status.level1Status === "SELF_DECLARED_COUNTRY_REQUIRED" || (status.level1Status === "SELF_DECLARED_NAME_REQUIRED" && status.shouldShowCountryStep)
        ? Effect.succeed({ selfDeclaredCountry: country })
        : notOpen("country"),
    )
  })

const setName = (firstName: string, lastName: string) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    const first = firstName.trim()
    const last = lastName.trim()
    if (!NAME_PATTERN.test(first) || !NAME_PATTERN.test(last))
      return yield* Effect.fail(new KycError({ code: "name_invalid", message: "a name holds letters, spaces, hyphens and apostrophes only" }))
    return yield* applyStep(session.userId, "name", (status) =>
      status.level1Status === "SELF_DECLARED_NAME_REQUIRED" ? Effect.succeed({ firstName: first, lastName: last }) : notOpen("name"),
    )
  })

const status = Effect.gen(function* () {
  const session = yield* CurrentSession
  return yield* verificationStatus(session.userId)
}).pipe(Effect.orDie)

const consent = (value: (typeof CONSENTS)[number]) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    const after = yield* giveConsent(session.userId, value).pipe(
      Effect.catchTag("KycChangeRefused", (refused: KycChangeRefused) => Effect.fail(new KycConflict({ code: "step_not_open", message: refused.message }))),
    )
    return { status: "SUCCESS" as const, data: after }
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

const partnerTokenFor = (level: PartnerLevel) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    const current = yield* verificationStatus(session.userId)
    const refusal = tokenRefusal(current, current.review, level)
    if (refusal !== undefined) return yield* Effect.fail(new KycConflict({ code: refusal, message: TOKEN_REFUSALS[refusal] }))
    return yield* partnerToken(session.userId, level).pipe(
      Effect.catchTag("PartnerUnavailable", (error) =>
        Effect.logWarning("kyc: the partner refused an access token", error.message).pipe(
          Effect.andThen(
            Effect.fail(new KycPartnerUnavailable({ code: "partner_unavailable", message: "identity verification is unavailable right now; try again later" })),
          ),
        ),
      ),
    )
  }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

/** The frame said the documents were sent: the partner's status is read now (its webhook may come late). */
const partnerSubmitted = Effect.gen(function* () {
  const session = yield* CurrentSession
  yield* reconcileSubmission(session.userId).pipe(
    Effect.catchTag("PartnerUnavailable", (error) =>
      Effect.logWarning("kyc: the partner's status could not be read", error.message).pipe(
        Effect.andThen(
          Effect.fail(new KycPartnerUnavailable({ code: "partner_unavailable", message: "identity verification is unavailable right now; try again later" })),
        ),
      ),
    ),
  )
  return yield* verificationStatus(session.userId)
}).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

/** A handler of the signed-in user. */
const withUser = <A, E, R>(run: (userId: number) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    return yield* run(session.userId)
  })

const TOKEN_REFUSALS: Readonly<Record<TokenRefusal, string>> = {
  user_blocked: "a blocked user cannot take verification steps",
  level_held: "the level is held already",
  steps_first: "share the phone number and country first",
  review_pending: "the documents are being reviewed",
  review_final: "the partner declined the verification; it cannot be repeated",
}

const apiHandlers = HttpApiBuilder.group(KycApi, "kyc", (group) =>
  group
    .handle("status", () => status)
    .handle("consent", ({ payload }) => consent(payload.consent))
    .handle("acceptTerms", () =>
      withUser((userId) =>
        acceptTerms(userId).pipe(
          Effect.catchTag("KycChangeRefused", (refused: KycChangeRefused) => Effect.fail(new KycConflict({ code: "step_not_open", message: refused.message }))),
          Effect.catchTag("SqlError", (error) => Effect.die(error)),
        ),
      ),
    )
    .handle("setPhone", ({ payload }) => setPhone(payload.contactRawData))
    .handle("setCountry", ({ payload }) => setCountry(payload.country))
    .handle("setName", ({ payload }) => setName(payload.firstName, payload.lastName))
    .handle("partnerToken", ({ payload }) => partnerTokenFor(payload.level))
    .handle("partnerSubmitted", () => partnerSubmitted)
    .handle("edd", () => withUser((userId) => eddState(userId)))
    .handle("uploadEvidence", ({ query, payload }) => withUser((userId) => uploadEvidence(userId, query.group, query.kind, query.name, payload)))
    .handle("removeEvidence", ({ payload }) => withUser((userId) => removeEvidence(userId, payload.id)))
    .handle("submitEdd", () => withUser((userId) => submitEdd(userId))),
)

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "kyc",
  migrations: kycMigrations,
  groups: [KycGroup],
  handlers: Layer.mergeAll(apiHandlers, kycOperatorPages, partnerWebhookRoute).pipe(Layer.provide(Layer.mergeAll(kycPartnerLayer, Outbox.layer))),
  operatorLabel: KYC_OPERATOR_LABEL,
  // Evidence files up to 10 MB (the API's other bodies stay within the server's 1 MiB).
  uploads: [{ method: "POST", path: "/api/kyc/evidence", maxBytes: MAX_EVIDENCE_BYTES + 64 * 1024 }],
  // The kernel's VerificationLimits port: the money modules check a user's allowance (decision 0920).
  verificationLimits: kycVerificationLimits,
  // Dev servers: the demo users' verification states (level 2, blocked, restricted).
  devSeed: kycDevSeed,
  devResetUser: kycDevResetUser,
})
export default serverPlugin
