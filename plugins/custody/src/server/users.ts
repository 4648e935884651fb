/**
 * What custody needs to know about a user (kernel_users): custody availability, restriction,
 * permissions, the settings fiat, names for transfers and history; and the spec 1 §3 access flags.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { CustodyForbidden, type AccessFlagName, type AccessFlags } from "../api.ts"
import { isKnownFiat } from "./rates/fiat.ts"

export interface CustodyUser {
  readonly id: number
  readonly firstName: string
  readonly lastName: string | null
  readonly username: string | null
  readonly photoUrl: string | null
  readonly countryCode: string | null
  readonly restrictionCode: string | null
  readonly isCustodyAvailable: boolean
  readonly isBlocked: boolean
  readonly permissions: Readonly<Record<string, boolean>>
  /** The user's settings fiat (USD when unset or not a known code). */
  readonly fiatCurrency: string
}

interface UserRow {
  id: string | number | bigint
  first_name: string
  last_name: string | null
  username: string | null
  photo_url: string | null
  country_alpha2_ip: string | null
  restriction_code: string | null
  is_custody_available: boolean
  is_blocked: boolean
  permissions: unknown
  local_currency: string | null
}

const json = (value: unknown): Record<string, unknown> =>
  typeof value === "string" ? (JSON.parse(value) as Record<string, unknown>) : ((value ?? {}) as Record<string, unknown>)

const toUser = (row: UserRow): CustodyUser => ({
  id: Number(row.id),
  firstName: row.first_name,
  lastName: row.last_name,
  username: row.username,
  photoUrl: row.photo_url,
  countryCode: row.country_alpha2_ip,
  restrictionCode: row.restriction_code,
  isCustodyAvailable: row.is_custody_available === true,
  isBlocked: row.is_blocked === true,
  permissions: Object.fromEntries(Object.entries(json(row.permissions)).filter((entry): entry is [string, boolean] => typeof entry[1] === "boolean")),
  fiatCurrency: row.local_currency !== null && isKnownFiat(row.local_currency) ? row.local_currency : "USD",
})

const columns = `id, first_name, last_name, username, photo_url, country_alpha2_ip, restriction_code, is_custody_available, is_blocked, permissions, local_currency`

/**
 * SQL for the user whose id is `idColumn` as one jsonb value (null when there is none): lets a query
 * that reads other rows bring their users along in the same round trip. Read it with `userOfJson`.
 */
export const userJson = (idColumn: string) => `(select to_jsonb(u) from (select ${columns} from kernel_users where id = ${idColumn}) u)`

/** The user a `userJson` column holds (undefined for null). */
export const userOfJson = (value: unknown): CustodyUser | undefined =>
  value === null || value === undefined ? undefined : toUser((typeof value === "string" ? JSON.parse(value) : value) as UserRow)

export const findUser = (id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<UserRow>(`select ${columns} from kernel_users where id = $1`, [id])
    return rows.length === 0 ? undefined : toUser(rows[0]!)
  }).pipe(Effect.orDie)

export const findUsers = (ids: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (ids.length === 0) return new Map<number, CustodyUser>()
    const rows = yield* sql.unsafe<UserRow>(`select ${columns} from kernel_users where id = any($1::bigint[])`, [ids.map(String)])
    return new Map(rows.map((row) => [Number(row.id), toUser(row)]))
  }).pipe(Effect.orDie)

/** The caller (authenticated, so the row exists; a vanished user is treated as restricted and without custody). */
export const currentUser = (id: number) =>
  Effect.map(
    findUser(id),
    (user): CustodyUser =>
      user ?? {
        id,
        firstName: "",
        lastName: null,
        username: null,
        photoUrl: null,
        countryCode: null,
        restrictionCode: "unknown_user",
        isCustodyAvailable: false,
        isBlocked: true,
        permissions: {},
        fiatCurrency: "USD",
      },
  )

export const displayName = (user: Pick<CustodyUser, "firstName" | "lastName">): string =>
  [user.firstName, user.lastName].filter((part) => part !== null && part !== "").join(" ")

const allowed = (user: CustodyUser, permission: string) => user.permissions[permission] !== false

/** Spec 1 §3 access flags from restriction, custody availability and the init permissions. */
export const accessFlags = (user: CustodyUser): AccessFlags => {
  const open = user.isCustodyAvailable && user.restrictionCode === null && !user.isBlocked
  return {
    accessToWithdraws: open && allowed(user, "canWithdrawInner") && allowed(user, "canWithdrawOuter"),
    accessToExchanges: open && allowed(user, "canExchange"),
    accessToExchangesByCountry: open && allowed(user, "canExchange"),
    accessToRewardPayments: open,
    accessToUnstake: open,
    accessToP2p: open && allowed(user, "canUseP2p") && user.countryCode !== "RU",
    accessToCreateAddress: open && allowed(user, "canReceive"),
    accessToSetUserCurrency: allowed(user, "accessToSetUserCurrency"),
    accessToSavingSettings: allowed(user, "accessToSavingSettings"),
    accessToTransactionList: !user.isBlocked,
    accessToAssetCharts: !user.isBlocked,
    accessToTradeStocksAndEtfs: open,
    accessToTradeStocksAndEtfsByCountry: open,
  }
}

/** Custody available, not restricted; then the named flag (when given) must be on. */
export const requireAccess = (user: CustodyUser, flag?: AccessFlagName, permission?: string): Effect.Effect<void, CustodyForbidden> => {
  if (!user.isCustodyAvailable || user.isBlocked) {
    return Effect.fail(new CustodyForbidden({ code: "custody_unavailable", message: "The custodial wallet is not available to this user" }))
  }
  if (user.restrictionCode !== null) {
    return Effect.fail(new CustodyForbidden({ code: "user_restricted", message: `Custody movements are not available to this user (${user.restrictionCode})` }))
  }
  if (permission !== undefined && !allowed(user, permission)) {
    return Effect.fail(
      new CustodyForbidden({ code: "access_denied", message: `This functionality is unavailable (${permission})`, ...(flag !== undefined ? { flag } : {}) }),
    )
  }
  if (flag !== undefined && !accessFlags(user)[flag]) {
    return Effect.fail(new CustodyForbidden({ code: "access_denied", message: `This functionality is unavailable (${flag})`, flag }))
  }
  return Effect.void
}

/** The history needs only accessToTransactionList (restricted users still see theirs). */
export const requireAccessToList = (user: CustodyUser): Effect.Effect<void, CustodyForbidden> =>
  accessFlags(user).accessToTransactionList
    ? Effect.void
    : Effect.fail(new CustodyForbidden({ code: "access_denied", message: "The transaction list is unavailable", flag: "accessToTransactionList" }))
