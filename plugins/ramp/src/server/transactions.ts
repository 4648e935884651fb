/**
 * Ramp transactions on the server (issue 23 wire, "Money on the wallet side"). A purchase or sale is a
 * row created before its widget URL is signed. A provider's word (a verified webhook or its status
 * API) moves the row only forward; the move to a final status is ONE transaction: the conditional
 * update of the row and one Ledger command keyed by the row's id (buy: `transfer` from the provider's
 * settlement account `system:ramp:<provider>`; sell: `postHold` or `voidHold` of the hold placed when
 * the user confirmed), with the bot's message. A duplicate, older or racing word finds the row moved
 * and changes nothing.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { formatAmount } from "@wallet/kernel"
import { ServerConfig } from "@wallet/kernel-server"
import { Ledger, userOwner } from "@wallet/kernel-server/ledger"
import { Outbox } from "@wallet/kernel-server/outbox"
import { currencyInfo, parseAmount } from "@wallet/plugin-custody/currencies"
import { PRICE_SCALE, Rates } from "@wallet/plugin-custody/server"
import { RampNotFound, RampRefused, RampUnavailable, type BuyRequest, type Quote, type QuoteRequest, type RampTransaction, type SellRequest } from "../api.ts"
import {
  canMove,
  cryptoLimits,
  decimalOf,
  fiatLimits,
  gatewayOf,
  isFinal,
  offers,
  paymentMethods,
  providerCurrencyCode,
  providersOfMethod,
  routeOf,
  withinLimits,
  type Direction,
  type Provider,
  type RampCurrency,
  type RampStatus,
} from "../domain.ts"
import { rampConfig, type RampConfig } from "./config.ts"
import { creditedMessage, paidOutMessage } from "./notify.ts"
import { fetchStatus, mercuryoBuyUrl, moonpayBuyUrl, moonpaySellUrl, notifySellDeposit, type ProviderEvent } from "./providers.ts"

/** The provider's settlement account: it pays purchases and receives sales (may go negative: the provider owes or is owed). */
export const settlementOwner = (provider: Provider) => `system:ramp:${provider}`
export const creditKey = (id: string) => `ramp:${id}:credit`
export const holdKey = (id: string) => `ramp:${id}:hold`
export const postKey = (id: string) => `ramp:${id}:post`
export const voidKey = (id: string) => `ramp:${id}:void`

export interface RampRow {
  id: string
  user_id: string
  provider: Provider
  direction: Direction
  currency: RampCurrency
  network: "ton"
  fiat_currency: string
  fiat_amount: string | null
  crypto_units: string | null
  payment_method: string | null
  status: RampStatus
  failure_reason: string | null
  provider_tx_id: string | null
  hold_id: string | null
  ledger_tx_id: string | null
  deposit_notified: boolean
  created_at: Date
  updated_at: Date
}

const COLUMNS = `id, user_id::text as user_id, provider, direction, currency, network, fiat_currency, fiat_amount, crypto_units::text as crypto_units,
  payment_method, status, failure_reason, provider_tx_id, hold_id::text as hold_id, ledger_tx_id::text as ledger_tx_id, deposit_notified, created_at, updated_at`

const decimalsOf = (code: string) => currencyInfo(code)?.decimals ?? 0
const iso = (value: Date | string) => new Date(value).toISOString()

