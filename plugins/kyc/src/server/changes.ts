/**
 * Changes to a user's verification that staff or the user's consent make (issue 19): the level,
 * blocks and partial blocks, and the consents that lift them. Each runs in one transaction: the
 * verification row's version moves in one conditional update (so concurrent changes of one user
 * queue), the block rows change, the permissions the new status gives are written to the user's
 * record, and the change is recorded in `kyc_events` (and, for staff, in the operator audit log).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { operatorAudit } from "@wallet/kernel-server/operator"
import type { VerificationStatus } from "../api.ts"
import { FULL_BLOCK_CODES, HELD_LEVELS, RESTRICTED_PERMISSIONS, type ClientPermission, type FullBlockCode, type HeldLevel } from "../domain.ts"
import { currentStatus, ensureRow, storePermissions } from "./store.ts"

export class KycChangeRefused extends Error {
  readonly _tag = "KycChangeRefused"
}

/** The consents a user gives (spec 3 §4.2: CS_001 lifts BR_001, CS_002 lifts PBR_002; §7.4: CS_003 with the terms). */
export const CONSENTS = ["CS_001", "CS_002", "CS_003", "CS_004"] as const
export type Consent = (typeof CONSENTS)[number]

export type StaffChange =
  | { readonly kind: "level"; readonly level: HeldLevel }
  | { readonly kind: "block"; readonly code: FullBlockCode; readonly requiredAction: "CS_001" | null; readonly requiredLevel: HeldLevel | null }
  | { readonly kind: "partial"; readonly permission: ClientPermission }
  | { readonly kind: "lift"; readonly blockId: number }
  | { readonly kind: "bypass"; readonly bypass: boolean }

export const isFullBlockCode = (value: unknown): value is FullBlockCode => (FULL_BLOCK_CODES as ReadonlyArray<unknown>).includes(value)
export const isHeldLevel = (value: unknown): value is HeldLevel => (HELD_LEVELS as ReadonlyArray<unknown>).includes(value)
export const isClientPermission = (value: unknown): value is ClientPermission => (RESTRICTED_PERMISSIONS as ReadonlyArray<unknown>).includes(value)

/**
 * Runs `change` for `userId` in one transaction after taking the row (version + 1, conditional),
 * then writes the permissions of the status after it and the event. Answers the status before and after.
 */
const inTransaction = <E>(
  userId: number,
  kind: string,
  change: (now: Date) => Effect.Effect<unknown, E | KycChangeRefused, SqlClient.SqlClient | ServerConfig>,
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const now = new Date(config.now())
        const { row } = yield* ensureRow(userId)
        const before = yield* currentStatus(userId, row)
        const taken =
          yield* sql`update kyc_verifications set version = version + 1, updated_at = ${now} where user_id = ${userId} and version = ${row.version} returning user_id`
        if (taken.length === 0) return yield* Effect.fail(new KycChangeRefused("the verification changed meanwhile; try again"))
        const detail = yield* change(now)
        const { row: after } = yield* ensureRow(userId)
        const status = yield* currentStatus(userId, after)
        yield* storePermissions(userId, status)
        yield* sql`insert into kyc_events (user_id, kind, detail, at) values (${userId}, ${kind}, ${JSON.stringify({ detail, level: status.level, blockedPermissions: status.blockedPermissions })}::jsonb, ${now})`
        return { before, after: status }
      }),
    )
  })

const userExists = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`select 1 from kernel_users where id = ${userId}`
    if (rows.length === 0) return yield* Effect.fail(new KycChangeRefused(`no user ${userId}`))
  })

const summary = (status: VerificationStatus) => ({
  level: status.level,
  bypassBlockedScreen: status.bypassBlockedScreen,
  block: status.block?.code ?? null,
  partialBlocks: status.partialBlocks.map((block) => block.permission),
})

