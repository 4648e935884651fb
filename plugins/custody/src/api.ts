/**
 * `@wallet/plugin-custody/api`: the custodial wallet's HTTP contract (spec 1 sections 3, 4, 7, 8, 9):
 * accounts data, frozen balances, rates and charts, receiver search, custody transfers to a
 * Telegram user, the transactions history and notification settings. Browser-safe: imports only
 * `effect` and `@wallet/kernel/api`. Every endpoint needs `Authorization: Bearer <access token>`.
 *
 * ## Amounts on the wire (never JS numbers)
 * - Crypto amounts (`amount`, `balance`): decimal strings in the currency's own unit with at most
 *   the currency's `decimals` (currencies.ts), no exponent, no sign unless stated: "1.5" TON is
 *   1_500_000_000 nano. The server answers the shortest exact form ("1.5", "0", "0.000000001").
 *   Requests with more fractional digits than the currency has are refused (`invalid_amount`).
 * - Fiat amounts (`fiatBalance`, `usdBalance`, totals, `fiatAmount`): decimal strings with exactly
 *   2 decimals ("12.30"), rounded half up from the exact value.
 * - Prices (`rate`, `prices`, chart points): decimal strings with up to 12 significant fractional
 *   digits; `absoluteChange` is the signed 24h price change per unit ("-0.0123").
 * - `percentChange` is a plain number (a ratio for display, not money), percent with 2 decimals.
 * Parse with `parseAmount` / format with `formatAmount` (exact, bigint) from `./currencies.ts`.
 *
 * ## Errors (each with a machine `code` and a human `message`)
 * `CustodyForbidden` 403 (./api/forbidden.ts: access flag off, restricted user, custody unavailable, not your transfer),
 * `CustodyNotFound` 404, `CustodyConflict` 409 (transfer no longer pending, idempotency conflict,
 * insufficient funds), `CustodyBadRequest` 400 (transfer to yourself, invalid amount, unknown currency
 * or fiat, bad cursor).
 *
 * The on-chain group (`custodyChain`: deposit addresses, address check, withdraw limits and requests)
 * is in ./api/chain.ts, re-exported here: one contract object (`CustodyApi`), one `./api` entry.
 */
import { HttpApi } from "effect/http-api"
import { ApiId } from "@wallet/kernel/api"
import { AccountsGroup } from "./api/accounts.ts"
import { CustodyChainGroup } from "./api/chain.ts"
import { NotificationsGroup } from "./api/notifications.ts"
import { RatesGroup } from "./api/rates.ts"
import { TransactionsGroup } from "./api/transactions.ts"
import { TransfersGroup } from "./api/transfers.ts"

export { formatAmount, parseAmount } from "./currencies.ts"
export { AccessFlagName, CustodyForbidden, CustodyForbiddenCode } from "./api/forbidden.ts"
// One contract split for reading into one file per group (src/api/*.ts), every name re-exported here.
export * from "./api/fields.ts"
export * from "./api/accounts.ts"
export * from "./api/rates.ts"
export * from "./api/transfers.ts"
export * from "./api/transactions.ts"
export * from "./api/notifications.ts"
// The on-chain group (deposit addresses, address check, withdrawals).
export * from "./api/chain.ts"

export const CUSTODY_API_PREFIX = "/api/custody"

/** The custody plugin's one contract, every group (the client: `HttpApiClient.make(CustodyApi, { baseUrl })`). */
export const CustodyApi = HttpApi.make(ApiId).add(AccountsGroup, RatesGroup, TransfersGroup, TransactionsGroup, NotificationsGroup, CustodyChainGroup)
