/** Tables of the operator console (decision 0370); prefix `operator_`. */
import { sqlStatements } from "../db/statements.ts"
import type { Migration } from "../db/migrations.ts"

export const operatorMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "operator accounts, sessions, login failures, audit log, experiment buckets for all",
    up: sqlStatements(
      `create table operator_accounts (
        id serial primary key,
        name text not null unique,
        password_hash text not null,
        created_at timestamptz not null
      )`,
      // The cookie's token is never stored: its SHA-256 is.
      `create table operator_sessions (
        token_hash text primary key,
        operator_id integer not null references operator_accounts (id) on delete cascade,
        csrf text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null
      )`,
      `create table operator_login_failures (
        key text not null,
        at timestamptz not null
      )`,
      `create index operator_login_failures_key_at on operator_login_failures (key, at)`,
      `create table operator_audit (
        id bigserial primary key,
        actor text not null,
        action text not null,
        target text not null,
        before jsonb,
        after jsonb,
        at timestamptz not null
      )`,
      `create index operator_audit_at on operator_audit (at desc)`,
      // Buckets for everyone; a user's own buckets (kernel_users.ab_tests) win over these.
      `create table operator_experiment_buckets (
        name text primary key,
        bucket text not null
      )`,
    ),
  },
]
