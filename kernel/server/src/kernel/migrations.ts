/** The kernel module's tables (all prefixed `kernel_`). */
import type { Migration } from "../db/migrations.ts"
import { sqlStatements } from "../db/statements.ts"

export const kernelMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "users, sessions, tokens, replay records",
    up: sqlStatements(
      `create table kernel_users (
        id bigint primary key,
        first_name text not null,
        last_name text,
        username text,
        language_code text,
        photo_url text,
        is_premium boolean not null default false,
        language text,
        local_currency text not null default 'USD',
        country_alpha2_ip text,
        country_alpha2_phone text,
        restriction_code text,
        subdivision_status text,
        is_custody_available boolean not null default true,
        is_blocked boolean not null default false,
        bot_is_blocked boolean not null default false,
        is_new boolean not null default true,
        ab_tests jsonb not null default '{}'::jsonb,
        permissions jsonb not null default '{}'::jsonb,
        utm_tags jsonb not null default '{}'::jsonb,
        visitor_id text,
        visitor_id_set_at timestamptz,
        profile_created_at timestamptz,
        demo_kind text,
        created_at timestamptz not null,
        last_seen_at timestamptz not null
      )`,
      // No foreign key to kernel_users: a session whose user is gone answers 401 user_not_found.
      `create table kernel_sessions (
        id text primary key,
        user_id bigint not null,
        created_at timestamptz not null,
        refreshed_at timestamptz,
        revoked_at timestamptz,
        revoked_reason text
      )`,
      `create index kernel_sessions_user_id on kernel_sessions (user_id)`,
      `create table kernel_access_tokens (
        token_hash text primary key,
        session_id text not null references kernel_sessions (id) on delete cascade,
        expires_at timestamptz not null
      )`,
      `create index kernel_access_tokens_session_id on kernel_access_tokens (session_id)`,
      `create index kernel_access_tokens_expires_at on kernel_access_tokens (expires_at)`,
      `create table kernel_refresh_tokens (
        token_hash text primary key,
        session_id text not null references kernel_sessions (id) on delete cascade,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      )`,
      `create index kernel_refresh_tokens_session_id on kernel_refresh_tokens (session_id)`,
      `create index kernel_refresh_tokens_expires_at on kernel_refresh_tokens (expires_at)`,
      // One row per initData ever accepted, keyed by its hash, until it could no longer be valid.
      `create table kernel_init_data_uses (
        hash text primary key,
        user_id bigint not null,
        auth_date timestamptz not null,
        used_at timestamptz not null
      )`,
      `create index kernel_init_data_uses_auth_date on kernel_init_data_uses (auth_date)`,
    ),
  },
  {
    id: 2,
    name: "feature flags and view settings",
    up: sqlStatements(
      `create table kernel_feature_flags (
        name text primary key,
        enabled boolean not null,
        description text not null default ''
      )`,
      `create table kernel_user_feature_flags (
        user_id bigint not null,
        name text not null,
        enabled boolean not null,
        primary key (user_id, name)
      )`,
      `insert into kernel_feature_flags (name, enabled, description) values
        ('dev_tools', false, 'development tools'),
        ('tonspace_pnl', false, 'self-custody profit and loss'),
        ('scw_risk_scanner', true, 'risk scanner for self-custody transfers'),
        ('xstocks', false, 'stocks and ETFs'),
        ('scw_affluent', false, 'affluent earn provider'),
        ('uz_new_flow', false, 'new flow for Uzbekistan'),
        ('new_action_buttons', true, 'new action buttons on main'),
        ('scw_new_nft', false, 'new collectibles screens'),
        ('trade_exchange_form', false, 'exchange form in trade'),
        ('is_p2p_enabled', true, 'degradation banner: P2P works'),
        ('is_ton_space_enabled', true, 'degradation banner: TON space works')`,
      `create table kernel_view_settings (
        user_id bigint primary key,
        user_flags jsonb not null default '{}'::jsonb,
        banners jsonb not null default '{}'::jsonb,
        updated_at timestamptz not null
      )`,
    ),
  },
  {
    id: 3,
    name: "rate limit counters shared by every server process (docs/decisions/0206)",
    up: sqlStatements(
      // One sliding-window counter per bucket and key: hits of the current window (starting at
      // window_start, epoch seconds) and of the previous one; useless after expires_at.
      `create table kernel_rate_limits (
        bucket text not null,
        key text not null,
        window_start bigint not null,
        window_seconds integer not null,
        hits bigint not null,
        previous_hits bigint not null,
        expires_at timestamptz not null,
        primary key (bucket, key)
      )`,
      `create index kernel_rate_limits_expires_at on kernel_rate_limits (expires_at)`,
    ),
  },
]
