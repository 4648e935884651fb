/** The passcode plugin's tables (all prefixed `passcode_`). */
import { sqlStatements, type Migration } from "@wallet/kernel-server"

export const passcodeMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "passcodes, recovery emails, email codes, challenges, operation tokens",
    up: sqlStatements(
      // One passcode per user and device serial; biometry token (SHA-256) on the same row.
      `create table passcode_passcodes (
        user_id bigint not null,
        device_serial text not null,
        passcode_hash text not null,
        passcode_type text not null check (passcode_type in ('4-digit', '6-digit')),
        failed_attempts integer not null default 0,
        biometry_token_hash text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (user_id, device_serial)
      )`,
      `create table passcode_recovery_emails (
        user_id bigint not null,
        product text not null,
        email text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        primary key (user_id, product)
      )`,
      // Recovery codes (challenge_id null) and challenge codes; newest per (user, product, reason) or per challenge.
      `create table passcode_email_codes (
        id bigserial primary key,
        user_id bigint not null,
        product text not null,
        reason text not null,
        challenge_id text,
        email text not null,
        code_salt text not null,
        code_hash text not null,
        failed_attempts integer not null default 0,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz,
        voided_at timestamptz
      )`,
      `create index passcode_email_codes_user on passcode_email_codes (user_id, created_at desc)`,
      `create table passcode_challenges (
        id text primary key,
        user_id bigint not null,
        device_serial text not null,
        operation text not null,
        method text not null,
        product text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        completed_at timestamptz
      )`,
      `create table passcode_operation_tokens (
        token_hash text primary key,
        user_id bigint not null,
        device_serial text not null,
        operation text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      )`,
      `create index passcode_operation_tokens_expiry on passcode_operation_tokens (expires_at)`,
    ),
  },
  {
    id: 2,
    name: "device keys and recovery keys (key vault, docs/decisions/0511)",
    up: sqlStatements(
      // The device encryption key of one wallet address; released only after the passcode check.
      `create table passcode_device_keys (
        external_id text primary key,
        user_id bigint not null,
        address text not null,
        device_key text not null,
        created_at timestamptz not null
      )`,
      `create index passcode_device_keys_user on passcode_device_keys (user_id)`,
      // The recovery split's server part, released after an email code of reason get-recovery-key.
      `create table passcode_recovery_keys (
        user_id bigint not null,
        product text not null,
        key_hex text not null,
        iv_hex text not null,
        shard text not null,
        updated_at timestamptz not null,
        primary key (user_id, product)
      )`,
    ),
  },
  {
    id: 3,
    name: "one attempt counter per user; device serials proven by an email code (docs/decisions/0540)",
    up: sqlStatements(
      // Wrong passcodes counted per user across all devices (a new serial does not escape a lock).
      `create table passcode_attempts (
        user_id bigint primary key,
        failed_attempts integer not null default 0,
        updated_at timestamptz not null
      )`,
      // A lock anywhere locks the user: carry the highest count of any device over.
      `insert into passcode_attempts (user_id, failed_attempts, updated_at)
        select user_id, max(failed_attempts), max(updated_at) from passcode_passcodes group by user_id`,
      // Whether the serial was created through the rules of decision 0540. Before them a further
      // device needed no email code: of the old rows only each user's first serial stays trusted; the
      // others read as locked until an email-code reset on that device.
      `alter table passcode_passcodes add column trusted boolean not null default true`,
      `update passcode_passcodes p set trusted = false
        where exists (select 1 from passcode_passcodes q
          where q.user_id = p.user_id and (q.created_at < p.created_at or (q.created_at = p.created_at and q.device_serial < p.device_serial)))`,
    ),
  },
]
