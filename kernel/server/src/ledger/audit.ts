/**
 * The Ledger audit: checks every invariant over the whole database and reports each violation
 * (up to 20 examples per check). Read-only; runs in one REPEATABLE READ transaction so all checks
 * see one snapshot while movements go on.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

export interface AuditViolation {
  readonly check: string
  readonly detail: string
}

export interface AuditReport {
  readonly ok: boolean
  readonly checks: ReadonlyArray<{ readonly name: string; readonly violations: number }>
  readonly violations: ReadonlyArray<AuditViolation>
  readonly counts: { readonly currencies: number; readonly accounts: number; readonly transactions: number; readonly entries: number; readonly holds: number }
}

const LIMIT = 20

/** Each check: a name and a query returning one row per violation (a `detail` text column). */
const checks: ReadonlyArray<readonly [string, string]> = [
  [
    "transaction entries sum to zero per currency",
    `select 'transaction ' || e.transaction_id || ' ' || a.currency || ' sums to ' || sum(e.amount) as detail
       from ledger_entries e join ledger_accounts a on a.id = e.account_id
      group by e.transaction_id, a.currency having sum(e.amount) <> 0`,
  ],
  [
    "every transaction has entries",
    `select 'transaction ' || t.id || ' (' || t.idempotency_key || ') has no entries' as detail
       from ledger_transactions t where not exists (select 1 from ledger_entries e where e.transaction_id = t.id)`,
  ],
  [
    "entries sum to zero per currency",
    `select 'currency ' || c.code || ': entries sum to ' || coalesce(sum(e.amount), 0) as detail
       from ledger_currencies c left join ledger_accounts a on a.currency = c.code left join ledger_entries e on e.account_id = a.id
      group by c.code having coalesce(sum(e.amount), 0) <> 0`,
  ],
  [
    "balances equal the sum of entries",
    `select 'account ' || a.owner || '/' || a.currency || ': balance ' || a.balance || ', entries ' || coalesce(s.total, 0) as detail
       from ledger_accounts a left join (select account_id, sum(amount) as total from ledger_entries group by account_id) s on s.account_id = a.id
      where a.balance <> coalesce(s.total, 0)`,
  ],
  [
    "no negative balance",
    `select 'account ' || owner || '/' || currency || ': balance ' || balance || ', held ' || held as detail
       from ledger_accounts where (balance < 0 and not allow_negative) or held < 0`,
  ],
  [
    "only the deposits account may be negative",
    `select 'account ' || owner || '/' || currency || ' allows a negative balance' as detail
       from ledger_accounts where allow_negative and owner not like 'system:%'`,
  ],
  [
    "held equals the account's pending holds",
    `select 'account ' || a.owner || '/' || a.currency || ': held ' || a.held || ', pending holds ' || coalesce(s.total, 0) as detail
       from ledger_accounts a left join (select from_account, sum(amount) as total from ledger_holds where status = 'pending' group by from_account) s
         on s.from_account = a.id
      where a.held <> coalesce(s.total, 0)`,
  ],
  [
    "holds account equals the currency's pending holds",
    `select 'currency ' || a.currency || ': holds account ' || a.balance || ', pending holds ' || coalesce(sum(h.amount), 0) as detail
       from ledger_accounts a
       left join ledger_accounts f on f.currency = a.currency
       left join ledger_holds h on h.from_account = f.id and h.status = 'pending'
      where a.owner = 'system:holds'
      group by a.id, a.currency, a.balance having a.balance <> coalesce(sum(h.amount), 0)`,
  ],
  [
    "every hold resolved at most once",
    `select 'hold ' || hold_id || ' resolved by ' || count(*) || ' transactions' as detail
       from ledger_transactions where kind in ('post', 'void', 'expire') group by hold_id having count(*) > 1`,
  ],
  [
    "hold state matches its transactions",
    `select 'hold ' || h.id || ' is ' || h.status || ' but ' ||
            case when t.id is null then 'its resolution ' || coalesce(h.resolved_tx::text, 'none') || ' is missing'
                 else 'was resolved by a ' || t.kind || ' (' || t.id || ')' end as detail
       from ledger_holds h
       left join ledger_transactions t on t.kind in ('post', 'void', 'expire') and t.hold_id = h.id
      where (h.status = 'pending' and t.id is not null)
         or (h.status <> 'pending' and (t.id is null or t.id <> h.resolved_tx
              or (h.status = 'posted') <> (t.kind = 'post') or (h.status = 'voided') <> (t.kind = 'void') or (h.status = 'expired') <> (t.kind = 'expire')))`,
  ],
  [
    "hold placement moved its amount",
    `select 'hold ' || h.id || ': placed ' || coalesce(sum(e.amount) filter (where e.account_id = h.from_account), 0) || ' of ' || h.amount as detail
       from ledger_holds h left join ledger_entries e on e.transaction_id = h.id
      group by h.id, h.amount having coalesce(sum(e.amount) filter (where e.account_id = h.from_account), 0) <> -h.amount`,
  ],
  [
    "hold resolution released exactly its amount",
    `select 'hold ' || h.id || ': resolution took ' || -coalesce(sum(e.amount) filter (where a.owner = 'system:holds'), 0) || ' of ' || h.amount as detail
       from ledger_holds h join ledger_entries e on e.transaction_id = h.resolved_tx join ledger_accounts a on a.id = e.account_id
      group by h.id, h.amount having -coalesce(sum(e.amount) filter (where a.owner = 'system:holds'), 0) <> h.amount`,
  ],
  [
    "the house never goes negative",
    `select 'account ' || owner || '/' || currency || ' allows a negative balance' as detail
       from ledger_accounts where owner = 'system:house' and allow_negative`,
  ],
  [
    "a conversion is one user and the house in two currencies",
    // The user pays the house in one currency and is paid in the other (a fee may go to system:fees).
    `select 'conversion ' || t.id || ' (' || t.idempotency_key || '): ' || count(distinct a.currency) || ' currencies, '
            || count(distinct a.owner) filter (where a.owner not like 'system:%') || ' users' as detail
       from ledger_transactions t join ledger_entries e on e.transaction_id = t.id join ledger_accounts a on a.id = e.account_id
      where t.kind = 'convert'
      group by t.id, t.idempotency_key
     having count(distinct a.currency) <> 2
         or count(distinct a.owner) filter (where a.owner not like 'system:%') <> 1
         or count(*) filter (where a.owner like 'system:%' and a.owner not in ('system:house', 'system:fees')) > 0
         or count(*) filter (where a.owner = 'system:house' and e.amount > 0) <> 1
         or count(*) filter (where a.owner = 'system:house' and e.amount < 0) <> 1`,
  ],
]

