/** The accounts group: assets, totals, access flags, frozen balances (re-exported by ../api.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { authenticated } from "@wallet/kernel/api"
import {
  AssetCategory,
  CurrencyCode,
  DecimalString,
  FiatCode,
  Instant,
  NetworkCode,
  SignedDecimalString,
  CustodyBadRequest,
  CustodyNotFound,
} from "./fields.ts"

// --- accounts data (spec 1 §3 "Asset", "Accounts response totals") ---------------------------

export const AssetAction = Schema.Struct({
  isEnabled: Schema.Boolean,
  isPopular: Schema.Boolean,
  /** Not yet available until this instant (spec 1 §4 "Action availability"); null otherwise. */
  scheduledAt: Schema.NullOr(Instant),
})
export type AssetAction = typeof AssetAction.Type

export const AssetActionName = Schema.Literals(["send", "receive", "exchange", "buy", "sell"])
export type AssetActionName = typeof AssetActionName.Type

export const AssetActions = Schema.Struct({
  send: AssetAction,
  receive: AssetAction,
  exchange: AssetAction,
  buy: AssetAction,
  sell: AssetAction,
})
export type AssetActions = typeof AssetActions.Type

export const AssetAddress = Schema.Struct({
  address: Schema.String,
  networkCode: NetworkCode,
  /** An older address this one replaces (shown as deprecated), or null. */
  walletToReplace: Schema.NullOr(Schema.String),
})
export type AssetAddress = typeof AssetAddress.Type

export const Asset = Schema.Struct({
  currency: CurrencyCode,
  name: Schema.String,
  decimals: Schema.Int,
  category: AssetCategory,
  /** Available balance (excludes held and frozen amounts), crypto decimal string. */
  balance: DecimalString,
  /** Price of one unit in `fiatCurrency`. */
  rate: DecimalString,
  /** 24h change of `rate` in `fiatCurrency`, signed. */
  absoluteChange: SignedDecimalString,
  /** 24h change in percent, 2 decimals (e.g. -1.25). */
  percentChange: Schema.Number,
  /** Value of `balance` in USD, 2 decimals; sort and hide by this (spec 1 §5). */
  usdBalance: DecimalString,
  fiatBalance: DecimalString,
  fiatCurrency: FiatCode,
  /** The user has an account in this currency (first use opens it). */
  isCreated: Schema.Boolean,
  /** Pinned on main whatever the balance (the default set, spec 1 §5). */
  isAlwaysOnMain: Schema.Boolean,
  /** Pinned while the balance is zero (BTC, ETH, XAUT). */
  isPinnedWithoutBalance: Schema.Boolean,
  /** Show the 'new' badge while the balance is zero; cleared by `setNewCurrencySeen`. */
  isNewCurrency: Schema.Boolean,
  /** Networks deposits and withdrawals run on, the default first. */
  networks: Schema.Array(NetworkCode),
  /** Deposit addresses known so far (the chain half creates them). */
  addresses: Schema.Array(AssetAddress),
  actions: AssetActions,
  /** Market capitalisation in `fiatCurrency`, 2 decimals, or null when unknown. */
  marketCap: Schema.NullOr(DecimalString),
  description: Schema.NullOr(Schema.String),
})
export type Asset = typeof Asset.Type

/** Spec 1 §3 access flags; false -> the functionality-unavailable popup. */
export const AccessFlags = Schema.Struct({
  accessToWithdraws: Schema.Boolean,
  accessToExchanges: Schema.Boolean,
  accessToExchangesByCountry: Schema.Boolean,
  accessToRewardPayments: Schema.Boolean,
  accessToUnstake: Schema.Boolean,
  accessToP2p: Schema.Boolean,
  accessToCreateAddress: Schema.Boolean,
  accessToSetUserCurrency: Schema.Boolean,
  accessToSavingSettings: Schema.Boolean,
  accessToTransactionList: Schema.Boolean,
  accessToAssetCharts: Schema.Boolean,
  accessToTradeStocksAndEtfs: Schema.Boolean,
  accessToTradeStocksAndEtfsByCountry: Schema.Boolean,
})
export type AccessFlags = typeof AccessFlags.Type

export const AccountsData = Schema.Struct({
  /** Every custodial currency, in the order of currencies.ts (the client applies spec 1 §5 sorting). */
  assets: Schema.Array(Asset),
  /** Sum of the assets' fiat balances, 2 decimals. */
  availableBalanceTotalFiatAmount: DecimalString,
  /** Sum of the assets' usd balances, 2 decimals. */
  availableBalanceTotalUsdAmount: DecimalString,
  availableBalanceTotalFiatCurrency: FiatCode,
  /** Promotional fee, null when none. */
  promoFee: Schema.NullOr(DecimalString),
  accessFlags: AccessFlags,
  isCustodyAvailable: Schema.Boolean,
  /** restriction_code of the user (e.g. unsupported_region), null when not restricted. */
  restrictionCode: Schema.NullOr(Schema.String),
})
export type AccountsData = typeof AccountsData.Type

/** Optional fiat override; default: the user's settings fiatCurrency (USD when unset or unknown). */
export const FiatQuery = Schema.Struct({ fiatCurrency: Schema.optionalKey(FiatCode) })

export const NewCurrencySeenQuery = Schema.Struct({ currency: CurrencyCode })

export const FrozenReason = Schema.Literals(["FR_1", "FR_2", "FR_3", "FR_4"])
export type FrozenReason = typeof FrozenReason.Type

export const FrozenBalance = Schema.Struct({
  reason: FrozenReason,
  currency: CurrencyCode,
  amount: DecimalString,
  /** Value in `fiatCurrency`, 2 decimals (server form fiat_amount per the spec). */
  fiat_amount: DecimalString,
  fiatCurrency: FiatCode,
})
export type FrozenBalance = typeof FrozenBalance.Type
export const FrozenBalances = Schema.Struct({ items: Schema.Array(FrozenBalance) })
export type FrozenBalances = typeof FrozenBalances.Type

export const AccountsGroup = authenticated(
  HttpApiGroup.make("custodyAccounts").add(
    HttpApiEndpoint.get("accounts", "/api/custody/accounts", { query: FiatQuery, success: AccountsData, error: [CustodyBadRequest] }),
    HttpApiEndpoint.post("setNewCurrencySeen", "/api/custody/accounts/new-currency-seen", {
      query: NewCurrencySeenQuery,
      success: HttpApiSchema.NoContent,
      error: CustodyNotFound,
    }),
    HttpApiEndpoint.get("frozenBalances", "/api/custody/frozen-balances", { query: FiatQuery, success: FrozenBalances, error: CustodyBadRequest }),
  ),
)
