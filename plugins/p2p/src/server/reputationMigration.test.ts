import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Db, runMigrations } from "@wallet/kernel-server"
import { startTestDatabase, type TestDatabase } from "@wallet/kernel-server/testing"
import { p2pMigrations } from "./migrations.ts"

/** Migration 4 names who failed the orders closed before it, by the rules the moves use now (`failedPartyOf`). */
describe("p2p migration 4: failed_by of existing orders", () => {
  let database: TestDatabase
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => runtime.runPromise(effect)

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    runtime = ManagedRuntime.make(Db.layer(database.options))
  }, 60_000)
  afterAll(async () => {
    await runtime?.dispose()
    await database?.stop()
  })

  it("cancels and rejects against who made them, expiries against the maker or the buyer, a lost appeal against the seller", async () => {
    await run(runMigrations([{ id: "p2p", migrations: p2pMigrations.filter((m) => m.id < 4) }]))
    // Maker 10 sells (SALE offer), taker 20 buys; each order closed one way.
    const closed: ReadonlyArray<readonly [number, string, string | null, boolean]> = [
      [1, "CANCELLED", "buyer", true],
      [2, "CANCELLED", "seller", true],
      [3, "CANCELLED", "support", true],
      [4, "REJECTED", null, false],
      [5, "EXPIRED", "system", false],
      [6, "EXPIRED", "system", true],
      [7, "COMPLETED", null, true],
      [8, "COMPLETED", null, true],
      [9, "COMPLETED", null, true],
    ]
    await run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(`insert into p2p_offers (id, user_id, type, status, crypto, fiat, price_type, price_value, volume, available, min_fiat, max_fiat, methods,
            details_ids, payment_window, auto_accept, maker_fee_bps, taker_fee_bps, idempotency_key, created_at, updated_at)
          values (1, 10, 'SALE', 'ACTIVE', 'USDT', 'RUB', 'FIXED', 10000, 100, 100, 1, 1000, '[]', '[]', 15, false, 0, 0, 'k', now(), now())`)
        for (const [id, status, cancelledBy, accepted] of closed) {
          yield* sql.unsafe(
            `insert into p2p_orders (id, offer_id, offer_type, maker_id, taker_id, buyer_id, seller_id, crypto, fiat, amount, hold_amount, fiat_amount, price_cents,
               seller_fee, buyer_fee, method, payment_window, status, cancelled_by, idempotency_key, created_at, accepted_at, completed_at, closed_at, updated_at)
             values ($1, 1, 'SALE', 10, 20, 20, 10, 'USDT', 'RUB', 1, 1, 1, 1, 0, 0, 'sbp', 15, $2, $3, $4, now(), $5, $6, now(), now())`,
            [id, status, cancelledBy, `k${id}`, accepted ? new Date() : null, status === "COMPLETED" ? new Date() : null],
          )
        }
        // Order 8: support released to the buyer; order 9: the seller released during the appeal (no decision against anyone).
        yield* sql.unsafe(`insert into p2p_appeals (order_id, opened_by, issue, status, outcome, decided_by, opened_at, decided_at)
          values (8, 20, 'seller_not_releasing', 'RESOLVED', 'BUYER', 'support-1', now(), now()),
                 (9, 20, 'seller_not_releasing', 'RESOLVED', 'BUYER', null, now(), now())`)
      }),
    )
    await run(runMigrations([{ id: "p2p", migrations: p2pMigrations }]))
    const rows = await run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ id: number; failed_by: string | null }>`select id::int as id, failed_by::text as failed_by from p2p_orders order by id`
      }),
    )
    // Buyer 20, seller (and maker) 10.
    expect(rows.map((row) => [row.id, row.failed_by])).toEqual([
      [1, "20"],
      [2, "10"],
      [3, "20"],
      [4, "10"],
      [5, "10"],
      [6, "20"],
      [7, null],
      [8, "10"],
      [9, null],
    ])
  })
})