export const viewOf = (row: RampRow): RampTransaction => ({
  id: row.id,
  provider: row.provider,
  direction: row.direction,
  currency: row.currency,
  network: row.network,
  fiatCurrency: row.fiat_currency,
  fiatAmount: row.fiat_amount,
  cryptoAmount: row.crypto_units === null ? null : formatAmount(BigInt(row.crypto_units), decimalsOf(row.currency)),
  paymentMethod: row.payment_method,
  status: row.status,
  failureReason: row.failure_reason,
  providerTransactionId: row.provider_tx_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

const refuse = (code: RampRefused["code"], message: string, limit?: string) =>
  Effect.fail(new RampRefused({ code, message, ...(limit !== undefined ? { limit } : {}) }))

// --- amounts -------------------------------------------------------------------------------------

/** Fiat per unit of `currency`, scaled by PRICE_SCALE, from custody's Rates (undefined when it has none). */
const priceOf = (currency: string, fiat: string) =>
  Effect.gen(function* () {
    const rates = yield* Rates
    const quotes = yield* rates.quotes([currency], fiat).pipe(Effect.catchTag("RatesUnavailable", () => Effect.succeed(new Map())))
    const price = quotes.get(currency)?.price ?? 0n
    return price > 0n ? price : undefined
  })

/** Fiat amounts have 2 decimals here (the providers' own rounding applies on their page). */
const FIAT_DECIMALS = 2
const toFiat = (cryptoUnits: bigint, decimals: number, price: bigint): string => {
  const cents = (cryptoUnits * price * 100n + PRICE_SCALE * 10n ** BigInt(decimals) - 1n) / (PRICE_SCALE * 10n ** BigInt(decimals))
  return formatAmount(cents, FIAT_DECIMALS)
}
const toCrypto = (fiatCents: bigint, decimals: number, price: bigint): bigint => (fiatCents * PRICE_SCALE * 10n ** BigInt(decimals)) / (price * 100n)

/** Both sides of a requested amount: the fiat to charge and the crypto it is worth (estimated by custody's rates). */
const amountsOf = (request: { currency: RampCurrency; fiatCurrency: string; amount: string; inputMode: "crypto" | "fiat" }) =>
  Effect.gen(function* () {
    const decimals = decimalsOf(request.currency)
    const price = yield* priceOf(request.currency, request.fiatCurrency)
    if (request.inputMode === "fiat") {
      const cents = parseAmount(request.amount, FIAT_DECIMALS)
      if (cents === undefined || cents <= 0n)
        return yield* refuse("invalid_amount", `A ${request.fiatCurrency} amount has at most 2 decimals and is above zero`)
      return { fiat: formatAmount(cents, FIAT_DECIMALS), crypto: price === undefined ? undefined : toCrypto(cents, decimals, price) }
    }
    const units = parseAmount(request.amount, decimals)
    if (units === undefined || units <= 0n)
      return yield* refuse("invalid_amount", `${request.currency} has ${decimals} decimals; the amount must be above zero`)
    if (price === undefined) return yield* refuse("rates_unavailable", `No ${request.currency} rate in ${request.fiatCurrency} right now`)
    return { fiat: toFiat(units, decimals, price), crypto: units }
  })

// --- options -------------------------------------------------------------------------------------

/** Up to two fiats of the user's latest purchases, newest first (spec 1 §9: at most two recent items). */
export const recentPurchaseFiats = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ fiat_currency: string }>`
      select fiat_currency from ramp_transactions where user_id = ${userId} and direction = 'buy' and status <> 'FAILED'
       group by fiat_currency order by max(created_at) desc limit 2`
    return rows.map((row) => row.fiat_currency)
  })

export const countryOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{
      phone: string | null
      ip: string | null
    }>`select country_alpha2_phone as phone, country_alpha2_ip as ip from kernel_users where id = ${userId}`
    return row?.phone ?? row?.ip ?? null
  })

/** The estimate per provider for the provider screen. */
export const quote = (request: QuoteRequest) =>
  Effect.gen(function* () {
    const route = routeOf(request.direction, request.currency)
    if (route === undefined || !(route.networks as ReadonlyArray<string>).includes(request.network))
      return yield* refuse("unsupported_currency", `${request.currency} cannot be ${request.direction === "buy" ? "bought" : "sold"} on ${request.network}`)
    const providers = route.providers.filter((provider) => fiatLimits(provider, request.direction, request.fiatCurrency) !== undefined)
    if (providers.length === 0) return yield* refuse("unsupported_fiat_currency", `No provider takes ${request.fiatCurrency}`)
    const amounts = yield* amountsOf(request)
    const quoteAnswer: Quote = {
      estimated: true,
      offers: providers.map((provider) => {
        const limits = fiatLimits(provider, request.direction, request.fiatCurrency)!
        const check = withinLimits(amounts.fiat, limits)
        return {
          provider,
          fiatAmount: amounts.fiat,
          cryptoAmount: amounts.crypto === undefined ? "0" : formatAmount(amounts.crypto, decimalsOf(request.currency)),
          fiatMin: limits.min,
          fiatMax: limits.max,
          refusal: check.ok ? null : check.code,
        }
      }),
    }
    return quoteAnswer
  })

// --- creating ------------------------------------------------------------------------------------

const originOf = (url: string): string => {
  try {
    return new URL(url).origin
  } catch {
    return ""
  }
}

