/**
 * The sandbox's tables, as ordered migrations: access tokens (by hash), applicants with their
 * current review, uploaded files (kept when replaced, like Sumsub's inspection history) and webhook
 * deliveries (the outbox the delivery loop works through). Times are unix milliseconds.
 */

export const MIGRATIONS: ReadonlyArray<string> = [
  `
  create table access_tokens (
    token_hash text primary key,
    user_id text not null,
    level_name text not null,
    created_at bigint not null,
    expires_at bigint not null,
    bound_session text,
    applicant_id text
  );

  create table applicants (
    id text primary key,
    external_user_id text not null unique,
    inspection_id text not null unique,
    level_name text not null,
    created_at bigint not null,
    review_status text not null,
    attempt_cnt integer not null default 0,
    attempt_id text not null,
    review_created_at bigint not null,
    reviewed_at bigint,
    review_result jsonb
  );

  create table files (
    image_id bigint generated always as identity (start with 1000000001) primary key,
    applicant_id text not null references applicants (id),
    inspection_id text not null,
    attempt_id text not null,
    doc_set text not null,
    id_doc_type text not null,
    country text,
    file_name text not null,
    file_type text not null,
    file_size integer not null,
    content bytea not null,
    added_at bigint not null,
    replaced_at bigint
  );
  create index files_current on files (applicant_id) where replaced_at is null;

  create table deliveries (
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
  create index deliveries_due on deliveries (state, next_at);
  `,
]
