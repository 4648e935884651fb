import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ledger } from "./Ledger.ts"
import { System, userOwner } from "./model.ts"
import { startTestLedger, type TestLedger } from "./testing.ts"

const root = join(import.meta.dirname, "..", "..", "..", "..")
const audit = (url: string) =>
  spawnSync(process.execPath, ["tooling/scripts/ledger-audit.mjs", "--database-url", url], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: "" },
  })

describe("ledger audit command", () => {
  let db: TestLedger
  beforeAll(async () => {
    db = await startTestLedger("postgres")
  }, 120_000)
  afterAll(async () => {
    await db?.stop()
  })

  it("prints the report, exits 0 when clean and 1 on a violation", async () => {
    const alice = { owner: userOwner(1), currency: "TON" }
    await db.run(
      Effect.gen(function* () {
        const ledger = yield* Effect.service(Ledger)
        yield* ledger.defineCurrency({ code: "TON", decimals: 9 })
        yield* ledger.openAccount(alice)
        yield* ledger.transfer({ key: "cli:1", legs: [{ from: { owner: System.deposits, currency: "TON" }, to: alice, amount: 5n }] })
      }),
    )
    const clean = audit(db.url!)
    expect(clean.stdout).toContain("ledger audit: OK")
    expect(clean.status).toBe(0)

    // An entry that does not balance (written behind the Ledger's back).
    await db.run(
      Effect.gen(function* () {
        const sql = yield* Effect.service(SqlClient.SqlClient)
        yield* sql.unsafe(`insert into ledger_entries (transaction_id, account_id, amount)
          select t.id, a.id, 3 from ledger_transactions t, ledger_accounts a where t.idempotency_key = 'cli:1' and a.owner = '${alice.owner}'`)
      }),
    )
    const broken = audit(db.url!)
    expect(broken.status).toBe(1)
    expect(broken.stdout).toContain("FAIL transaction entries sum to zero per currency")
    expect(broken.stdout).toContain("FAIL balances equal the sum of entries")
  }, 60_000)
})
