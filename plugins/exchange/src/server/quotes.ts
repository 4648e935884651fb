/**
 * Quotes and their execution (decision 1100). A quote is priced from custody's Rates with the region's
 * spread and fee and stored OPEN for `quoteTtlMs`; confirming it is ONE transaction: the conditional
 * update OPEN -> EXECUTED (uid, user, not expired by the server's clock) and one `Ledger.convert` keyed
 * by the uid, so a second confirm (or a racing one) finds it EXECUTED and answers the same result, and a
 * refused conversion (the user or the house short) rolls the update back with it.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { formatAmount } from "@wallet/kernel"
import { ServerConfig } from "@wallet/kernel-server"
import { Ledger, System, userOwner, type AccountRef } from "@wallet/kernel-server/ledger"
import { Outbox } from "@wallet/kernel-server/outbox"
import { Rates } from "@wallet/plugin-custody/server"
import { currencyInfo, parseAmount } from "@wallet/plugin-custody/currencies"
import { ExchangeConflict, ExchangeNotFound, ExchangeRefused, type Executed, type Quote, type QuoteRequest } from "../api.ts"
import { needsMarketHours, nextOpening, pairOffered, priceQuote, rateOf, tradingOpen, usdCentsOf, type ExchangeMode, type QuoteStatus } from "../domain.ts"
import { requireExchange } from "./access.ts"
import { exchangeConfig, sandboxRates } from "./config.ts"
import { executedMessage } from "./notify.ts"

/** The Ledger key of a quote's conversion: one movement per quote, whoever confirms it how often. */
export const convertKey = (uid: string) => `exchange:quote:${uid}`

interface QuoteRow {
  uid: string
  user_id: string
  pay_currency: string
  receive_currency: string
  mode: ExchangeMode
  requested: string
  pay_total: string
  net: string
  fee: string
  receive_amount: string
  rate: string
  spread_bps: number
  fee_bps: number
  status: QuoteStatus
  created_at: Date
  expires_at: Date
  transaction_id: string | null
}

const COLUMNS = `uid, user_id::text as user_id, pay_currency, receive_currency, mode, requested::text as requested, pay_total::text as pay_total,
  net::text as net, fee::text as fee, receive_amount::text as receive_amount, rate, spread_bps, fee_bps, status, created_at, expires_at,
  transaction_id::text as transaction_id`

const decimalsOf = (code: string) => currencyInfo(code)?.decimals ?? 0
const iso = (value: Date | string) => new Date(value).toISOString()

const balanceOf = (ref: AccountRef) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    return yield* ledger.balance(ref).pipe(
      Effect.map((balance) => balance.available),
      Effect.catchTag("UnknownAccount", () => Effect.succeed(0n)),
    )
  })

const viewOf = (row: QuoteRow, now: number) =>
  Effect.gen(function* () {
    const pay = BigInt(row.pay_total)
    const available = yield* balanceOf({ owner: userOwner(Number(row.user_id)), currency: row.pay_currency })
    const quote: Quote = {
      uid: row.uid,
      payCurrency: row.pay_currency,
      receiveCurrency: row.receive_currency,
      exchangeMode: row.mode,
      payAmount: formatAmount(pay, decimalsOf(row.pay_currency)),
      payUnits: row.pay_total,
      receiveAmount: formatAmount(BigInt(row.receive_amount), decimalsOf(row.receive_currency)),
      receiveUnits: row.receive_amount,
      fee: formatAmount(BigInt(row.fee), decimalsOf(row.pay_currency)),
      feeUnits: row.fee,
      rate: row.rate,
      spreadBps: Number(row.spread_bps),
      feeBps: Number(row.fee_bps),
      status: row.status,
      createdAt: iso(row.created_at),
      expiresAt: iso(row.expires_at),
      serverTime: new Date(now).toISOString(),
      insufficientBalance: row.status === "OPEN" && available < pay,
      sandbox: yield* sandboxRates,
    }
    return quote
  })

const refuse = (code: ExchangeRefused["code"], message: string, extra: { limit?: string; nextOpening?: string } = {}) =>
  Effect.fail(new ExchangeRefused({ code, message, ...extra }))

/** The market-hours rule for stock tokens, by the server's clock. */
const requireMarketHours = (pay: string, receive: string, now: number) =>
  needsMarketHours(pay, receive) && !tradingOpen(now)
    ? refuse("trading_closed", "Stock and ETF tokens trade Monday to Friday, 9:30-16:00 New York time", { nextOpening: nextOpening(now).toISOString() })
    : Effect.void

