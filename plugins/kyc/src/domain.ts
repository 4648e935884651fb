/**
 * Identity verification's rules (spec 3 §3, §4.2, §6; spec 1 §5, §6), shared by the server and the
 * mini-app: levels and their order, the level-1 statuses, blocks, and permissions in their server and
 * client forms. Browser-safe and pure: no imports.
 */

/** Spec 3 §3: the level order; a user meets a level when theirs is at or above it. */
export const KYC_LEVELS = ["BLOCKED", "LEVEL_0", "LEVEL_1", "LEVEL_2", "LEVEL_3", "LEVEL_4"] as const
export type KycLevel = (typeof KYC_LEVELS)[number]
/** The levels a user can hold in the store (BLOCKED comes from a block, never stored). */
export const HELD_LEVELS = ["LEVEL_0", "LEVEL_1", "LEVEL_2", "LEVEL_3", "LEVEL_4"] as const
export type HeldLevel = (typeof HELD_LEVELS)[number]

export const levelRank = (level: KycLevel): number => KYC_LEVELS.indexOf(level)
export const meetsLevel = (have: KycLevel, need: KycLevel): boolean => levelRank(have) >= levelRank(need)

/** Spec 3 §4.2: where level 1 stands. */
export const LEVEL1_STATUSES = [
  "PASSED",
  "AWAIT_COMPLETION",
  "PHONE_NUMBER_REQUIRED",
  "SELF_DECLARED_COUNTRY_REQUIRED",
  "SELF_DECLARED_NAME_REQUIRED",
  "POA_REQUIRED",
  "POI_REQUIRED",
  "USER_BLOCKED",
] as const
export type Level1Status = (typeof LEVEL1_STATUSES)[number]

/** Spec 3 §3: permissions in the server's form. */
export const SERVER_PERMISSIONS = [
  "can_buy",
  "can_top_up",
  "can_exchange",
  "can_withdraw_inner",
  "can_withdraw_outer",
  "can_use_wpay_as_payer",
  "can_use_wpay_as_merchant",
  "can_usdt_raffle",
  "can_use_p2p",
] as const
export type ServerPermission = (typeof SERVER_PERMISSIONS)[number]
export type ServerPermissions = Readonly<Record<ServerPermission, boolean>>

/** Spec 3 §3: the restricted-permissions list, in the client's form (a partial block names one). */
export const RESTRICTED_PERMISSIONS = [
  "canBuy",
  "canExchange",
  "canRaffle",
  "canReceive",
  "canUseP2p",
  "canUseWpayAsPayer",
  "canWithdrawInner",
  "canWithdrawOuter",
] as const
export type ClientPermission = (typeof RESTRICTED_PERMISSIONS)[number]
export type ClientPermissions = Readonly<Record<ClientPermission, boolean>>

/** Server name -> client name; the merchant flag has none (spec 3 §3: dropped on the client). */
export const CLIENT_NAME: Readonly<Record<Exclude<ServerPermission, "can_use_wpay_as_merchant">, ClientPermission>> = {
  can_buy: "canBuy",
  can_top_up: "canReceive",
  can_exchange: "canExchange",
  can_withdraw_inner: "canWithdrawInner",
  can_withdraw_outer: "canWithdrawOuter",
  can_use_wpay_as_payer: "canUseWpayAsPayer",
  can_usdt_raffle: "canRaffle",
  can_use_p2p: "canUseP2p",
}

export const toClientPermissions = (server: ServerPermissions): ClientPermissions => {
  const out = {} as Record<ClientPermission, boolean>
  for (const [name, client] of Object.entries(CLIENT_NAME) as Array<[keyof typeof CLIENT_NAME, ClientPermission]>) out[client] = server[name]
  return out
}

export const serverNameOf = (client: ClientPermission): ServerPermission =>
  (Object.entries(CLIENT_NAME) as Array<[ServerPermission, ClientPermission]>).find(([, name]) => name === client)![0]

/**
 * The lowest level that grants each permission (decision 0900): moving money in and out and paying
 * need no verification (with the level's limits, `LEVEL_LIMITS`); P2P and the USDT raffle need level
 * 1; accepting payments as a merchant needs level 2.
 */
