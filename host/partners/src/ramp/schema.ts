/**
 * The ramp sandbox's tables: the providers' transactions (both providers, buy and sell) and one
 * webhook outbox per provider with the columns the delivery loop works through (`applicant_id` is
 * the transaction id there: the subject whose events the reorder chaos holds back). Times are unix ms.
 */

const outbox = (table: string): string => `
  create table ${table} (
    id bigint generated always as identity primary key,
    applicant_id text not null,
    type text not null,
    body text not null,
    state text not null,
    attempt integer not null default 0,
    next_at bigint not null,
    duplicate_of bigint,
    last_error text,
    created_at bigint not null,
    delivered_at bigint
  );
  create index ${table}_due on ${table} (state, next_at);
`

export const RAMP_MIGRATIONS: ReadonlyArray<string> = [
  `
  create table ramp_transactions (
    id text primary key,
    provider text not null,
    direction text not null,
    status text not null,
    external_transaction_id text not null,
    external_customer_id text,
    crypto text not null,
    fiat text not null,
    crypto_amount text not null,
    fiat_amount text not null,
    fee_amount text not null,
    wallet_address text,
    deposit_address text,
    refund_address text,
    redirect_url text,
    card_last4 text,
    three_ds boolean not null default false,
    complete_at bigint,
    failure_reason text,
    crypto_transaction_id text,
    created_at bigint not null,
    updated_at bigint not null,
    unique (provider, external_transaction_id)
  );
  create index ramp_transactions_due on ramp_transactions (complete_at) where complete_at is not null;
  ${outbox("moonpay_deliveries")}
  ${outbox("mercuryo_deliveries")}
  `,
]
