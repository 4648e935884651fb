/**
 * The market's view of a user (spec 3 §3 "P2P user", "P2P settings", §4.1): access from the kernel's
 * user row (custody availability, restriction, the canUseP2p permission the kyc plugin keeps, the
 * country), the per-user P2P row, settings, stats, and payment details.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import {
  P2pForbidden,
  P2pNotFound,
  P2pRefused,
  type P2pSettings,
  type P2pSettingsPatch,
  type PaymentDetails,
  type SavePaymentDetails,
  type Trader,
} from "../api.ts"
import { checkFields, paymentMethod, pushRecent, type UnavailableWhy } from "../domain.ts"
import { marketConfig } from "./config.ts"
import { EMPTY_STATS, reputationStats } from "./reputationStats.ts"
import { trustedOf } from "./trusted.ts"

interface KernelUserRow {
  first_name: string
  last_name: string | null
  country_alpha2_ip: string | null
  restriction_code: string | null
  is_custody_available: boolean
  is_blocked: boolean
  permissions: unknown
}

const json = (value: unknown): Record<string, unknown> =>
  typeof value === "string" ? (JSON.parse(value) as Record<string, unknown>) : ((value ?? {}) as Record<string, unknown>)

export const nameOf = (row: { first_name: string; last_name: string | null }) => [row.first_name, row.last_name].filter((p) => p !== null && p !== "").join(" ")

/** Spec 3 §4.1: why the market is closed to the user (null: open). A restriction or a lost permission is `region`. */
export const accessOf = (row: KernelUserRow | undefined, restrictedCountries: ReadonlyArray<string>): UnavailableWhy | null => {
  if (row === undefined || !row.is_custody_available || row.is_blocked) return "generic"
  if (row.restriction_code !== null) return "region"
  if (json(row.permissions).canUseP2p === false) return "region"
  if (row.country_alpha2_ip !== null && restrictedCountries.includes(row.country_alpha2_ip)) return "region"
  return null
}

export const kernelUser = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<KernelUserRow>`select first_name, last_name, country_alpha2_ip, restriction_code, is_custody_available, is_blocked, permissions
      from kernel_users where id = ${userId}`
    return rows[0]
  })

/** The market's door: a user it is closed to gets 403 with why (the screen shows /p2p/unavailable). */
export const requireMarket = (userId: number) =>
  Effect.gen(function* () {
    const config = yield* marketConfig
    const why = accessOf(yield* kernelUser(userId), config.restrictedCountries)
    if (why !== null) return yield* Effect.fail(new P2pForbidden({ code: "p2p_unavailable", message: "The P2P market is not available to this user", why }))
  })

/** The user's P2P row (created on first use). */
export const ensureP2pUser = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* sql`insert into p2p_users (user_id, created_at) values (${userId}, ${new Date(config.now())}) on conflict (user_id) do nothing`
    const [row] = yield* sql<{ initialized_at: Date | null; experienced: boolean; settings: unknown }>`
      select initialized_at, experienced, settings from p2p_users where user_id = ${userId}`
    return row!
  })

/**
 * Each user's reputation (issue 21, `reputationStats.ts`), computed from the orders in one grouped query:
 * completedOrders and completionRate (all time; the fields every screen and the trusted-merchant criteria
 * read), the same over 30 days, average release and payment times, feedback. Since migration 4 the numbers come
 * from the orders (`failed_by`, the anti-wash caps per pair), no longer from the `p2p_user_stats` counters.
 */
export const statsOf = (userIds: ReadonlyArray<number>) => reputationStats(userIds)

export const tradersOf = (userIds: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const unique = [...new Set(userIds)]
    const stats = yield* statsOf(unique)
    const rows =
      unique.length === 0
        ? []
        : yield* sql<{ id: string; first_name: string; last_name: string | null }>`
            select id::text as id, first_name, last_name from kernel_users where id = any(${unique as Array<number>}::bigint[])`
    const names = new Map(rows.map((row) => [Number(row.id), nameOf(row)]))
    const trusted = yield* trustedOf(unique)
    const out = new Map<number, Trader>()
    for (const id of unique) out.set(id, { userId: id, name: names.get(id) ?? String(id), ...(stats.get(id) ?? EMPTY_STATS), trustedMerchant: trusted.has(id) })
    return out
  })

// --- settings ------------------------------------------------------------------------------------

const DEFAULT_SETTINGS: P2pSettings = {
  defaultCurrencyForSaleOfferCreation: null,
  defaultCurrencyForPurchaseOfferCreation: null,
  createOfferTypeInUserProfile: "PURCHASE",
  expressCalculationType: "BY_AMOUNT",
  isHoldModalShown: false,
  nameDisclosureWarningDismissed: false,
  autoAcceptOnboardingCompletedDate: null,
  paymentMethodGroupsByCurrency: {},
  recentFiats: [],
}

