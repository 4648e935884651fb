/**
 * The exchange's table (decision 1100): one row per quote. A quote moves OPEN -> EXECUTED (by the
 * conditional update that commits with its `Ledger.convert`, keyed by the uid) or OPEN -> EXPIRED.
 * Amounts are minor units; prices USD per unit x 10^12 as the quote was priced.
 */
import { sqlStatements, type Migration } from "@wallet/kernel-server"

export const exchangeMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "exchange: quotes",
    up: sqlStatements(
      `create table exchange_quotes (
        uid text primary key check (uid ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
        user_id bigint not null,
        pay_currency text not null,
        receive_currency text not null check (receive_currency <> pay_currency),
        mode text not null check (mode in ('pay', 'receive')),
        requested numeric(78,0) not null check (requested > 0),
        pay_total numeric(78,0) not null check (pay_total > 0),
        net numeric(78,0) not null check (net > 0),
        fee numeric(78,0) not null check (fee >= 0 and net + fee = pay_total),
        receive_amount numeric(78,0) not null check (receive_amount > 0),
        rate text not null,
        spread_bps integer not null check (spread_bps >= 0),
        fee_bps integer not null check (fee_bps >= 0),
        pay_price numeric(78,0) not null,
        receive_price numeric(78,0) not null,
        status text not null check (status in ('OPEN', 'EXECUTED', 'EXPIRED')),
        created_at timestamptz not null,
        expires_at timestamptz not null,
        executed_at timestamptz,
        transaction_id bigint,
        check ((status = 'EXECUTED') = (transaction_id is not null))
      )`,
      `create index exchange_quotes_user on exchange_quotes (user_id, created_at desc)`,
    ),
  },
]
