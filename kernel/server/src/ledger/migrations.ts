/**
 * The Ledger's tables (all prefixed `ledger_`), as a migration module the host runs at boot with
 * the kernel's runner (`runMigrations([kernelModule, ledgerModule, ...plugins])`).
 *
 * Amounts are integer minor units in `numeric(78,0)` (fits uint256: 18-decimal tokens overflow
 * int8 at 9.2 units). Check constraints repeat the service's invariants as a last line of defence:
 * no user balance below zero, no zero entries, a hold is pending exactly when it has no resolution.
 */
import type { Migration, MigrationModule } from "../db/migrations.ts"
import { defineServerPlugin } from "../plugin.ts"
import { sqlStatements } from "../db/statements.ts"

export const ledgerMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "currencies, accounts, transactions, entries, holds",
    up: sqlStatements(
      `create table ledger_currencies (
        code text primary key check (code ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,31}$'),
        decimals integer not null check (decimals between 0 and 36),
        created_at timestamptz not null default now()
      )`,
      // balance: the account's own money (what it can spend). held: the part of it that sits in
      // the currency's holds account for pending holds debited from it (shown as frozen).
      `create table ledger_accounts (
        id bigserial primary key,
        owner text not null check (length(owner) between 1 and 200),
        currency text not null references ledger_currencies (code),
        allow_negative boolean not null default false,
        balance numeric(78,0) not null default 0,
        held numeric(78,0) not null default 0 check (held >= 0),
        created_at timestamptz not null default now(),
        unique (owner, currency),
        check (allow_negative or balance >= 0)
      )`,
      // One row per movement; the idempotency key is global (callers namespace it: "custody:send:<uuid>").
      `create table ledger_transactions (
        id bigserial primary key,
        idempotency_key text not null unique check (length(idempotency_key) between 1 and 200),
        request_hash text not null,
        kind text not null check (kind in ('transfer', 'hold', 'post', 'void', 'expire')),
        hold_id bigint,
        memo text,
        metadata jsonb not null default '{}'::jsonb,
        created_at timestamptz not null default now()
      )`,
      `create index ledger_transactions_hold_id on ledger_transactions (hold_id) where hold_id is not null`,
      `create table ledger_entries (
        id bigserial primary key,
        transaction_id bigint not null references ledger_transactions (id),
        account_id bigint not null references ledger_accounts (id),
        amount numeric(78,0) not null check (amount <> 0)
      )`,
      `create index ledger_entries_account on ledger_entries (account_id, id)`,
      `create index ledger_entries_transaction on ledger_entries (transaction_id)`,
      // A hold's id is the id of the transaction that placed it.
      `create table ledger_holds (
        id bigint primary key references ledger_transactions (id),
        from_account bigint not null references ledger_accounts (id),
        to_account bigint not null references ledger_accounts (id),
        amount numeric(78,0) not null check (amount > 0),
        status text not null check (status in ('pending', 'posted', 'voided', 'expired')),
        expires_at timestamptz,
        resolved_tx bigint unique references ledger_transactions (id),
        posted_amount numeric(78,0),
        created_at timestamptz not null default now(),
        resolved_at timestamptz,
        check ((status = 'pending') = (resolved_tx is null)),
        check (posted_amount is null or (status = 'posted' and posted_amount > 0 and posted_amount <= amount))
      )`,
      `create index ledger_holds_from_account on ledger_holds (from_account)`,
      `create index ledger_holds_pending_expiry on ledger_holds (expires_at) where status = 'pending'`,
    ),
  },
  {
    id: 2,
    name: "holds by receiving account",
    up: sqlStatements(`create index ledger_holds_to_account on ledger_holds (to_account)`),
  },
  {
    id: 3,
    name: "conversions and the house account",
    // A conversion is its own kind so the audit can check its shape (decision 1100); every currency
    // defined before gets its house account (later ones get it from defineCurrency).
    up: sqlStatements(
      `alter table ledger_transactions drop constraint ledger_transactions_kind_check`,
      `alter table ledger_transactions add constraint ledger_transactions_kind_check
         check (kind in ('transfer', 'hold', 'post', 'void', 'expire', 'convert'))`,
      `insert into ledger_accounts (owner, currency) select 'system:house', code from ledger_currencies on conflict (owner, currency) do nothing`,
    ),
  },
]

/** For `runMigrations` directly (tests, tooling). */
export const ledgerMigrationModule: MigrationModule = { id: "ledger", migrations: ledgerMigrations }

/**
 * The Ledger as a server module (tables only, no endpoints): list it before the plugins that move
 * money (they declare `dependsOn: ["ledger"]`).
 */
export const ledgerModule = defineServerPlugin({ id: "ledger", migrations: ledgerMigrations })
