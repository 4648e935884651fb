/**
 * The ramp's tables (issue 23). `ramp_transactions`: one row per purchase or sale, created before the
 * provider's widget URL is signed (its id is the provider's external transaction id); it moves
 * CREATED -> PENDING -> COMPLETED | FAILED only forward, and the move to a final status commits with
 * its one Ledger command (credit, post or void). `ramp_webhooks`: each verified delivery by the digest
 * of its raw body, inserted first, so a redelivery changes nothing.
 */
import { sqlStatements, type Migration } from "@wallet/kernel-server"

export const rampMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "ramp: transactions and webhook deliveries",
    up: sqlStatements(
      `create table ramp_transactions (
        id text primary key check (id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
        user_id bigint not null,
        provider text not null check (provider in ('moonpay', 'mercuryo')),
        direction text not null check (direction in ('buy', 'sell')),
        currency text not null,
        network text not null,
        fiat_currency text not null check (fiat_currency ~ '^[A-Z]{3}$'),
        fiat_amount text,
        crypto_units numeric(78,0) check (crypto_units is null or crypto_units > 0),
        payment_method text,
        status text not null check (status in ('CREATED', 'PENDING', 'COMPLETED', 'FAILED')),
        failure_reason text,
        provider_tx_id text,
        hold_id bigint,
        ledger_tx_id bigint,
        deposit_notified boolean not null default false,
        version integer not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check (direction = 'buy' or hold_id is not null),
        check ((status = 'COMPLETED') = (ledger_tx_id is not null))
      )`,
      `create index ramp_transactions_user on ramp_transactions (user_id, created_at desc)`,
      `create table ramp_webhooks (
        id text primary key,
        provider text not null,
        ramp_id text,
        type text not null,
        outcome text not null,
        received_at timestamptz not null
      )`,
    ),
  },
]