/** Where the provider sends the user back: the mini-app's status page with this transaction's search. */
const redirectOf = (
  config: RampConfig,
  botUsername: string,
  returnUrl: string | undefined,
  row: { id: string; direction: Direction; amount: string; currency: string },
) =>
  Effect.gen(function* () {
    const base = returnUrl ?? `https://t.me/${botUsername}`
    if (returnUrl !== undefined && config.returnOrigins.length > 0 && !config.returnOrigins.includes(originOf(returnUrl)))
      return yield* refuse("return_url_not_allowed", "The return URL is not one of the mini-app's")
    const search = new URLSearchParams({ external_transaction_id: row.id, direction: row.direction, amount: row.amount, currency: row.currency })
    return `${base}${base.includes("?") ? "&" : "?"}${search.toString()}`
  })

/** The custodial wallet's reference the providers carry as the wallet address (the crypto arrives through the Ledger). */
export const custodialReference = (userId: number) => `wallet-custody-${userId}`

const requireFiat = (provider: Provider, direction: Direction, fiat: string) => {
  const limits = fiatLimits(provider, direction, fiat)
  return limits === undefined
    ? refuse("unsupported_fiat_currency", `${provider} does not take ${fiat} for a ${direction === "buy" ? "purchase" : "sale"}`)
    : Effect.succeed(limits)
}

const insertRow = (
  row: Omit<RampRow, "user_id" | "created_at" | "updated_at" | "failure_reason" | "provider_tx_id" | "ledger_tx_id" | "deposit_notified" | "status"> & {
    user_id: number
    now: Date
  },
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [inserted] = yield* sql.unsafe<RampRow>(
      `insert into ramp_transactions (id, user_id, provider, direction, currency, network, fiat_currency, fiat_amount, crypto_units, payment_method, status, hold_id, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, 'CREATED', $11::bigint, $12, $12) returning ${COLUMNS}`,
      [
        row.id,
        row.user_id,
        row.provider,
        row.direction,
        row.currency,
        row.network,
        row.fiat_currency,
        row.fiat_amount,
        row.crypto_units,
        row.payment_method,
        row.hold_id,
        row.now,
      ],
    )
    return inserted!
  })

export const createBuy = (userId: number, request: BuyRequest) =>
  Effect.gen(function* () {
    const config = yield* rampConfig
    const server = yield* ServerConfig
    if (!offers("buy", request.currency, request.provider, request.network))
      return yield* refuse("unsupported_currency", `${request.provider} does not sell ${request.currency} on ${request.network}`)
    const limits = yield* requireFiat(request.provider, "buy", request.fiatCurrency)
    const methods = paymentMethods("buy", request.fiatCurrency)
    if (
      !methods.ok ||
      !methods.methods.includes(request.paymentMethod) ||
      !providersOfMethod("buy", request.paymentMethod, request.fiatCurrency).includes(request.provider)
    )
      return yield* refuse("unsupported_fiat_currency", `${request.paymentMethod} is not offered in ${request.fiatCurrency} by ${request.provider}`)
    const amounts = yield* amountsOf(request)
    const check = withinLimits(amounts.fiat, limits)
    if (!check.ok)
      return yield* refuse(check.code, `${request.provider} takes ${limits.min} to ${limits.max} ${request.fiatCurrency} per purchase`, check.limit)
    const providerConfig = request.provider === "moonpay" ? config.moonpay : config.mercuryo
    if (providerConfig === undefined)
      return yield* Effect.fail(new RampUnavailable({ code: "provider_not_configured", message: `${request.provider} is not configured on this server` }))
    const id = randomUUID()
    const cryptoShown = amounts.crypto === undefined ? request.amount : formatAmount(amounts.crypto, decimalsOf(request.currency))
    const redirectUrl = yield* redirectOf(config, server.botUsername, request.returnUrl, {
      id,
      direction: "buy",
      amount: cryptoShown,
      currency: request.currency,
    })
    const row = yield* insertRow({
      id,
      user_id: userId,
      provider: request.provider,
      direction: "buy",
      currency: request.currency,
      network: request.network,
      fiat_currency: request.fiatCurrency,
      fiat_amount: amounts.fiat,
      crypto_units: null,
      payment_method: request.paymentMethod,
      hold_id: null,
      now: new Date(server.now()),
    })
    const address = custodialReference(userId)
    const widgetUrl =
      request.provider === "moonpay"
        ? moonpayBuyUrl(config.moonpay!, {
            currency: request.currency,
            walletAddress: address,
            fiat: request.fiatCurrency,
            fiatAmount: amounts.fiat,
            rampId: id,
            userId,
            redirectUrl,
            paymentMethod: request.paymentMethod,
          })
        : mercuryoBuyUrl(config.mercuryo!, {
            currency: request.currency,
            address,
            fiat: request.fiatCurrency,
            fiatAmount: amounts.fiat,
            rampId: id,
            redirectUrl,
          })
    return { transaction: viewOf(row), widgetUrl }
  })