export const PERMISSION_LEVEL: Readonly<Record<ServerPermission, HeldLevel>> = {
  can_buy: "LEVEL_0",
  can_top_up: "LEVEL_0",
  can_exchange: "LEVEL_0",
  can_withdraw_inner: "LEVEL_0",
  can_withdraw_outer: "LEVEL_0",
  can_use_wpay_as_payer: "LEVEL_0",
  can_usdt_raffle: "LEVEL_1",
  can_use_p2p: "LEVEL_1",
  can_use_wpay_as_merchant: "LEVEL_2",
}

/**
 * Per-level limits in US cents over a rolling 30 days (decision 0900): outgoing withdrawals to outside
 * addresses and P2P volume. `null` = no limit of the level's own (the product's other limits apply).
 */
export const LEVEL_LIMITS: Readonly<Record<HeldLevel, { readonly withdrawOuterUsdCents: number | null; readonly p2pUsdCents: number | null }>> = {
  LEVEL_0: { withdrawOuterUsdCents: 100_000, p2pUsdCents: 0 },
  LEVEL_1: { withdrawOuterUsdCents: 1_000_000, p2pUsdCents: 1_000_000 },
  LEVEL_2: { withdrawOuterUsdCents: 10_000_000, p2pUsdCents: 10_000_000 },
  LEVEL_3: { withdrawOuterUsdCents: null, p2pUsdCents: 50_000_000 },
  LEVEL_4: { withdrawOuterUsdCents: null, p2pUsdCents: null },
}

/** Spec 3 §4.2, §8: full-block codes and the partial-block reason. */
export const FULL_BLOCK_CODES = ["BR_001", "BR_015", "BR_017", "BR_021"] as const
export type FullBlockCode = (typeof FULL_BLOCK_CODES)[number]
export const PARTIAL_BLOCK_CODES = ["PBR_002"] as const
export type PartialBlockCode = (typeof PARTIAL_BLOCK_CODES)[number]

export interface UnblockingCondition {
  readonly type: "PASS_KYC"
  readonly requiredLevel: HeldLevel
}

export interface FullBlock {
  readonly kind: "full"
  readonly code: FullBlockCode
  /** BR_001: the user unblocks by accepting CS_001. */
  readonly requiredAction: "CS_001" | null
  /** BR_015 (and BR_001 in UZ): passing verification to this level lifts the block. */
  readonly unblockingCondition: UnblockingCondition | null
}

export interface PartialBlock {
  readonly kind: "partial"
  readonly code: PartialBlockCode
  /** PBR_002: the user lifts it by accepting CS_002. */
  readonly requiredAction: "CS_002"
  readonly permission: ClientPermission
}

export type Block = FullBlock | PartialBlock

/**
 * Countries where P2P is closed (spec 1 §5: the country restriction treats RU as restricted) and
 * where the exchange is closed at level 1 and below (none by default; the region config may add).
 */
export const P2P_RESTRICTED_COUNTRIES: ReadonlySet<string> = new Set(["RU"])
export const EXCHANGE_RESTRICTED_COUNTRIES: ReadonlySet<string> = new Set()

/** Spec 3 §3 "Access info": what the user's permissions and residence allow. */
export interface AccessInfo {
  readonly accessToWithdraws: boolean
  readonly accessToExchanges: boolean
  readonly accessToExchangesByCountry: boolean
  readonly accessToP2p: boolean
}

export const accessInfoOf = (permissions: ServerPermissions, country: string | null): AccessInfo => ({
  accessToWithdraws: permissions.can_withdraw_outer,
  accessToExchanges: permissions.can_exchange,
  accessToExchangesByCountry: country === null || !EXCHANGE_RESTRICTED_COUNTRIES.has(country),
  accessToP2p: permissions.can_use_p2p && (country === null || !P2P_RESTRICTED_COUNTRIES.has(country)),
})

/** Spec 3 §4.2: exchange is blocked on iOS or macOS at level 1 when accessToExchangesByCountry is false. */
export const exchangeBlocked = (facts: { readonly platform: string; readonly level: KycLevel; readonly access: AccessInfo }): boolean =>
  !facts.access.accessToExchanges ||
  ((facts.platform === "ios" || facts.platform === "macos") && facts.level === "LEVEL_1" && !facts.access.accessToExchangesByCountry)

/** Spec 3 §4.2: P2P is blocked for restricted regions (and without the permission). */
export const p2pBlocked = (access: AccessInfo): boolean => !access.accessToP2p

