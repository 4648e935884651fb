/** Recovery emails: one per user and product. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Product } from "../api.ts"
import { now } from "./passcodes.ts"

export const findRecoveryEmail = (userId: number, product: Product) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* Effect.orDie(sql<{ email: string }>`select email from passcode_recovery_emails where user_id = ${userId} and product = ${product}`)
    return row?.email
  })

/**
 * The user's first recovery email (the oldest of any product; the wallet's on a tie): the address
 * that guards the passcode (creation on any device, reset) and security challenges. A recovery
 * email added later for another product never takes its place (docs/decisions/0540).
 */
export const anyRecoveryEmail = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* Effect.orDie(sql<{ email: string; product: Product }>`
      select email, product from passcode_recovery_emails where user_id = ${userId}
      order by created_at asc, (product = 'wallet') desc, product limit 1`)
    return row
  })

/** Inserts (mode create: only when none) or replaces the address; returns whether it was written. */
export const saveRecoveryEmail = (userId: number, product: Product, email: string, mode: "create" | "change") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const address = email.trim().toLowerCase()
    const rows = yield* Effect.orDie(
      mode === "create"
        ? sql`insert into passcode_recovery_emails (user_id, product, email, created_at, updated_at)
            values (${userId}, ${product}, ${address}, ${at}, ${at}) on conflict (user_id, product) do nothing returning user_id`
        : sql`update passcode_recovery_emails set email = ${address}, updated_at = ${at}
            where user_id = ${userId} and product = ${product} returning user_id`,
    )
    return rows.length === 1
  })