/** Prices a request and stores it as an OPEN quote of the user's. */
export const createQuote = (userId: number, request: QuoteRequest) =>
  Effect.gen(function* () {
    const config = yield* exchangeConfig
    const server = yield* ServerConfig
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const rates = yield* Rates
    const { payCurrency, receiveCurrency } = request
    if (!pairOffered(config, payCurrency, receiveCurrency)) return yield* refuse("pair_not_offered", `${payCurrency} to ${receiveCurrency} is not offered`)
    yield* requireExchange(userId, request.platform, needsMarketHours(payCurrency, receiveCurrency))
    const now = server.now()
    yield* requireMarketHours(payCurrency, receiveCurrency, now)

    const amountCurrency = request.exchangeMode === "pay" ? payCurrency : receiveCurrency
    const amount = parseAmount(request.amount, decimalsOf(amountCurrency))
    if (amount === undefined || amount <= 0n) return yield* refuse("invalid_amount", `The amount has more decimals than ${amountCurrency} has, or is zero`)
    const prices = yield* rates.quotes([payCurrency, receiveCurrency], "USD").pipe(Effect.catchTag("RatesUnavailable", () => Effect.succeed(new Map())))
    const payPrice = prices.get(payCurrency)?.price ?? 0n
    const receivePrice = prices.get(receiveCurrency)?.price ?? 0n
    if (payPrice <= 0n || receivePrice <= 0n) return yield* refuse("rates_unavailable", "No rate for this pair right now")
    const pay = { decimals: decimalsOf(payCurrency), price: payPrice }
    const receive = { decimals: decimalsOf(receiveCurrency), price: receivePrice }
    const figures = priceQuote({ mode: request.exchangeMode, amount, pay, receive, spreadBps: config.spreadBps, feeBps: config.feeBps })

    // Limits in US cents of what the user pays, told back in the currency the user typed.
    const side = request.exchangeMode === "pay" ? pay : receive
    const limitIn = (cents: number, roundUp: boolean) => {
      const scale = 10n ** BigInt(side.decimals) * 10n ** 12n
      const units = roundUp ? (BigInt(cents) * scale + side.price * 100n - 1n) / (side.price * 100n) : (BigInt(cents) * scale) / (side.price * 100n)
      return formatAmount(units, side.decimals)
    }
    const usd = figures === undefined ? 0n : usdCentsOf(figures.payTotal, pay)
    if (figures === undefined || usd < BigInt(config.minUsdCents)) {
      return yield* refuse("amount_too_small", `The smallest exchange is $${(config.minUsdCents / 100).toFixed(2)}`, {
        limit: limitIn(config.minUsdCents, true),
      })
    }
    if (usd > BigInt(config.maxUsdCents)) {
      return yield* refuse("amount_too_large", `The largest exchange is $${(config.maxUsdCents / 100).toFixed(2)}`, {
        limit: limitIn(config.maxUsdCents, false),
      })
    }
    // Inventory: the house must be able to pay it now (the conversion checks again under its lock).
    const house = yield* ledger.balance({ owner: System.house, currency: receiveCurrency }).pipe(
      Effect.map((balance) => balance.available),
      Effect.catchTag("UnknownAccount", () => Effect.succeed(0n)),
    )
    if (figures.receive > house) {
      return yield* refuse("insufficient_liquidity", `Not enough ${receiveCurrency} available to exchange right now`, {
        limit: formatAmount(house, receive.decimals),
      })
    }

    const uid = randomUUID()
    const createdAt = new Date(now)
    const expiresAt = new Date(now + config.quoteTtlMs)
    const [row] = yield* sql.unsafe<QuoteRow>(
      `insert into exchange_quotes (uid, user_id, pay_currency, receive_currency, mode, requested, pay_total, net, fee, receive_amount, rate,
         spread_bps, fee_bps, pay_price, receive_price, status, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6::numeric, $7::numeric, $8::numeric, $9::numeric, $10::numeric, $11, $12, $13, $14::numeric, $15::numeric, 'OPEN', $16, $17)
       returning ${COLUMNS}`,
      [
        uid,
        userId,
        payCurrency,
        receiveCurrency,
        request.exchangeMode,
        amount.toString(),
        figures.payTotal.toString(),
        figures.net.toString(),
        figures.fee.toString(),
        figures.receive.toString(),
        rateOf(pay, receive, config.spreadBps),
        config.spreadBps,
        config.feeBps,
        payPrice.toString(),
        receivePrice.toString(),
        createdAt,
        expiresAt,
      ],
    )
    return yield* viewOf(row!, now)
  })

const rowOf = (userId: number, uid: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<QuoteRow>(`select ${COLUMNS} from exchange_quotes where uid = $1 and user_id = $2`, [uid, userId])
    if (rows.length === 0) return yield* Effect.fail(new ExchangeNotFound({ code: "quote_not_found", message: "No such quote of yours" }))
    return rows[0]!
  })

/** A quote of the user's, as it stands (an OPEN one past its time reads EXPIRED). */
export const getQuote = (userId: number, uid: string) =>
  Effect.gen(function* () {
    const now = (yield* ServerConfig).now()
    const row = yield* rowOf(userId, uid)
    const status: QuoteStatus = row.status === "OPEN" && row.expires_at.getTime() <= now ? "EXPIRED" : row.status
    return yield* viewOf({ ...row, status }, now)
  })

/** The request a quote answered, to price it again. */
const requestOf = (row: QuoteRow, platform: string | undefined): QuoteRequest => ({
  payCurrency: row.pay_currency as QuoteRequest["payCurrency"],
  receiveCurrency: row.receive_currency as QuoteRequest["receiveCurrency"],
  exchangeMode: row.mode,
  amount: formatAmount(BigInt(row.requested), decimalsOf(row.mode === "pay" ? row.pay_currency : row.receive_currency)),
  ...(platform !== undefined ? { platform } : {}),
})

