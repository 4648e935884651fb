/**
 * The custody plugin's one migration list (issue 14): the on-chain tables (`custody_chain_*`, id 501)
 * and the accounts, transfers and history tables (`custody_*`, ids from 1001), in the order a
 * database has always applied them. Ids and names are what `kernel_migrations` recorded: never
 * renumber or rename one (migrations.test.ts holds the list), only append.
 */
import { sqlStatements, type Migration } from "@wallet/kernel-server"

export const custodyMigrations: ReadonlyArray<Migration> = [
  // Deposit addresses, deposits, withdrawals and their batches (custody on chain, docs/decisions/0850).
  {
    id: 501,
    name: "chain_addresses_deposits_withdrawals",
    up: sqlStatements(
      // One deposit address per user and network (the same for every currency of the network).
      `create table custody_chain_addresses (
        user_id bigint not null,
        network text not null,
        address text not null,
        canonical text not null,
        cursor text,
        created_at timestamptz not null default now(),
        primary key (user_id, network),
        unique (network, canonical)
      )`,
      // Network-wide scan positions (adapters that read the whole network).
      `create table custody_chain_cursors (
        network text primary key,
        cursor text not null
      )`,
      // Every credited deposit, once per transfer: the unique key is the exactly-once guard.
      `create table custody_chain_deposits (
        id bigserial primary key,
        network text not null,
        tx_hash text not null,
        user_id bigint not null,
        address text not null,
        from_address text,
        currency text not null,
        amount numeric(78, 0) not null check (amount > 0),
        ledger_key text not null,
        created_at timestamptz not null default now(),
        unique (network, tx_hash)
      )`,
      `create index custody_chain_deposits_user on custody_chain_deposits (user_id, id desc)`,
      `create table custody_chain_batches (
        id bigserial primary key,
        network text not null,
        ref text not null,
        status text not null check (status in ('prepared', 'sent', 'done')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`,
      // A network has at most one batch on its way (a TON wallet takes one message per seqno).
      `create unique index custody_chain_batches_open on custody_chain_batches (network) where status <> 'done'`,
      `create table custody_chain_withdrawals (
        id bigserial primary key,
        user_id bigint not null,
        idempotency_key text not null,
        request_hash text not null,
        network text not null,
        currency text not null,
        amount numeric(78, 0) not null check (amount > 0),
        fee numeric(78, 0) not null check (fee >= 0),
        address text not null,
        canonical text not null,
        domain text,
        comment text,
        status text not null check (status in ('pending', 'processing', 'success', 'fail')),
        amount_hold_id text,
        fee_hold_id text,
        batch_id bigint references custody_chain_batches (id),
        tx_hash text,
        failure_reason text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (user_id, idempotency_key)
      )`,
      `create index custody_chain_withdrawals_queue on custody_chain_withdrawals (network, status, id)`,
      `create index custody_chain_withdrawals_batch on custody_chain_withdrawals (batch_id)`,
    ),
  },
  {
    id: 1001,
    name: "custody transfers, history rows, frozen balances, seen currencies, notification settings",
    up: sqlStatements(
      // A transfer to a Telegram user: a Ledger hold from the sender, posted to the receiver on approve.
      `create table custody_transfers (
        id bigserial primary key,
        sender_id bigint not null,
        receiver_id bigint not null,
        currency text not null,
        amount numeric(78, 0) not null check (amount > 0),
        comment text,
        idempotency_key text not null,
        request_hash text not null,
        hold_id text,
        status text not null check (status in ('new', 'accepted', 'canceled', 'expired')),
        created_at timestamptz not null,
        expires_at timestamptz not null,
        resolved_at timestamptz,
        unique (sender_id, idempotency_key)
      )`,
      `create index custody_transfers_receiver on custody_transfers (receiver_id, status)`,
      `create index custody_transfers_due on custody_transfers (expires_at) where status = 'new'`,
      // The user-facing history: one row per user side of a movement (spec 1 §3 transaction list item).
      `create table custody_transactions (
        id bigserial primary key,
        user_id bigint not null,
        type text not null check (type in ('deposit', 'withdraw')),
        gateway text not null,
        currency text not null,
        amount numeric(78, 0) not null check (amount >= 0),
        status text not null check (status in ('new', 'pending', 'success', 'fail', 'canceled')),
        counterparty_id bigint,
        address text,
        network text,
        tx_hash text,
        fee numeric(78, 0),
        comment text,
        transfer_id bigint,
        ledger_key text not null,
        details jsonb not null default '{}'::jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (user_id, ledger_key)
      )`,
      `create index custody_transactions_user on custody_transactions (user_id, id desc)`,
      `create index custody_transactions_user_currency on custody_transactions (user_id, currency, id desc)`,
      `create index custody_transactions_transfer on custody_transactions (transfer_id) where transfer_id is not null`,
      // Frozen balances: a Ledger hold from the user to system:frozen; the reason lives here.
      `create table custody_frozen (
        id bigserial primary key,
        user_id bigint not null,
        currency text not null,
        reason text not null check (reason in ('FR_1', 'FR_2', 'FR_3', 'FR_4')),
        amount numeric(78, 0) not null check (amount > 0),
        ledger_key text not null unique,
        hold_id text not null,
        created_at timestamptz not null,
        released_at timestamptz
      )`,
      `create index custody_frozen_user on custody_frozen (user_id) where released_at is null`,
      `create table custody_seen_currencies (
        user_id bigint not null,
        currency text not null,
        seen_at timestamptz not null,
        primary key (user_id, currency)
      )`,
      `create table custody_notification_settings (
        user_id bigint not null,
        type text not null,
        enabled boolean not null,
        updated_at timestamptz not null,
        primary key (user_id, type)
      )`,
    ),
  },
  {
    id: 1002,
    name: "history sync cursor per user (Ledger entries imported into the history)",
    up: sqlStatements(
      `create table custody_history_sync (
        user_id bigint primary key,
        last_entry_id bigint not null
      )`,
    ),
  },
  {
    id: 1003,
    name: "history ordered by date",
    up: sqlStatements(`create index custody_transactions_user_date on custody_transactions (user_id, created_at desc, id desc)`),
  },
  {
    id: 1004,
    name: "transfers by hold (orphan hold repair)",
    up: sqlStatements(`create index custody_transfers_hold on custody_transfers (hold_id)`),
  },
  {
    id: 1005,
    name: "sender history rows imported before their transfer rows get the transfer link (docs/decisions/0801)",
    up: sqlStatements(
      `update custody_transactions h
          set transfer_id = t.id, counterparty_id = t.receiver_id, comment = t.comment, details = '{}'::jsonb,
              status = case t.status when 'new' then 'pending' when 'accepted' then 'success' when 'canceled' then 'canceled' else 'fail' end
         from custody_transfers t
        where h.transfer_id is null and h.gateway = 'tg_transfer' and h.user_id = t.sender_id
          and h.ledger_key = 'custody:tg:' || t.sender_id || ':' || t.idempotency_key`,
    ),
  },
  {
    id: 1006,
    name: "withdrawals keep their USD value (verification limits, decision 0920)",
    up: sqlStatements(
      `alter table custody_chain_withdrawals add column usd_cents bigint`,
      `create index custody_chain_withdrawals_user_date on custody_chain_withdrawals (user_id, created_at)`,
    ),
  },
]