/** Spec 3 §4.2: stock trading is available below level 1 (a blocked user aside) or when both access flags are true. */
export const stockTradingAvailable = (facts: { readonly level: KycLevel; readonly access: AccessInfo }): boolean =>
  facts.level === "LEVEL_0" || (facts.level !== "BLOCKED" && facts.access.accessToExchanges && facts.access.accessToExchangesByCountry)

/** Spec 3 §4.2: stock and ETF assets may be sent only if send is allowed; their other actions need stocks available. */
export const assetActionAllowed = (facts: {
  readonly category: string
  readonly action: "send" | "receive" | "exchange" | "buy" | "sell"
  readonly canSend: boolean
  readonly stocksAvailable: boolean
}): boolean => (facts.category !== "stock" && facts.category !== "etf" ? true : facts.action === "send" ? facts.canSend : facts.stocksAvailable)

export interface PermissionFacts {
  readonly level: HeldLevel
  readonly blocks: ReadonlyArray<Block>
  /** Residence country (ISO alpha-2), when known. */
  readonly country: string | null
  /** Staff asked for evidence and hold the account until it is accepted (EDD-blocked, decision 0940). */
  readonly eddBlocking?: boolean
}

/** The level the user is shown: BLOCKED under a full block, else the held level (spec 3 §3). */
export const effectiveLevel = (facts: Pick<PermissionFacts, "level" | "blocks">): KycLevel =>
  facts.blocks.some((block) => block.kind === "full") ? "BLOCKED" : facts.level

/**
 * Permissions in server form from level, blocks and country (issue 19: recomputed whenever any of
 * them changes). A full block closes everything; each partial block closes its permission; a
 * permission needs its level; P2P is closed in restricted countries.
 */
export const computePermissions = (facts: PermissionFacts): ServerPermissions => {
  const level = effectiveLevel(facts)
  const closed = new Set(facts.blocks.flatMap((block) => (block.kind === "partial" ? [serverNameOf(block.permission)] : [])))
  const out = {} as Record<ServerPermission, boolean>
  for (const permission of SERVER_PERMISSIONS) {
    out[permission] = level !== "BLOCKED" && meetsLevel(level, PERMISSION_LEVEL[permission]) && !closed.has(permission)
  }
  if (facts.country !== null && P2P_RESTRICTED_COUNTRIES.has(facts.country)) out.can_use_p2p = false
  // EDD-blocked: money may come in, nothing goes out until the evidence is accepted.
  if (facts.eddBlocking === true) for (const permission of EDD_CLOSED) out[permission] = false
  return out
}

/** What an EDD hold closes (decision 0940): every way money leaves the account. */
export const EDD_CLOSED: ReadonlyArray<ServerPermission> = [
  "can_exchange",
  "can_withdraw_inner",
  "can_withdraw_outer",
  "can_use_wpay_as_payer",
  "can_use_p2p",
  "can_usdt_raffle",
  "can_use_wpay_as_merchant",
]

// Enhanced due diligence (spec 3 §3 verification state; decision 0940): the evidence groups staff ask
// for and the attachment lists of each.

export const EVIDENCE_GROUPS = ["sow", "covi", "sof", "dof", "umq", "psp"] as const
export type EvidenceGroup = (typeof EVIDENCE_GROUPS)[number]

export const EVIDENCE_KINDS = [
  "sowEvidence",
  "sofEvidence",
  "dofEvidence",
  "pspEvidence",
  "bankStatement",
  "proofOfAddress",
  "elderlyEvidence",
  "docsNotSupported",
  "addressOwnership",
  "gambling",
] as const
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number]

/**
 * The attachment lists of each group: source of wealth, customer vulnerability, source of funds,
 * destination of funds, unusual activity questions, payment service provider.
 */
export const GROUP_KINDS: Readonly<Record<EvidenceGroup, ReadonlyArray<EvidenceKind>>> = {
  sow: ["sowEvidence", "bankStatement"],
  covi: ["elderlyEvidence", "docsNotSupported"],
  sof: ["sofEvidence", "bankStatement"],
  dof: ["dofEvidence"],
  umq: ["gambling", "addressOwnership"],
  psp: ["pspEvidence", "proofOfAddress"],
}

/** Files one attachment list holds at most, and one file's size. */
export const MAX_FILES_PER_KIND = 5
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024
export const EVIDENCE_TYPES = ["image/jpeg", "image/png", "image/webp", "application/pdf"] as const

