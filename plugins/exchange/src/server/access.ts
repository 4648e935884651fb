/**
 * Who may exchange (spec 1 §5/§6, spec 3 §4.2): the kernel's user row (custody available, not blocked
 * or restricted, the canExchange permission the kyc plugin keeps), the verification level from the
 * `VerificationLimits` port, the country by IP against the region's list, and the client's platform.
 * The server refuses here; the screen's gates are a convenience.
 */
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { VerificationLimits } from "@wallet/kernel-server"
import { ExchangeForbidden } from "../api.ts"
import { exchangeRefusal, stocksRefusal, type AccessFacts, type AccessRefusal } from "../domain.ts"
import { exchangeConfig } from "./config.ts"

interface UserRow {
  is_custody_available: boolean
  is_blocked: boolean
  restriction_code: string | null
  permissions: unknown
  country_alpha2_ip: string | null
}

const json = (value: unknown): Record<string, unknown> =>
  typeof value === "string" ? (JSON.parse(value) as Record<string, unknown>) : ((value ?? {}) as Record<string, unknown>)

export const accessFacts = (userId: number, platform: string | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* exchangeConfig
    const [row] = yield* sql<UserRow>`select is_custody_available, is_blocked, restriction_code, permissions, country_alpha2_ip
      from kernel_users where id = ${userId}`
    const limits = Option.getOrElse(yield* Effect.serviceOption(VerificationLimits), () => VerificationLimits.none)
    // The port answers the level with any limit kind; only the level is read here.
    const { level } = yield* limits.allowance(userId, "withdraw_outer")
    const open = row !== undefined && row.is_custody_available && !row.is_blocked && row.restriction_code === null
    const canExchange = open && json(row.permissions).canExchange !== false
    const facts: AccessFacts = {
      accessToExchanges: canExchange,
      accessToExchangesByCountry: canExchange && (row.country_alpha2_ip === null || !config.restrictedCountries.includes(row.country_alpha2_ip)),
      level,
      platform: (platform ?? "unknown").toLowerCase(),
    }
    return facts
  })

const MESSAGES: Readonly<Record<AccessRefusal, string>> = {
  exchange_unavailable: "The exchange is not available to this user",
  region_restricted: "The exchange is not available in this region on this platform at this verification level",
  stocks_unavailable: "Stock and ETF trading is not available to this user",
}

/** Fails with `ExchangeForbidden` when the exchange (or, for a stock pair, stock trading) is closed to the user. */
export const requireExchange = (userId: number, platform: string | undefined, stocks: boolean) =>
  Effect.gen(function* () {
    const facts = yield* accessFacts(userId, platform)
    const refusal = exchangeRefusal(facts) ?? (stocks ? stocksRefusal(facts) : null)
    if (refusal !== null) return yield* Effect.fail(new ExchangeForbidden({ code: refusal, message: MESSAGES[refusal] }))
  })