export const settingsOf = (userId: number) =>
  Effect.map(ensureP2pUser(userId), (row): P2pSettings => ({ ...DEFAULT_SETTINGS, ...(json(row.settings) as Partial<P2pSettings>) }))

export const updateSettings = (userId: number, patch: P2pSettingsPatch) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* ensureP2pUser(userId)
        yield* sql`select 1 from p2p_users where user_id = ${userId} for update`
        const current = yield* settingsOf(userId)
        const { recentFiat, autoAcceptOnboardingCompleted, ...rest } = patch
        const next: P2pSettings = {
          ...current,
          ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
          ...(recentFiat !== undefined ? { recentFiats: pushRecent(current.recentFiats, recentFiat) } : {}),
          ...(autoAcceptOnboardingCompleted === true && current.autoAcceptOnboardingCompletedDate === null
            ? { autoAcceptOnboardingCompletedDate: new Date(config.now()).toISOString() }
            : {}),
        }
        yield* sql`update p2p_users set settings = ${JSON.stringify(next)}::jsonb where user_id = ${userId}`
        return next
      }),
    )
  })

// --- payment details -----------------------------------------------------------------------------

interface DetailsRow {
  id: string
  user_id: string
  method: string
  fiat: string
  fields: unknown
}

export const detailsOf = (row: DetailsRow): PaymentDetails => ({
  id: Number(row.id),
  paymentMethod: { code: row.method as PaymentDetails["paymentMethod"]["code"], name: paymentMethod(row.method)?.name ?? row.method },
  fiat: row.fiat,
  fields: json(row.fields) as Record<string, string>,
})

export const listPayments = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<DetailsRow>`select id::text as id, user_id::text as user_id, method, fiat, fields from p2p_payment_details
      where user_id = ${userId} and deleted_at is null order by id`
    return { items: rows.map(detailsOf) }
  })

export const paymentById = (userId: number, id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<DetailsRow>`select id::text as id, user_id::text as user_id, method, fiat, fields from p2p_payment_details
      where id = ${id} and user_id = ${userId} and deleted_at is null`
    if (row === undefined) return yield* Effect.fail(new P2pNotFound({ code: "payment_details_not_found", message: `No payment details ${id}` }))
    return detailsOf(row)
  })

const MAX_DETAILS = 20

const checked = (request: SavePaymentDetails) => {
  const method = paymentMethod(request.code)
  if (method === undefined || !method.fiats.includes(request.fiat)) {
    return Effect.fail(new P2pRefused({ code: "invalid_payment_details", message: `${request.code} does not serve ${request.fiat}`, fields: ["fiat"] }))
  }
  const result = checkFields(method, request.fields)
  return result.ok
    ? Effect.succeed(result.fields)
    : Effect.fail(new P2pRefused({ code: "invalid_payment_details", message: `Check these fields: ${result.invalid.join(", ")}`, fields: result.invalid }))
}

export const createPayment = (userId: number, request: SavePaymentDetails) =>
  Effect.gen(function* () {
    yield* requireMarket(userId)
    const fields = yield* checked(request)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = new Date(config.now())
    const [count] = yield* sql<{ n: number }>`select count(*)::int as n from p2p_payment_details where user_id = ${userId} and deleted_at is null`
    if ((count?.n ?? 0) >= MAX_DETAILS) {
      return yield* Effect.fail(new P2pRefused({ code: "invalid_payment_details", message: `At most ${MAX_DETAILS} payment methods` }))
    }
    const [row] = yield* sql<DetailsRow>`insert into p2p_payment_details (user_id, method, fiat, fields, created_at, updated_at)
      values (${userId}, ${request.code}, ${request.fiat}, ${JSON.stringify(fields)}::jsonb, ${now}, ${now})
      returning id::text as id, user_id::text as user_id, method, fiat, fields`
    return detailsOf(row!)
  })

export const updatePayment = (userId: number, id: number, request: SavePaymentDetails) =>
  Effect.gen(function* () {
    const fields = yield* checked(request)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const [row] =
      yield* sql<DetailsRow>`update p2p_payment_details set method = ${request.code}, fiat = ${request.fiat}, fields = ${JSON.stringify(fields)}::jsonb,
        updated_at = ${new Date(config.now())}
      where id = ${id} and user_id = ${userId} and deleted_at is null
      returning id::text as id, user_id::text as user_id, method, fiat, fields`
    if (row === undefined) return yield* Effect.fail(new P2pNotFound({ code: "payment_details_not_found", message: `No payment details ${id}` }))
    return detailsOf(row)
  })

/** Deleting keeps the row (orders keep their own copy of the details). */
export const deletePayment = (userId: number, id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const gone =
      yield* sql`update p2p_payment_details set deleted_at = ${new Date(config.now())} where id = ${id} and user_id = ${userId} and deleted_at is null returning id`
    if (gone.length === 0) return yield* Effect.fail(new P2pNotFound({ code: "payment_details_not_found", message: `No payment details ${id}` }))
    return yield* listPayments(userId)
  })