/** A sale: the row and the hold of the crypto from the user to the provider's settlement account, in one transaction. */
export const createSell = (userId: number, request: SellRequest) =>
  Effect.gen(function* () {
    const config = yield* rampConfig
    const server = yield* ServerConfig
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    if (!offers("sell", request.currency, request.provider, request.network))
      return yield* refuse("unsupported_currency", `${request.provider} does not buy ${request.currency} on ${request.network}`)
    yield* requireFiat(request.provider, "sell", request.fiatCurrency)
    const decimals = decimalsOf(request.currency)
    const units = parseAmount(request.amount, decimals)
    if (units === undefined || units <= 0n)
      return yield* refuse("invalid_amount", `${request.currency} has ${decimals} decimals; the amount must be above zero`)
    const crypto = cryptoLimits(request.provider, request.currency)
    const check = withinLimits(formatAmount(units, decimals), crypto)
    if (!check.ok) return yield* refuse(check.code, `${request.provider} buys ${crypto.min} to ${crypto.max} ${request.currency} per sale`, check.limit)
    if (config.moonpay === undefined)
      return yield* Effect.fail(new RampUnavailable({ code: "provider_not_configured", message: "moonpay is not configured on this server" }))
    const price = yield* priceOf(request.currency, request.fiatCurrency)
    const id = randomUUID()
    const redirectUrl = yield* redirectOf(config, server.botUsername, request.returnUrl, {
      id,
      direction: "sell",
      amount: formatAmount(units, decimals),
      currency: request.currency,
    })
    const settlement = { owner: settlementOwner(request.provider), currency: request.currency }
    yield* ledger.openAccount(settlement, { allowNegative: true })
    const row = yield* sql.withTransaction(
      Effect.gen(function* () {
        const movement = yield* ledger
          .hold({
            key: holdKey(id),
            from: { owner: userOwner(userId), currency: request.currency },
            to: settlement,
            amount: units,
            memo: `sell ${request.currency} through ${request.provider}`,
            metadata: { gateway: gatewayOf(request.provider, "sell"), provider: request.provider, rampId: id, fiatCurrency: request.fiatCurrency },
          })
          .pipe(
            Effect.catchTag("UnknownAccount", () => refuse("insufficient_balance", `Not enough ${request.currency}`)),
            Effect.catchTag("InsufficientFunds", () =>
              refuse("insufficient_balance", `Not enough ${request.currency} to sell ${formatAmount(units, decimals)}`),
            ),
          )
        return yield* insertRow({
          id,
          user_id: userId,
          provider: request.provider,
          direction: "sell",
          currency: request.currency,
          network: request.network,
          fiat_currency: request.fiatCurrency,
          fiat_amount: price === undefined ? null : toFiat(units, decimals, price),
          crypto_units: units.toString(),
          payment_method: null,
          hold_id: movement.holdId,
          now: new Date(server.now()),
        })
      }),
    )
    const widgetUrl = moonpaySellUrl(config.moonpay, {
      currency: request.currency,
      cryptoAmount: formatAmount(units, decimals),
      fiat: request.fiatCurrency,
      rampId: id,
      userId,
      refundAddress: custodialReference(userId),
      redirectUrl,
    })
    return { transaction: viewOf(row), widgetUrl }
  })

// --- a provider's word -----------------------------------------------------------------------------

export type ApplyOutcome = "applied" | "credited" | "paid_out" | "voided" | "stale" | "unknown_transaction" | "refused_amount" | "ignored"

const languageOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ language: string | null; language_code: string | null }>`select language, language_code from kernel_users where id = ${userId}`
    return (row?.language ?? row?.language_code ?? "en").startsWith("ru") ? ("ru" as const) : ("en" as const)
  })