/** A staff change, with its operator audit entry in the same transaction. */
export const applyStaffChange = (userId: number, change: StaffChange, actor: string) =>
  Effect.gen(function* () {
    yield* userExists(userId)
    const sql = yield* SqlClient.SqlClient
    const result = yield* inTransaction(userId, `staff.${change.kind}`, (now) =>
      Effect.gen(function* () {
        switch (change.kind) {
          case "level":
            yield* sql`update kyc_verifications set level = ${change.level} where user_id = ${userId}`
            return { level: change.level, actor }
          case "block": {
            const open = yield* sql`select id from kyc_blocks where user_id = ${userId} and kind = 'full' and lifted_at is null`
            if (open.length > 0) return yield* Effect.fail(new KycChangeRefused("the user is blocked already: lift that block first"))
            yield* sql`insert into kyc_blocks (user_id, kind, code, required_action, required_level, created_at)
              values (${userId}, 'full', ${change.code}, ${change.requiredAction}, ${change.requiredLevel}, ${now})`
            return { code: change.code, actor }
          }
          case "partial": {
            const open =
              yield* sql`select id from kyc_blocks where user_id = ${userId} and kind = 'partial' and permission = ${change.permission} and lifted_at is null`
            if (open.length > 0) return yield* Effect.fail(new KycChangeRefused(`${change.permission} is restricted already`))
            yield* sql`insert into kyc_blocks (user_id, kind, code, required_action, permission, created_at)
              values (${userId}, 'partial', 'PBR_002', 'CS_002', ${change.permission}, ${now})`
            return { permission: change.permission, actor }
          }
          case "bypass":
            yield* sql`update kyc_verifications set block_bypass = ${change.bypass} where user_id = ${userId}`
            return { bypass: change.bypass, actor }
          case "lift": {
            const lifted =
              yield* sql`update kyc_blocks set lifted_at = ${now} where id = ${change.blockId} and user_id = ${userId} and lifted_at is null returning id`
            if (lifted.length === 0) return yield* Effect.fail(new KycChangeRefused(`block ${change.blockId} is not active for user ${userId}`))
            return { blockId: change.blockId, actor }
          }
        }
      }),
    )
    yield* operatorAudit(actor, `kyc.${change.kind}`, `user ${userId}`, summary(result.before), summary(result.after))
    return result.after
  }).pipe(
    // The change and its audit entry commit together (the change's own transaction is a savepoint of this one).
    (effect) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(effect)),
  )

/**
 * Spec 3 §4.2, §7.4: the terms of service accepted: the CS_003 consent recorded, the user no longer
 * new, and the level and permissions answered, in one transaction.
 */
export const acceptTerms = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const status = yield* giveConsent(userId, "CS_003")
        yield* sql`update kernel_users set is_new = false where id = ${userId}`
        return { acceptedServiceTerms: true as const, kycLevel: status.level, permissions: status.permissions }
      }),
    )
  })

/**
 * The user's consent (spec 3 §4.2): CS_001 lifts a BR_001 block that asks for it, CS_002 the
 * partial blocks that ask for it; every consent is recorded once in the user's consents.
 */
export const giveConsent = (userId: number, consent: Consent) =>
  inTransaction(userId, "consent", (now) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`update kyc_verifications set consents = case when consents @> ${JSON.stringify([consent])}::jsonb then consents else consents || ${JSON.stringify([consent])}::jsonb end where user_id = ${userId}`
      const lifted =
        consent === "CS_001"
          ? yield* sql`update kyc_blocks set lifted_at = ${now} where user_id = ${userId} and kind = 'full' and code = 'BR_001' and required_action = 'CS_001' and lifted_at is null returning id`
          : consent === "CS_002"
            ? yield* sql`update kyc_blocks set lifted_at = ${now} where user_id = ${userId} and kind = 'partial' and required_action = 'CS_002' and lifted_at is null returning id`
            : []
      return { consent, lifted: lifted.length }
    }),
  ).pipe(Effect.map((result) => result.after))
