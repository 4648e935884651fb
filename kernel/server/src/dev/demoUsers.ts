/**
 * Demo users seeded by a dev server (WALLET_DEV=1). Fixed Telegram ids so a newcomer, a test or a
 * bug report can name them. The "new" user is reset at each launch, so it always lands on
 * onboarding.
 *
 * | id        | kind       | what it shows                                                      | phone (shared contact)  |
 * |-----------|------------|--------------------------------------------------------------------|-------------------------|
 * | 700000001 | new        | first launch: is_new_user true, onboarding                         | 447700900123 (GB)       |
 * | 700000002 | balances   | an existing user (balances arrive with the Ledger: not yet funded) | 4915112345678 (DE)      |
 * | 700000003 | restricted | restriction_code unsupported_region (country US)                   | 12025550123 (+1: US/CA) |
 * | 700000004 | no_custody | is_custody_available false: kept in the self-custody area          | 77012345678 (+7: KZ/RU) |
 * | 700000005 | blocked    | 403 content_unavailable: the unavailable page                      | 4930123456789 (DE)      |
 * | 700000006 | kyc_level2 | verified to level 2 (the kyc plugin's dev seed)                    | 447700900456 (GB)       |
 * | 700000007 | kyc_blocked| blocked by verification, BR_001, lifted by accepting CS_001          | 33612345678 (FR)        |
 * | 700000008 | kyc_partial| level 1, P2P restricted by PBR_002 (lifted by accepting CS_002)      | 34612345678 (ES)        |
 * | 700000009 | kyc_review | level 1, documents for level 2 waiting for the partner's review      | 31612345678 (NL)        |
 *
 * The phone is what the user shares when the mini-app asks Telegram for their contact: the dev
 * launch signs it as Telegram would (`contact` of the launch response).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { DemoUser, Permissions, TelegramUser } from "@wallet/kernel/api"
import { ServerConfig } from "../services.ts"

export interface DemoUserSeed extends DemoUser {
  readonly telegram: Omit<TelegramUser, "language_code">
  /** The phone number the user shares with the mini-app, as Telegram sends it: digits, no plus. */
  readonly phone?: string
  readonly columns: {
    readonly isNew: boolean
    readonly countryAlpha2Ip: string | null
    readonly restrictionCode: string | null
    readonly isCustodyAvailable: boolean
    readonly isBlocked: boolean
    readonly permissions: Partial<Permissions>
  }
}

const regular = { isNew: false, countryAlpha2Ip: "NL", restrictionCode: null, isCustodyAvailable: true, isBlocked: false, permissions: {} }