export const runAudit: Effect.Effect<AuditReport, SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`set transaction isolation level repeatable read, read only`
      const results: Array<{ name: string; violations: number }> = []
      const violations: Array<AuditViolation> = []
      for (const [name, query] of checks) {
        const rows = yield* sql.unsafe<{ detail: string; total: number }>(`select detail, count(*) over ()::int as total from (${query}) as v limit ${LIMIT}`)
        const total = rows.length === 0 ? 0 : Number(rows[0]!.total)
        results.push({ name, violations: total })
        for (const row of rows) violations.push({ check: name, detail: row.detail })
      }
      const [counts] = yield* sql<{ currencies: number; accounts: number; transactions: number; entries: number; holds: number }>`
        select (select count(*) from ledger_currencies)::int as currencies, (select count(*) from ledger_accounts)::int as accounts,
               (select count(*) from ledger_transactions)::int as transactions, (select count(*) from ledger_entries)::int as entries,
               (select count(*) from ledger_holds)::int as holds`
      return { ok: violations.length === 0, checks: results, violations, counts: counts! }
    }),
  )
})

/** The report as text, one line per check and per violation example. */
export const formatAuditReport = (report: AuditReport): string =>
  [
    `ledger audit: ${report.ok ? "OK" : "VIOLATIONS"} (${report.counts.currencies} currencies, ${report.counts.accounts} accounts, ${report.counts.transactions} transactions, ${report.counts.entries} entries, ${report.counts.holds} holds)`,
    ...report.checks.map((check) => `  ${check.violations === 0 ? "ok  " : "FAIL"} ${check.name}${check.violations === 0 ? "" : ` (${check.violations})`}`),
    ...report.violations.map((violation) => `    - ${violation.check}: ${violation.detail}`),
  ].join("\n")
