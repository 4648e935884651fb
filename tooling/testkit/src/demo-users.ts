/**
 * The demo users a dev host server (WALLET_DEV=1) seeds (decision 0203): fixed Telegram ids and
 * profiles, so a test can sign initData for one of them (`signInitData`) or open the app as one
 * (`openAs`). The same table as `demoUsers` of `@wallet/kernel-server` (a unit test keeps them equal).
 */
export interface TelegramUserLike {
  readonly id: number
  readonly first_name: string
  readonly last_name?: string
  readonly username?: string
  readonly language_code?: string
  readonly is_premium?: boolean
  readonly allows_write_to_pm?: boolean
  readonly photo_url?: string
}

export const DEMO_USERS = {
  /** A first launch: onboarding (the dev launch resets it each time). */
  new: { id: 700000001, first_name: "Nora", last_name: "New", username: "nora_new", allows_write_to_pm: true },
  /** An existing user on the main screen. */
  balances: { id: 700000002, first_name: "Bob", last_name: "Balance", username: "bob_balance", is_premium: true, allows_write_to_pm: true },
  /** restriction_code unsupported_region (country US). */
  restricted: { id: 700000003, first_name: "Rita", last_name: "Region", username: "rita_region", allows_write_to_pm: true },
  /** is_custody_available false: only the self-custody TON space. */
  no_custody: { id: 700000004, first_name: "Carl", last_name: "Keys", username: "carl_keys", allows_write_to_pm: true },
  /** Auth answers 403 content_unavailable. */
  blocked: { id: 700000005, first_name: "Ben", last_name: "Blocked", username: "ben_blocked", allows_write_to_pm: true },
  /** Verified to level 2 (with the kyc plugin). */
  kyc_level2: { id: 700000006, first_name: "Lena", last_name: "Level", username: "lena_level", allows_write_to_pm: true },
  /** Blocked by verification, BR_001 (with the kyc plugin). */
  kyc_blocked: { id: 700000007, first_name: "Bruno", last_name: "Block", username: "bruno_block", allows_write_to_pm: true },
  /** Level 1 with P2P restricted, PBR_002 (with the kyc plugin). */
  kyc_partial: { id: 700000008, first_name: "Paula", last_name: "Partial", username: "paula_partial", allows_write_to_pm: true },
  /** Level 1 with documents for level 2 in the partner's review (with the kyc plugin). */
  kyc_review: { id: 700000009, first_name: "Rhea", last_name: "Review", username: "rhea_review", allows_write_to_pm: true },
} as const satisfies Record<string, TelegramUserLike>

export type DemoUserKind = keyof typeof DEMO_USERS

/** The demo users' Telegram ids by kind. */
export const DEMO_USER_IDS: { readonly [K in DemoUserKind]: (typeof DEMO_USERS)[K]["id"] } = {
  new: DEMO_USERS.new.id,
  balances: DEMO_USERS.balances.id,
  restricted: DEMO_USERS.restricted.id,
  no_custody: DEMO_USERS.no_custody.id,
  blocked: DEMO_USERS.blocked.id,
  kyc_level2: DEMO_USERS.kyc_level2.id,
  kyc_blocked: DEMO_USERS.kyc_blocked.id,
  kyc_partial: DEMO_USERS.kyc_partial.id,
  kyc_review: DEMO_USERS.kyc_review.id,
}

/**
 * The phone each demo user shares when the mini-app asks Telegram for their contact (digits, no
 * plus, as Telegram sends it): the dev launch signs it, and the fake client hands it to the app.
 */
export const DEMO_USER_PHONES: { readonly [K in DemoUserKind]: string } = {
  new: "447700900123",
  balances: "4915112345678",
  /** +1: the United States or Canada, the number alone settles no country. */
  restricted: "12025550123",
  /** +7: Kazakhstan or Russia, the number alone settles no country (the country step). */
  no_custody: "77012345678",
  blocked: "4930123456789",
  kyc_level2: "447700900456",
  kyc_blocked: "33612345678",
  kyc_partial: "34612345678",
  kyc_review: "31612345678",
}

export const isDemoUserKind = (value: unknown): value is DemoUserKind => typeof value === "string" && Object.hasOwn(DEMO_USERS, value)