export const demoUsers: ReadonlyArray<DemoUserSeed> = [
  {
    id: 700000001,
    kind: "new",
    name: "Nora New",
    description: "A first launch: no wallet yet, lands on onboarding (reset at every launch).",
    telegram: { id: 700000001, first_name: "Nora", last_name: "New", username: "nora_new", allows_write_to_pm: true },
    phone: "447700900123",
    columns: { ...regular, isNew: true },
  },
  {
    id: 700000002,
    kind: "balances",
    name: "Bob Balance",
    description: "An existing user with balances (funded once the Ledger lands; for now an existing user on main).",
    telegram: { id: 700000002, first_name: "Bob", last_name: "Balance", username: "bob_balance", is_premium: true, allows_write_to_pm: true },
    phone: "4915112345678",
    columns: regular,
  },
  {
    id: 700000003,
    kind: "restricted",
    name: "Rita Region",
    description: "A user in a restricted region: restriction_code unsupported_region.",
    telegram: { id: 700000003, first_name: "Rita", last_name: "Region", username: "rita_region", allows_write_to_pm: true },
    // +7 is shared by Russia and Kazakhstan: the number alone settles no country.
    phone: "12025550123",
    columns: {
      ...regular,
      countryAlpha2Ip: "US",
      restrictionCode: "unsupported_region",
      permissions: { canBuy: false, canExchange: false, canUseP2p: false, canWithdrawOuter: false },
    },
  },
  {
    id: 700000004,
    kind: "no_custody",
    name: "Carl Keys",
    description: "A user without custody: is_custody_available false, only the self-custody TON space.",
    telegram: { id: 700000004, first_name: "Carl", last_name: "Keys", username: "carl_keys", allows_write_to_pm: true },
    phone: "77012345678",
    columns: { ...regular, isCustodyAvailable: false },
  },
  {
    id: 700000005,
    kind: "blocked",
    name: "Ben Blocked",
    description: "A blocked user: auth answers 403 content_unavailable (the unavailable page).",
    telegram: { id: 700000005, first_name: "Ben", last_name: "Blocked", username: "ben_blocked", allows_write_to_pm: true },
    phone: "4930123456789",
    columns: { ...regular, isBlocked: true },
  },
  {
    id: 700000006,
    kind: "kyc_level2",
    name: "Lena Level",
    description: "Verified to level 2: higher limits, P2P open (the kyc plugin seeds the verification).",
    telegram: { id: 700000006, first_name: "Lena", last_name: "Level", username: "lena_level", allows_write_to_pm: true },
    phone: "447700900456",
    columns: regular,
  },
  {
    id: 700000007,
    kind: "kyc_blocked",
    name: "Bruno Block",
    description: "Blocked by verification (BR_001): the blocked screen; accepting the agreement (CS_001) lifts it.",
    telegram: { id: 700000007, first_name: "Bruno", last_name: "Block", username: "bruno_block", allows_write_to_pm: true },
    phone: "33612345678",
    columns: regular,
  },
  {
    id: 700000008,
    kind: "kyc_partial",
    name: "Paula Partial",
    description: "Level 1 with P2P restricted (PBR_002): the partially-blocked screen; accepting CS_002 lifts it.",
    telegram: { id: 700000008, first_name: "Paula", last_name: "Partial", username: "paula_partial", allows_write_to_pm: true },
    phone: "34612345678",
    columns: regular,
  },
  {
    id: 700000009,
    kind: "kyc_review",
    name: "Rhea Review",
    description: "Level 1 with documents for level 2 in review: the waiting screen (the kyc plugin seeds the review).",
    telegram: { id: 700000009, first_name: "Rhea", last_name: "Review", username: "rhea_review", allows_write_to_pm: true },
    phone: "31612345678",
    columns: regular,
  },
]

/**
 * Upserts the demo users' defining attributes; everything else they accumulated (settings,
 * sessions) survives a restart. The "new" user is not seeded: it is created by its first auth.
 */
export const seedDemoUsers = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* ServerConfig
  const now = new Date(config.now())
  for (const demo of demoUsers) {
    if (demo.kind === "new") continue
    const c = demo.columns
    yield* sql`insert into kernel_users (id, first_name, last_name, username, is_premium, is_new, country_alpha2_ip,
        restriction_code, is_custody_available, is_blocked, permissions, demo_kind, created_at, last_seen_at, profile_created_at)
      values (${demo.id}, ${demo.telegram.first_name}, ${demo.telegram.last_name ?? null}, ${demo.telegram.username ?? null},
        ${demo.telegram.is_premium ?? false}, ${c.isNew}, ${c.countryAlpha2Ip}, ${c.restrictionCode}, ${c.isCustodyAvailable},
        ${c.isBlocked}, ${JSON.stringify(c.permissions)}::jsonb, ${demo.kind}, ${now}, ${now}, ${now})
      on conflict (id) do update set
        is_new = excluded.is_new, country_alpha2_ip = excluded.country_alpha2_ip, restriction_code = excluded.restriction_code,
        is_custody_available = excluded.is_custody_available, is_blocked = excluded.is_blocked,
        permissions = excluded.permissions, demo_kind = excluded.demo_kind`
  }
})

/** Forgets a user entirely (the "new" demo user before each launch); revokes its sessions. */
export const resetUser = (id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`update kernel_sessions set revoked_at = ${new Date(config.now())}, revoked_reason = 'user_reset'
          where user_id = ${id} and revoked_at is null`
        yield* sql`delete from kernel_view_settings where user_id = ${id}`
        yield* sql`delete from kernel_user_feature_flags where user_id = ${id}`
        yield* sql`delete from kernel_users where id = ${id}`
      }),
    )
  })
