/**
 * Dev servers only (decision 0203): the verification state of the demo users, so the launch page
 * opens each state at once. Lena is at level 2, Bruno blocked (BR_001, lifted by CS_001), Paula at
 * level 1 with P2P restricted (PBR_002), Rhea at level 1 with documents for level 2 in review (the
 * wallet's side of it: the sandbox partner has no applicant for her, so the operator cannot decide it;
 * a review of one's own is the browser journey). Idempotent: a block is added only when none is active, and
 * every demo user's stored permissions are recomputed (the kernel's seed resets them at each start).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { demoUsers, ServerConfig } from "@wallet/kernel-server"
import { currentStatus, ensureRow, storePermissions } from "./store.ts"
import { countryOfPhone } from "./phone.ts"

const verified = (userId: number, phone: string, level: "LEVEL_1" | "LEVEL_2", firstName: string, lastName: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* ensureRow(userId)
    yield* sql`update kyc_verifications set phone = ${`+${phone}`}, phone_country = ${countryOfPhone(`+${phone}`)}, first_name = ${firstName}, last_name = ${lastName}, level = ${level}
      where user_id = ${userId} and phone is null`
  })

const blockOnce = (userId: number, kind: "full" | "partial", code: string, requiredAction: string, permission: string | null) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const open = yield* sql`select id from kyc_blocks where user_id = ${userId} and kind = ${kind} and lifted_at is null`
    if (open.length > 0) return
    // Once lifted by the user, a demo block stays lifted until the dev database is reset.
    const lifted = yield* sql`select id from kyc_blocks where user_id = ${userId} and kind = ${kind}`
    if (lifted.length > 0) return
    yield* sql`insert into kyc_blocks (user_id, kind, code, required_action, permission, created_at) values (${userId}, ${kind}, ${code}, ${requiredAction}, ${permission}, ${new Date(config.now())})`
  })

const reviewOnce = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = new Date(config.now())
    const at = now.toISOString().replace("T", " ").replace("Z", "")
    yield* sql`update kyc_verifications set required_level_after_kyc1 = 'LEVEL_2' where user_id = ${userId}`
    yield* sql`insert into kyc_applicants (user_id, applicant_id, level, review_status, event_at, updated_at)
      values (${userId}, ${`demo-${userId}`}, 'LEVEL_2', 'pending', ${at}, ${now}) on conflict (user_id) do nothing`
  })

/**
 * The dev launch resets the "new" demo user before each launch: its verification goes too (the
 * partner's webhooks and the evidence rows by user; evidence files stay in the dev file store).
 */
export const kycDevResetUser = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`delete from kyc_webhooks where applicant_id in (select applicant_id from kyc_applicants where user_id = ${userId})`
        for (const table of ["kyc_applicants", "kyc_evidence", "kyc_edd", "kyc_events", "kyc_blocks", "kyc_verifications"] as const) {
          yield* sql`delete from ${sql(table)} where user_id = ${userId}`
        }
      }),
    )
  })

export const kycDevSeed = Effect.gen(function* () {
  for (const demo of demoUsers) {
    const phone = demo.phone
    if (demo.kind === "kyc_level2" && phone) yield* verified(demo.id, phone, "LEVEL_2", demo.telegram.first_name, demo.telegram.last_name ?? "Level")
    if (demo.kind === "kyc_partial" && phone) {
      yield* verified(demo.id, phone, "LEVEL_1", demo.telegram.first_name, demo.telegram.last_name ?? "Partial")
      yield* blockOnce(demo.id, "partial", "PBR_002", "CS_002", "canUseP2p")
    }
    if (demo.kind === "kyc_review" && phone) {
      yield* verified(demo.id, phone, "LEVEL_1", demo.telegram.first_name, demo.telegram.last_name ?? "Review")
      yield* reviewOnce(demo.id)
    }
    if (demo.kind === "kyc_blocked") {
      yield* ensureRow(demo.id)
      yield* blockOnce(demo.id, "full", "BR_001", "CS_001", null)
    }
  }
  // Every demo user with a verification row: the permissions its status gives (the kernel's seed reset them).
  const sql = yield* SqlClient.SqlClient
  const ids = new Set(demoUsers.map((demo) => demo.id))
  const rows = yield* sql<{ user_id: unknown }>`select user_id from kyc_verifications`
  for (const row of rows) {
    const id = Number(row.user_id)
    if (!ids.has(id)) continue
    const { row: verification } = yield* ensureRow(id)
    yield* storePermissions(id, yield* currentStatus(id, verification))
  }
})
