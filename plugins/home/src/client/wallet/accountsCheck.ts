/**
 * Wallet main's two answers (custody accounts and frozen balances) as main checks them, with the
 * kernel's `Check` instead of Effect Schema (decision 0007, as decision 0003 did for sign-in): the
 * custody contract and the Schema library it needs (~80 kB gzip) stay off the path to the first
 * balance. They mirror `@wallet/plugin-custody/api` (accounts.ts, fields.ts), which stays the contract
 * (server, OpenAPI, the other screens); accountsCheck.test.ts runs both on the same answers.
 */
import { Check } from "@wallet/kernel"
import type { AccountsData, FrozenBalances } from "@wallet/plugin-custody/api"

/** The custody contract's path prefix (`CUSTODY_API_PREFIX`; the test keeps them equal). */
export const CUSTODY_PREFIX = "/api/custody"

const pattern = (re: RegExp, what: string) => Check.refine(Check.string, (s) => re.test(s), what)
const DecimalString = pattern(/^(0|[1-9][0-9]{0,38})(\.[0-9]{1,36})?$/, "a decimal string such as 1.5 (no sign, no exponent)")
const SignedDecimalString = pattern(/^-?(0|[1-9][0-9]{0,38})(\.[0-9]{1,36})?$/, "a signed decimal string such as -1.5")
const CurrencyCode = pattern(/^[A-Za-z0-9]{1,16}$/, "a currency code such as TON")
const FiatCode = pattern(/^[A-Z]{3}$/, "an ISO 4217 code such as USD")
const NetworkCode = Check.literals(["ton", "tron", "ethereum", "solana", "bitcoin"])

const AssetAction = Check.struct({ isEnabled: Check.boolean, isPopular: Check.boolean, scheduledAt: Check.nullOr(Check.string) })

const Asset = Check.struct({
  currency: CurrencyCode,
  name: Check.string,
  decimals: Check.int,
  category: Check.literals(["onchain", "trading", "stock", "etf"]),
  balance: DecimalString,
  rate: DecimalString,
  absoluteChange: SignedDecimalString,
  percentChange: Check.finite,
  usdBalance: DecimalString,
  fiatBalance: DecimalString,
  fiatCurrency: FiatCode,
  isCreated: Check.boolean,
  isAlwaysOnMain: Check.boolean,
  isPinnedWithoutBalance: Check.boolean,
  isNewCurrency: Check.boolean,
  networks: Check.array(NetworkCode),
  addresses: Check.array(Check.struct({ address: Check.string, networkCode: NetworkCode, walletToReplace: Check.nullOr(Check.string) })),
  actions: Check.struct({ send: AssetAction, receive: AssetAction, exchange: AssetAction, buy: AssetAction, sell: AssetAction }),
  marketCap: Check.nullOr(DecimalString),
  description: Check.nullOr(Check.string),
})

const AccessFlags = Check.struct({
  accessToWithdraws: Check.boolean,
  accessToExchanges: Check.boolean,
  accessToExchangesByCountry: Check.boolean,
  accessToRewardPayments: Check.boolean,
  accessToUnstake: Check.boolean,
  accessToP2p: Check.boolean,
  accessToCreateAddress: Check.boolean,
  accessToSetUserCurrency: Check.boolean,
  accessToSavingSettings: Check.boolean,
  accessToTransactionList: Check.boolean,
  accessToAssetCharts: Check.boolean,
  accessToTradeStocksAndEtfs: Check.boolean,
  accessToTradeStocksAndEtfsByCountry: Check.boolean,
})

export const AccountsDataCheck: Check.Check<AccountsData> = Check.struct({
  assets: Check.array(Asset),
  availableBalanceTotalFiatAmount: DecimalString,
  availableBalanceTotalUsdAmount: DecimalString,
  availableBalanceTotalFiatCurrency: FiatCode,
  promoFee: Check.nullOr(DecimalString),
  accessFlags: AccessFlags,
  isCustodyAvailable: Check.boolean,
  restrictionCode: Check.nullOr(Check.string),
})

export const FrozenBalancesCheck: Check.Check<FrozenBalances> = Check.struct({
  items: Check.array(
    Check.struct({
      reason: Check.literals(["FR_1", "FR_2", "FR_3", "FR_4"]),
      currency: CurrencyCode,
      amount: DecimalString,
      fiat_amount: DecimalString,
      fiatCurrency: FiatCode,
    }),
  ),
})