/** The reported crypto of a completed purchase, in minor units, if it is the row's currency and inside the provider's limits. */
const creditUnits = (row: RampRow, event: ProviderEvent): bigint | undefined => {
  if (event.currencyCode !== null && event.currencyCode.toLowerCase() !== providerCurrencyCode(row.provider, row.currency).toLowerCase()) return undefined
  const decimals = decimalsOf(row.currency)
  const amount = decimalOf(event.cryptoAmount, decimals)
  if (amount === undefined || !withinLimits(amount, cryptoLimits(row.provider, row.currency)).ok) return undefined
  const units = parseAmount(amount, decimals)
  return units !== undefined && units > 0n ? units : undefined
}

/**
 * Applies a provider's word to its row inside the caller's transaction (the webhook's delivery row is
 * already inserted in it). Only a forward move happens, by one conditional update on the status read;
 * a final move makes its one Ledger command and queues the bot's message.
 */
export const applyEvent = (event: ProviderEvent) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const outbox = yield* Outbox
    const now = new Date((yield* ServerConfig).now())
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(event.rampId)) return "unknown_transaction" as ApplyOutcome
    const [row] = yield* sql.unsafe<RampRow>(`select ${COLUMNS} from ramp_transactions where id = $1 and provider = $2 and direction = $3`, [
      event.rampId,
      event.provider,
      event.direction,
    ])
    if (row === undefined) return "unknown_transaction" as ApplyOutcome
    if (!canMove(row.status, event.status)) {
      // A final row learns nothing; a pending one may learn the provider's id.
      if (row.provider_tx_id === null && event.providerId !== null && !isFinal(row.status))
        yield* sql`update ramp_transactions set provider_tx_id = ${event.providerId}, updated_at = ${now} where id = ${row.id} and provider_tx_id is null`
      return "stale" as ApplyOutcome
    }
    const userId = Number(row.user_id)
    const decimals = decimalsOf(row.currency)

    if (event.status === "PENDING") {
      const moved =
        yield* sql`update ramp_transactions set status = 'PENDING', provider_tx_id = coalesce(provider_tx_id, ${event.providerId}), version = version + 1, updated_at = ${now}
        where id = ${row.id} and status = 'CREATED' returning id`
      return (moved.length === 0 ? "stale" : "applied") as ApplyOutcome
    }

    if (event.status === "FAILED") {
      const moved = yield* sql`update ramp_transactions set status = 'FAILED', failure_reason = ${event.failureReason ?? event.rawStatus},
          provider_tx_id = coalesce(provider_tx_id, ${event.providerId}), version = version + 1, updated_at = ${now}
        where id = ${row.id} and status in ('CREATED', 'PENDING') returning id`
      if (moved.length === 0) return "stale" as ApplyOutcome
      if (row.direction === "sell" && row.hold_id !== null) {
        yield* ledger.voidHold({
          key: voidKey(row.id),
          holdId: row.hold_id,
          memo: `sale through ${row.provider} failed`,
          metadata: { gateway: "offramp", rampId: row.id },
        })
        return "voided" as ApplyOutcome
      }
      return "applied" as ApplyOutcome
    }

    // COMPLETED
    if (row.direction === "buy") {
      const units = creditUnits(row, event)
      if (units === undefined) {
        yield* Effect.logWarning(`ramp ${row.id}: ${row.provider} reported a completed purchase outside its limits or in another currency; not credited`)
        return "refused_amount" as ApplyOutcome
      }
      const moved = yield* sql`update ramp_transactions set status = 'COMPLETED', crypto_units = ${units.toString()}::numeric, ledger_tx_id = 0,
          fiat_amount = coalesce(${decimalOf(event.fiatAmount, FIAT_DECIMALS) ?? null}, fiat_amount),
          provider_tx_id = coalesce(provider_tx_id, ${event.providerId}), version = version + 1, updated_at = ${now}
        where id = ${row.id} and status <> 'COMPLETED' and status <> 'FAILED' returning id`
      if (moved.length === 0) return "stale" as ApplyOutcome
      const settlement = { owner: settlementOwner(row.provider), currency: row.currency }
      const user = { owner: userOwner(userId), currency: row.currency }
      yield* ledger.openAccount(settlement, { allowNegative: true })
      yield* ledger.openAccount(user)
      const movement = yield* ledger.transfer({
        key: creditKey(row.id),
        legs: [{ from: settlement, to: user, amount: units }],
        memo: `bought through ${row.provider}`,
        metadata: {
          gateway: gatewayOf(row.provider, "buy"),
          provider: row.provider,
          rampId: row.id,
          fiatCurrency: row.fiat_currency,
          fiatAmount: decimalOf(event.fiatAmount, FIAT_DECIMALS) ?? row.fiat_amount,
          providerTransactionId: event.providerId,
        },
      })
      yield* sql`update ramp_transactions set ledger_tx_id = ${movement.transactionId}::bigint where id = ${row.id}`
      yield* outbox.enqueue({
        channel: "telegram",
        recipient: String(userId),
        subject: "ramp.credited",
        body: creditedMessage(yield* languageOf(userId), {
          crypto: `${formatAmount(units, decimals)} ${row.currency}`,
          fiat: `${decimalOf(event.fiatAmount, FIAT_DECIMALS) ?? row.fiat_amount ?? "?"} ${row.fiat_currency}`,
        }),
      })
      return "credited" as ApplyOutcome
    }
    const moved = yield* sql`update ramp_transactions set status = 'COMPLETED', ledger_tx_id = 0,
        fiat_amount = coalesce(${decimalOf(event.fiatAmount, FIAT_DECIMALS) ?? null}, fiat_amount),
        provider_tx_id = coalesce(provider_tx_id, ${event.providerId}), version = version + 1, updated_at = ${now}
      where id = ${row.id} and status <> 'COMPLETED' and status <> 'FAILED' returning id`
    if (moved.length === 0) return "stale" as ApplyOutcome
    const movement = yield* ledger.postHold({
      key: postKey(row.id),
      holdId: row.hold_id!,
      memo: `sold through ${row.provider}`,
      metadata: { gateway: "offramp", provider: row.provider, rampId: row.id, fiatCurrency: row.fiat_currency, providerTransactionId: event.providerId },
    })
    yield* sql`update ramp_transactions set ledger_tx_id = ${movement.transactionId}::bigint where id = ${row.id}`
    yield* outbox.enqueue({
      channel: "telegram",
      recipient: String(userId),
      subject: "ramp.paid_out",
      body: paidOutMessage(yield* languageOf(userId), {
        crypto: `${formatAmount(BigInt(row.crypto_units ?? "0"), decimals)} ${row.currency}`,
        fiat: `${decimalOf(event.fiatAmount, FIAT_DECIMALS) ?? row.fiat_amount ?? "?"} ${row.fiat_currency}`,
      }),
    })
    return "paid_out" as ApplyOutcome
  })

