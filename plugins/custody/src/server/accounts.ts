/**
 * Accounts data (spec 1 §3 "Asset", totals, access flags), frozen balances and the user's USD
 * balance: Ledger balances valued with the Rates service in the user's fiat.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "@wallet/kernel-server"
import { Ledger, userOwner } from "@wallet/kernel-server/ledger"
import {
  CustodyBadRequest,
  CustodyNotFound,
  type AccessFlags,
  type AccountsData,
  type Asset,
  type AssetAction,
  type AssetActions,
  type FrozenBalance,
  type FrozenReason,
} from "../api.ts"
import { CURRENCIES, currencyInfo, formatAmount, nextStockMarketOpening, stockMarketOpen, type CurrencyInfo } from "../currencies.ts"
import { fiatCents, formatCents, formatPrice, percentChange } from "./money.ts"
import { descriptionOf } from "./descriptions.ts"
import { Rates, type Quote } from "./rates/Rates.ts"
import { depositAddressesOf } from "./chain/index.ts"
import { FROZEN_OWNER, userAccount } from "./ledgerSetup.ts"
import { accessFlags, currentUser, type CustodyUser } from "./users.ts"

const POPULAR = new Set(["TON", "USDT"])

const action = (isEnabled: boolean, isPopular = false, scheduledAt: string | null = null): AssetAction => ({ isEnabled, isPopular, scheduledAt })

/** Outside the market's hours (`stockMarketOpen`), a stock's buy and sell are scheduled for the next opening. */
export const nextMarketOpen = (now: number): string | null => (stockMarketOpen(now) ? null : nextStockMarketOpening(now).toISOString())

export const assetActions = (info: CurrencyInfo, flags: AccessFlags, user: CustodyUser, now: number): AssetActions => {
  const popular = POPULAR.has(info.code)
  const canBuy = flags.accessToExchanges && user.permissions.canBuy !== false
  if (info.category === "stock" || info.category === "etf") {
    const trading = flags.accessToTradeStocksAndEtfs && flags.accessToTradeStocksAndEtfsByCountry
    const scheduled = trading ? nextMarketOpen(now) : null
    return {
      send: action(flags.accessToWithdraws),
      receive: action(false),
      exchange: action(false),
      buy: action(trading && scheduled === null, false, scheduled),
      sell: action(trading && scheduled === null, false, scheduled),
    }
  }
  return {
    send: action(flags.accessToWithdraws, popular),
    receive: action(flags.accessToCreateAddress && info.networks.length > 0, popular),
    exchange: action(flags.accessToExchanges),
    buy: action(canBuy, popular),
    sell: action(canBuy),
  }
}

const resolveFiat = (rates: { readonly isFiat: (code: string) => boolean }, user: CustodyUser, requested: string | undefined) => {
  if (requested === undefined) return Effect.succeed(user.fiatCurrency)
  if (!rates.isFiat(requested))
    return Effect.fail(new CustodyBadRequest({ code: "unsupported_fiat", message: `${requested} is not a supported fiat currency` }))
  return Effect.succeed(requested)
}

/** Quotes in `fiat`; a feed failure leaves prices at zero rather than failing the balances. */
const quotesOf = (fiat: string) =>
  Effect.gen(function* () {
    const rates = yield* Rates
    return yield* rates
      .quotes(
        CURRENCIES.map((currency) => currency.code),
        fiat,
      )
      .pipe(Effect.catch((error) => Effect.as(Effect.logWarning(`custody: rates unavailable: ${error.message}`), new Map<string, Quote>())))
  })

const seenCurrencies = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ currency: string }>`select currency from custody_seen_currencies where user_id = ${userId}`
    return new Set(rows.map((row) => row.currency))
  }).pipe(Effect.orDie)

const ZERO: Quote = { price: 0n, price24hAgo: 0n }

/** The language the user chose in settings, else Telegram's. */
const languageOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ language: string | null }>`select coalesce(language, language_code) as language from kernel_users where id = ${userId}`
    return rows[0]?.language ?? null
  }).pipe(Effect.orDie)

/** Price x circulating supply in fiat, 2 decimals; null when the supply is unknown or there is no price. */
export const marketCapOf = (supply: bigint | undefined, price: bigint): string | null =>
  supply === undefined || price === 0n ? null : formatCents(fiatCents(supply, 0, price))