const executedOf = (row: QuoteRow, now: number) => Effect.map(viewOf(row, now), (quote): Executed => ({ quote, transactionId: row.transaction_id! }))

/**
 * Executes a quote once. EXECUTED: the same answer again. Past its time: marked EXPIRED, nothing moves,
 * 409 `quote_expired` with a fresh quote of the same request. Else one transaction: the conditional
 * update and the conversion (with its bot message); a short user or house rolls both back.
 */
export const confirmQuote = (userId: number, uid: string, platform: string | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* Ledger
    const outbox = yield* Outbox
    const now = (yield* ServerConfig).now()
    const seen = yield* rowOf(userId, uid)
    if (seen.status === "EXECUTED") return yield* executedOf(seen, now)
    if (seen.status === "EXPIRED" || seen.expires_at.getTime() <= now) {
      yield* sql`update exchange_quotes set status = 'EXPIRED' where uid = ${uid} and status = 'OPEN' and expires_at <= ${new Date(now)}`
      const fresh = yield* createQuote(userId, requestOf(seen, platform))
      return yield* Effect.fail(new ExchangeConflict({ code: "quote_expired", message: "The quote expired; confirm the new price", fresh }))
    }
    // The server enforces what protects money at the moment it moves: access and market hours again.
    yield* requireExchange(userId, platform, needsMarketHours(seen.pay_currency, seen.receive_currency))
    yield* requireMarketHours(seen.pay_currency, seen.receive_currency, now)
    const user = userOwner(userId)
    yield* ledger.openAccount({ owner: user, currency: seen.receive_currency })
    const language = yield* languageOf(userId)

    const done = yield* sql.withTransaction(
      Effect.gen(function* () {
        const updated = yield* sql.unsafe<QuoteRow>(
          `update exchange_quotes set status = 'EXECUTED', executed_at = $3, transaction_id = 0
            where uid = $1 and user_id = $2 and status = 'OPEN' and expires_at > $3
            returning ${COLUMNS}`,
          [uid, userId, new Date(now)],
        )
        // A racing confirm executed it (or it expired meanwhile): answer from the row as it is now.
        if (updated.length === 0) return undefined
        const row = updated[0]!
        const movement = yield* ledger
          .convert({
            key: convertKey(uid),
            user,
            pay: { currency: row.pay_currency, amount: BigInt(row.net) },
            receive: { currency: row.receive_currency, amount: BigInt(row.receive_amount) },
            fee: BigInt(row.fee) > 0n ? BigInt(row.fee) : undefined,
            memo: `exchange ${row.pay_currency} to ${row.receive_currency}`,
            metadata: {
              gateway: "crypto_exchange",
              pair: `${row.pay_currency}/${row.receive_currency}`,
              quoteUid: uid,
              payCurrency: row.pay_currency,
              // What the user paid in all (the history row's amount), and what they got (its pair).
              payAmount: row.pay_total,
              payNet: row.net,
              receiveCurrency: row.receive_currency,
              receiveAmount: row.receive_amount,
              fee: row.fee,
            },
          })
          .pipe(
            // Never held the pay currency: the same as holding none of it.
            Effect.catchTag("UnknownAccount", () => refuse("insufficient_balance", `Not enough ${row.pay_currency}`)),
            Effect.catchTag("InsufficientFunds", (error) =>
              error.owner === System.house
                ? refuse("insufficient_liquidity", `Not enough ${row.receive_currency} available to exchange right now`)
                : refuse("insufficient_balance", `Not enough ${row.pay_currency} to pay ${formatAmount(BigInt(row.pay_total), decimalsOf(row.pay_currency))}`),
            ),
          )
        yield* sql`update exchange_quotes set transaction_id = ${movement.transactionId}::bigint where uid = ${uid}`
        yield* outbox.enqueue({
          channel: "telegram",
          recipient: String(userId),
          subject: "exchange.executed",
          body: executedMessage(language, {
            pay: `${formatAmount(BigInt(row.pay_total), decimalsOf(row.pay_currency))} ${row.pay_currency}`,
            receive: `${formatAmount(BigInt(row.receive_amount), decimalsOf(row.receive_currency))} ${row.receive_currency}`,
          }),
        })
        return { ...row, transaction_id: movement.transactionId }
      }),
    )
    if (done !== undefined) return yield* executedOf(done, now)
    const again = yield* rowOf(userId, uid)
    if (again.status === "EXECUTED") return yield* executedOf(again, now)
    const fresh = yield* createQuote(userId, requestOf(again, platform))
    return yield* Effect.fail(new ExchangeConflict({ code: "quote_expired", message: "The quote expired; confirm the new price", fresh }))
  })

/** The recipient's bot language (ru or en). */
const languageOf = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ language: string | null; language_code: string | null }>`select language, language_code from kernel_users where id = ${userId}`
    return (row?.language ?? row?.language_code ?? "en").startsWith("ru") ? ("ru" as const) : ("en" as const)
  })