export const EDD_STATUSES = ["requested", "submitted", "approved", "rejected"] as const
export type EddStatus = (typeof EDD_STATUSES)[number]

/** The client permissions a user lacks (spec 3 §3 blockedPermissions). */
export const blockedPermissions = (permissions: ClientPermissions): ReadonlyArray<ClientPermission> =>
  RESTRICTED_PERMISSIONS.filter((name) => !permissions[name])

/** What level 1 still needs, from what the user has given (spec 3 §4.2), or PASSED. */
export const level1StatusOf = (facts: {
  readonly blocked: boolean
  readonly phone: string | null
  readonly countryRequired: boolean
  readonly country: string | null
  readonly name: string | null
  /** The partner verified an identity document (level 2 or above): it stands for the declared name. */
  readonly identityVerified?: boolean
}): Level1Status => {
  if (facts.blocked) return "USER_BLOCKED"
  if (facts.phone === null) return "PHONE_NUMBER_REQUIRED"
  if (facts.countryRequired && facts.country === null) return "SELF_DECLARED_COUNTRY_REQUIRED"
  if (facts.name === null && facts.identityVerified !== true) return "SELF_DECLARED_NAME_REQUIRED"
  return "PASSED"
}

/** A self-declared name part: letters of any script, marks, spaces, hyphens, apostrophes; one letter at least. */
export const NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M}' -]+$/u

// ---------------------------------------------------------------------------------------------
// The verification screen's steps (spec 3 §2.2, §4.2).

export const KYC_STEPS = ["phoneNumber", "country", "basicInfo", "nationalId"] as const
export type KycStep = (typeof KYC_STEPS)[number]
export type StepStatus = "disabled" | "pending" | "active" | "completed"

export interface StepFacts {
  readonly level: KycLevel
  readonly level1Status: Level1Status
  /** The level the flow leads to after level 1 (LEVEL_1 when only level 1 is asked for). */
  readonly requiredLevel: HeldLevel
  /** The country step shows when required, or when the verification state flags it. */
  readonly shouldShowCountryStep: boolean
  readonly forcedStep?: KycStep
}

/** Spec 3 §4.2: the active step from level1Status; a forced step overrides it. */
export const activeStep = (facts: StepFacts): KycStep | null => {
  if (facts.forcedStep !== undefined) return facts.forcedStep
  switch (facts.level1Status) {
    case "PHONE_NUMBER_REQUIRED":
      return "phoneNumber"
    case "SELF_DECLARED_COUNTRY_REQUIRED":
      return "country"
    case "SELF_DECLARED_NAME_REQUIRED":
      return facts.requiredLevel === "LEVEL_1" ? "basicInfo" : "nationalId"
    case "PASSED":
      return meetsLevel(facts.level, facts.requiredLevel) ? null : "nationalId"
    default:
      return null
  }
}

/** Spec 3 §4.2: phone always; country if required or flagged; basicInfo below LEVEL_2; nationalId at LEVEL_2 or LEVEL_3. */
export const shownSteps = (facts: StepFacts): ReadonlyArray<KycStep> =>
  KYC_STEPS.filter((step) => {
    switch (step) {
      case "phoneNumber":
        return true
      case "country":
        return facts.shouldShowCountryStep || facts.level1Status === "SELF_DECLARED_COUNTRY_REQUIRED"
      case "basicInfo":
        return levelRank(facts.requiredLevel) < levelRank("LEVEL_2")
      case "nationalId":
        return facts.requiredLevel === "LEVEL_2" || facts.requiredLevel === "LEVEL_3"
    }
  })

/**
 * Spec 3 §4.2: each shown step's status: completed before the active one, active (pending for the
 * phone step while the phone saves), disabled after it; all completed when no step is active.
 */
export const stepStatuses = (
  facts: StepFacts,
  options: { readonly savingPhone?: boolean } = {},
): ReadonlyArray<{ readonly step: KycStep; readonly status: StepStatus }> => {
  const steps = shownSteps(facts)
  const active = activeStep(facts)
  // No active step, or one not on the list: every shown step is done.
  const at = active === null || !steps.includes(active) ? steps.length : steps.indexOf(active)
  return steps.map((step, index) => ({
    step,
    status: index < at ? "completed" : index > at ? "disabled" : step === "phoneNumber" && options.savingPhone === true ? "pending" : "active",
  }))
}