export const accountsData = (userId: number, requestedFiat?: string) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const rates = yield* Rates
    const config = yield* ServerConfig
    const user = yield* currentUser(userId)
    const fiat = yield* resolveFiat(rates, user, requestedFiat)
    const balances = new Map((yield* Effect.orDie(ledger.balances(userOwner(userId)))).map((balance) => [balance.currency, balance]))
    const fiatQuotes = yield* quotesOf(fiat)
    const usdQuotes = fiat === "USD" ? fiatQuotes : yield* quotesOf("USD")
    const seen = yield* seenCurrencies(userId)
    const language = yield* languageOf(userId)
    const addresses = yield* Effect.orDie(depositAddressesOf(userId))
    const flags = accessFlags(user)
    let totalFiat = 0n
    let totalUsd = 0n
    const assets = CURRENCIES.map((info): Asset => {
      const balance = balances.get(info.code)
      const units = balance?.available ?? 0n
      const quote = fiatQuotes.get(info.code) ?? ZERO
      const usd = usdQuotes.get(info.code) ?? ZERO
      const fiatValue = fiatCents(units, info.decimals, quote.price)
      const usdValue = fiatCents(units, info.decimals, usd.price)
      totalFiat += fiatValue
      totalUsd += usdValue
      return {
        currency: info.code,
        name: info.name,
        decimals: info.decimals,
        category: info.category,
        balance: formatAmount(units, info.decimals),
        rate: formatPrice(quote.price),
        absoluteChange: formatPrice(quote.price - quote.price24hAgo),
        percentChange: percentChange(quote.price, quote.price24hAgo),
        usdBalance: formatCents(usdValue),
        fiatBalance: formatCents(fiatValue),
        fiatCurrency: fiat,
        isCreated: balance !== undefined,
        isAlwaysOnMain: info.pinned === true,
        isPinnedWithoutBalance: info.pinnedWithoutBalance === true,
        isNewCurrency: info.isNew === true && units === 0n && !seen.has(info.code),
        networks: info.networks,
        addresses: addresses
          .filter((row) => info.networks.includes(row.network))
          .map((row) => ({ address: row.address, networkCode: row.network, walletToReplace: null })),
        actions: assetActions(info, flags, user, config.now()),
        marketCap: marketCapOf(info.circulatingSupply, quote.price),
        description: descriptionOf(info.code, language),
      }
    })
    const data: AccountsData = {
      assets,
      availableBalanceTotalFiatAmount: formatCents(totalFiat),
      availableBalanceTotalUsdAmount: formatCents(totalUsd),
      availableBalanceTotalFiatCurrency: fiat,
      promoFee: null,
      accessFlags: flags,
      isCustodyAvailable: user.isCustodyAvailable,
      restrictionCode: user.restrictionCode,
    }
    return data
  })

export const setNewCurrencySeen = (userId: number, currency: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    if (currencyInfo(currency) === undefined)
      return yield* new CustodyNotFound({ code: "currency_not_found", message: `${currency} is not a custodial currency` })
    yield* sql`insert into custody_seen_currencies (user_id, currency, seen_at) values (${userId}, ${currency}, ${new Date(config.now())})
      on conflict (user_id, currency) do nothing`.pipe(Effect.orDie)
  })

/** The user's USD value of available balances in cents (for the forced-passcode rule). */
export const usdBalanceOf = (userId: number) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const balances = yield* Effect.orDie(ledger.balances(userOwner(userId)))
    if (balances.length === 0) return 0n
    const quotes = yield* quotesOf("USD")
    let cents = 0n
    for (const balance of balances) {
      const info = currencyInfo(balance.currency)
      const quote = quotes.get(balance.currency)
      if (info !== undefined && quote !== undefined) cents += fiatCents(balance.available, info.decimals, quote.price)
    }
    return cents
  })

// --- frozen balances -------------------------------------------------------------------------

/** Freezes `amount` of the user's balance (a Ledger hold into system:frozen) for `reason`; idempotent by `key`. */
export const freezeBalance = (userId: number, currency: string, amount: bigint, reason: FrozenReason, key: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const config = yield* ServerConfig
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const from = userAccount(userId, currency)
        yield* ledger.openAccount(from)
        const movement = yield* ledger.hold({ key, from, to: { owner: FROZEN_OWNER, currency }, amount, metadata: { reason } })
        yield* sql`insert into custody_frozen (user_id, currency, reason, amount, ledger_key, hold_id, created_at)
          values (${userId}, ${currency}, ${reason}, ${amount.toString()}::numeric, ${key}, ${movement.holdId}, ${new Date(config.now())})
          on conflict (ledger_key) do nothing`
        return movement.holdId!
      }),
    )
  })

/** Releases a frozen balance back to the user (void of its hold). */
export const releaseFrozen = (key: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const config = yield* ServerConfig
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<{ hold_id: string }>`select hold_id from custody_frozen where ledger_key = ${key} and released_at is null for update`
        if (rows.length === 0) return false
        yield* ledger.voidHold({ key: `${key}:release`, holdId: rows[0]!.hold_id })
        yield* sql`update custody_frozen set released_at = ${new Date(config.now())} where ledger_key = ${key}`
        return true
      }),
    )
  })

export const frozenBalances = (userId: number, requestedFiat?: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rates = yield* Rates
    const user = yield* currentUser(userId)
    const fiat = yield* resolveFiat(rates, user, requestedFiat)
    const rows = yield* sql<{ currency: string; reason: FrozenReason; amount: string }>`
      select currency, reason, sum(amount)::text as amount from custody_frozen where user_id = ${userId} and released_at is null
      group by currency, reason order by currency, reason`.pipe(Effect.orDie)
    if (rows.length === 0) return { items: [] }
    const quotes = yield* quotesOf(fiat)
    const items = rows.map((row): FrozenBalance => {
      const decimals = currencyInfo(row.currency)?.decimals ?? 0
      const units = BigInt(row.amount)
      return {
        reason: row.reason,
        currency: row.currency,
        amount: formatAmount(units, decimals),
        fiat_amount: formatCents(fiatCents(units, decimals, quotes.get(row.currency)?.price ?? 0n)),
        fiatCurrency: fiat,
      }
    })
    return { items }
  })
