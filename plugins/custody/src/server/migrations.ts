/**
 * The custody server's tables (prefixed `custody_`; the chain half's are `custody_chain_`).
 * Ids start at 1001 so they never meet the chain half's (both lists are merged in id order).
 */
import { sqlStatements, type Migration } from "@wallet/kernel-server"

export const custodyMigrations: ReadonlyArray<Migration> = [
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
]
