/**
 * The custody contract's 403 (part of `@wallet/plugin-custody/api`): its own file because both the
 * accounts-and-transfers groups (../api.ts) and the on-chain group (./chain.ts) answer it.
 */
import { Schema } from "effect"

export const CustodyForbiddenCode = Schema.Literals([
  /** An access flag (spec 1 §3) is off for this user: `flag` names it (functionality-unavailable popup). */
  "access_denied",
  /** The user is restricted (restriction_code set, e.g. unsupported_region): custody movements refused. */
  "user_restricted",
  /** Custody is not available to this user (is_custody_available false). */
  "custody_unavailable",
  /** The transfer exists but the caller is not in the role the call needs (approve: receiver; cancel: sender). */
  "wrong_transfer_role",
])
export type CustodyForbiddenCode = typeof CustodyForbiddenCode.Type

export const AccessFlagName = Schema.Literals([
  "accessToWithdraws",
  "accessToExchanges",
  "accessToExchangesByCountry",
  "accessToRewardPayments",
  "accessToUnstake",
  "accessToP2p",
  "accessToCreateAddress",
  "accessToSetUserCurrency",
  "accessToSavingSettings",
  "accessToTransactionList",
  "accessToAssetCharts",
  "accessToTradeStocksAndEtfs",
  "accessToTradeStocksAndEtfsByCountry",
])
export type AccessFlagName = typeof AccessFlagName.Type

export class CustodyForbidden extends Schema.TaggedError<CustodyForbidden>()(
  "CustodyForbidden",
  { code: CustodyForbiddenCode, message: Schema.String, flag: Schema.optionalKey(AccessFlagName) },
  { httpApiStatus: 403, description: "Refused for this user; `code` says why (`flag` names the access flag that is off)" },
) {}