/** After a sale's transaction is known to MoonPay (waiting for the deposit): tell the sandbox the crypto is on its way, once. */
export const depositIfDue = (rampId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* rampConfig
    const [row] = yield* sql<{ provider_tx_id: string | null }>`select provider_tx_id from ramp_transactions
      where id = ${rampId} and direction = 'sell' and status = 'PENDING' and not deposit_notified and provider_tx_id is not null`
    if (row === undefined || row.provider_tx_id === null || !config.sandbox) return
    yield* notifySellDeposit(config, row.provider_tx_id)
    yield* sql`update ramp_transactions set deposit_notified = true where id = ${rampId}`
  }).pipe(Effect.catchCause((cause) => Effect.logWarning("ramp: the sell deposit was not announced (retried on the next read)", cause)))

const rowOf = (userId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<RampRow>(`select ${COLUMNS} from ramp_transactions where id = $1 and user_id = $2`, [id, userId])
    if (rows.length === 0) return yield* Effect.fail(new RampNotFound({ code: "transaction_not_found", message: "No such ramp transaction of yours" }))
    return rows[0]!
  })

/** The status page's read: a row not final asks its provider's status API first (and applies what it says). */
export const readTransaction = (userId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* rampConfig
    const row = yield* rowOf(userId, id)
    if (isFinal(row.status)) return viewOf(row)
    const event = yield* fetchStatus(config, row.provider, row.direction, row.id)
    if (event !== undefined)
      yield* sql.withTransaction(applyEvent(event)).pipe(Effect.catchCause((cause) => Effect.logWarning("ramp: a status answer was not applied", cause)))
    yield* depositIfDue(row.id)
    return viewOf(yield* rowOf(userId, id))
  })
