/**
 * The providers' transactions and their status paths. Every status change and its webhook (a row
 * of the provider's outbox) happen in one database transaction.
 *
 * MoonPay buy: waitingPayment → pending → completed (approved card); waitingPayment → failed
 * (declined); waitingAuthorization → pending → completed after the 3-D Secure challenge and a delay.
 * MoonPay sell: waitingForDeposit → pending (the deposit) → completed after a delay; → failed (cancelled).
 * Mercuryo buy: new → pending → paid → succeeded; new → failed; new (challenge) → pending → paid → succeeded.
 * With the reorder chaos a `pending` event is held until the transaction's next event was delivered.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite"
import { randomBytes, randomUUID } from "node:crypto"
import type { Provider } from "./config.ts"
import { cryptoBySymbol } from "./amounts.ts"

export type Direction = "buy" | "sell"

export interface RampTransaction {
  readonly id: string
  readonly provider: Provider
  readonly direction: Direction
  readonly status: string
  readonly externalTransactionId: string
  readonly externalCustomerId: string | null
  /** TON or USDT */
  readonly crypto: string
  /** lowercase ISO code */
  readonly fiat: string
  readonly cryptoAmount: string
  readonly fiatAmount: string
  readonly feeAmount: string
  readonly walletAddress: string | null
  readonly depositAddress: string | null
  readonly refundAddress: string | null
  readonly redirectUrl: string | null
  readonly cardLast4: string | null
  readonly threeDs: boolean
  readonly completeAt: number | null
  readonly failureReason: string | null
  readonly cryptoTransactionId: string | null
  readonly createdAt: number
  readonly updatedAt: number
}

interface Row {
  id: string
  provider: Provider
  direction: Direction
  status: string
  external_transaction_id: string
  external_customer_id: string | null
  crypto: string
  fiat: string
  crypto_amount: string
  fiat_amount: string
  fee_amount: string
  wallet_address: string | null
  deposit_address: string | null
  refund_address: string | null
  redirect_url: string | null
  card_last4: string | null
  three_ds: boolean
  complete_at: string | number | null
  failure_reason: string | null
  crypto_transaction_id: string | null
  created_at: string | number
  updated_at: string | number
}

type Sql = Pick<Transaction, "query">

const fromRow = (r: Row): RampTransaction => ({
  id: r.id,
  provider: r.provider,
  direction: r.direction,
  status: r.status,
  externalTransactionId: r.external_transaction_id,
  externalCustomerId: r.external_customer_id,
  crypto: r.crypto,
  fiat: r.fiat,
  cryptoAmount: r.crypto_amount,
  fiatAmount: r.fiat_amount,
  feeAmount: r.fee_amount,
  walletAddress: r.wallet_address,
  depositAddress: r.deposit_address,
  refundAddress: r.refund_address,
  redirectUrl: r.redirect_url,
  cardLast4: r.card_last4,
  threeDs: r.three_ds,
  completeAt: r.complete_at === null ? null : Number(r.complete_at),
  failureReason: r.failure_reason,
  cryptoTransactionId: r.crypto_transaction_id,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
})

export const findTransaction = async (sql: Sql, provider: Provider, id: string): Promise<RampTransaction | undefined> => {
  const { rows } = await sql.query<Row>("select * from ramp_transactions where provider = $1 and id = $2", [provider, id])
  return rows[0] ? fromRow(rows[0]) : undefined
}

export const findByExternalId = async (sql: Sql, provider: Provider, externalId: string): Promise<RampTransaction | undefined> => {
  const { rows } = await sql.query<Row>("select * from ramp_transactions where provider = $1 and external_transaction_id = $2", [provider, externalId])
  return rows[0] ? fromRow(rows[0]) : undefined
}

// ---- the wire objects -------------------------------------------------------------------------

const iso = (ms: number): string => new Date(ms).toISOString()
/** Mercuryo's "2024-05-01 12:30:05" (UTC). */
const mercuryoDate = (ms: number): string => iso(ms).slice(0, 19).replace("T", " ")

const moonpayCode = (t: RampTransaction): string => cryptoBySymbol(t.crypto)?.moonpay ?? t.crypto.toLowerCase()

/** MoonPay's transaction object (buy) or sell transaction object, amounts as JSON numbers. */
export const moonpayObject = (t: RampTransaction): Record<string, unknown> => {
  const common = {
    id: t.id,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    status: t.status,
    failureReason: t.failureReason,
    externalTransactionId: t.externalTransactionId,
    externalCustomerId: t.externalCustomerId,
    cryptoTransactionId: t.cryptoTransactionId,
    feeAmount: Number(t.feeAmount),
    extraFeeAmount: 0,
    networkFeeAmount: 0,
    paymentMethod: "credit_debit_card",
  }
  if (t.direction === "buy") {
    return {
      ...common,
      baseCurrencyAmount: Number(t.fiatAmount),
      quoteCurrencyAmount: Number(t.cryptoAmount),
      areFeesIncluded: true,
      walletAddress: t.walletAddress,
      redirectUrl: t.redirectUrl,
      baseCurrencyCode: t.fiat,
      currencyCode: moonpayCode(t),
      baseCurrency: { code: t.fiat, type: "fiat" },
      currency: { code: moonpayCode(t), type: "crypto" },
      cardLast4: t.cardLast4,
    }
  }
  return {
    ...common,
    baseCurrencyAmount: Number(t.cryptoAmount),
    quoteCurrencyAmount: Number(t.fiatAmount),
    depositHash: t.cryptoTransactionId,
    depositWallet: { walletAddress: t.depositAddress },
    refundWalletAddress: t.refundAddress,
    baseCurrencyCode: moonpayCode(t),
    quoteCurrencyCode: t.fiat,
    baseCurrency: { code: moonpayCode(t), type: "crypto" },
    quoteCurrency: { code: t.fiat, type: "fiat" },
  }
}

/** Mercuryo's buy transaction (`payload.data` of a callback, an item of the status API). */
export const mercuryoObject = (t: RampTransaction): Record<string, unknown> => ({
  id: t.id,
  type: "buy",
  status: t.status,
  amount: t.cryptoAmount,
  currency: t.crypto,
  network: "TON",
  fiat_amount: t.fiatAmount,
  fiat_currency: t.fiat.toUpperCase(),
  fee: t.feeAmount,
  address: t.walletAddress,
  merchant_transaction_id: t.externalTransactionId,
  card_masked: t.cardLast4 ? `424242******${t.cardLast4}` : null,
  failure_reason: t.failureReason,
  tx: t.cryptoTransactionId ? { id: t.cryptoTransactionId, address: t.walletAddress } : null,
  created_at: mercuryoDate(t.createdAt),
  created_at_ts: Math.floor(t.createdAt / 1000),
  updated_at: mercuryoDate(t.updatedAt),
  updated_at_ts: Math.floor(t.updatedAt / 1000),
})

const moonpayEventType = (t: RampTransaction, created: boolean): string => {
  const prefix = t.direction === "sell" ? "sell_transaction" : "transaction"
  if (created) return `${prefix}_created`
  return t.status === "failed" ? `${prefix}_failed` : `${prefix}_updated`
}

export const webhookBody = (t: RampTransaction, created: boolean): { type: string; body: string } => {
  if (t.provider === "moonpay") {
    const type = moonpayEventType(t, created)
    return { type, body: JSON.stringify({ type, data: moonpayObject(t), externalCustomerId: t.externalCustomerId }) }
  }
  return { type: t.status, body: JSON.stringify({ payload: { type: "buy", data: mercuryoObject(t) } }) }
}

// ---- changes ----------------------------------------------------------------------------------

export interface Effects {
  readonly now: number
  /** probability that a `pending` event is held back */
  readonly reorder: number
}

const outbox = (provider: Provider): string => (provider === "moonpay" ? "moonpay_deliveries" : "mercuryo_deliveries")

const enqueue = async (sql: Sql, t: RampTransaction, created: boolean, fx: Effects): Promise<void> => {
  const { type, body } = webhookBody(t, created)
  const held = t.status === "pending" && Math.random() < fx.reorder
  await sql.query(`insert into ${outbox(t.provider)} (applicant_id, type, body, state, next_at, created_at) values ($1, $2, $3, $4, $5, $5)`, [
    t.id,
    type,
    body,
    held ? "held" : "queued",
    fx.now,
  ])
}

export interface NewTransaction {
  readonly provider: Provider
  readonly direction: Direction
  readonly status: string
  readonly externalTransactionId: string
  readonly externalCustomerId: string | null
  readonly crypto: string
  readonly fiat: string
  readonly cryptoAmount: string
  readonly fiatAmount: string
  readonly feeAmount: string
  readonly walletAddress: string | null
  readonly refundAddress: string | null
  readonly redirectUrl: string | null
  readonly cardLast4: string | null
  readonly threeDs: boolean
}

const newId = (provider: Provider): string => (provider === "moonpay" ? randomUUID() : randomBytes(8).toString("hex"))
/** A raw TON address the sandbox "watches" for a sell's deposit. */
const depositAddress = (): string => `0:${randomBytes(32).toString("hex")}`
const txHash = (): string => randomBytes(32).toString("hex")

/** Inserts the transaction (and its created event) unless the external id already has one, which is returned instead. */
export const createTransaction = async (sql: Sql, input: NewTransaction, fx: Effects): Promise<{ created: boolean; tx: RampTransaction }> => {
  const { rows } = await sql.query<Row>(
    `insert into ramp_transactions (id, provider, direction, status, external_transaction_id, external_customer_id, crypto, fiat, crypto_amount,
       fiat_amount, fee_amount, wallet_address, deposit_address, refund_address, redirect_url, card_last4, three_ds, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)
     on conflict (provider, external_transaction_id) do nothing returning *`,
    [
      newId(input.provider),
      input.provider,
      input.direction,
      input.status,
      input.externalTransactionId,
      input.externalCustomerId,
      input.crypto,
      input.fiat,
      input.cryptoAmount,
      input.fiatAmount,
      input.feeAmount,
      input.walletAddress,
      input.direction === "sell" ? depositAddress() : null,
      input.refundAddress,
      input.redirectUrl,
      input.cardLast4,
      input.threeDs,
      fx.now,
    ],
  )
  const row = rows[0]
  if (!row) {
    const existing = await findByExternalId(sql, input.provider, input.externalTransactionId)
    if (!existing) throw new Error("the transaction vanished")
    return { created: false, tx: existing }
  }
  const tx = fromRow(row)
  await enqueue(sql, tx, true, fx)
  return { created: true, tx }
}

export interface Change {
  readonly status: string
  readonly failureReason?: string
  /** set (a number), clear (null) or keep (undefined) the timed completion */
  readonly completeAt?: number | null
  readonly cryptoTransactionId?: string
}

/** Moves the transaction from one of `from` to `change.status` and enqueues its webhook; undefined when it was elsewhere. */
export const moveTransaction = async (
  sql: Sql,
  t: RampTransaction,
  from: ReadonlyArray<string>,
  change: Change,
  fx: Effects,
): Promise<RampTransaction | undefined> => {
  const { rows } = await sql.query<Row>(
    `update ramp_transactions set status = $3, updated_at = $4,
       failure_reason = coalesce($5, failure_reason),
       complete_at = case when $6::boolean then $7::bigint else complete_at end,
       crypto_transaction_id = coalesce($8, crypto_transaction_id)
     where id = $1 and status = any(string_to_array($2, ',')) returning *`,
    [
      t.id,
      from.join(","),
      change.status,
      fx.now,
      change.failureReason ?? null,
      change.completeAt !== undefined,
      change.completeAt ?? null,
      change.cryptoTransactionId ?? null,
    ],
  )
  const row = rows[0]
  if (!row) return undefined
  const moved = fromRow(row)
  await enqueue(sql, moved, false, fx)
  return moved
}

/** The statuses a paid buy goes through after its card was accepted (the last one is final). */
const settleBuy = async (sql: Sql, t: RampTransaction, fx: Effects): Promise<RampTransaction | undefined> => {
  if (t.provider === "moonpay") return moveTransaction(sql, t, ["pending"], { status: "completed", completeAt: null, cryptoTransactionId: txHash() }, fx)
  const paid = await moveTransaction(sql, t, ["pending"], { status: "paid", completeAt: null }, fx)
  return paid && moveTransaction(sql, paid, ["paid"], { status: "succeeded", cryptoTransactionId: txHash() }, fx)
}

export type CardOutcome = "approved" | "declined" | "threeDs"

/** The statuses right after the card form (inside the creating transaction). */
export const applyCard = async (sql: Sql, t: RampTransaction, outcome: CardOutcome, fx: Effects): Promise<RampTransaction> => {
  const first = t.provider === "moonpay" ? "waitingPayment" : "new"
  if (outcome === "threeDs") return t
  if (outcome === "declined") return (await moveTransaction(sql, t, [first], { status: "failed", failureReason: "card_declined" }, fx)) ?? t
  const pending = await moveTransaction(sql, t, [first], { status: "pending" }, fx)
  return (pending && (await settleBuy(sql, pending, fx))) ?? t
}

/** The initial status of a buy with this card. */
export const initialBuyStatus = (provider: Provider, outcome: CardOutcome): string =>
  provider === "mercuryo" ? "new" : outcome === "threeDs" ? "waitingAuthorization" : "waitingPayment"

/** The 3-D Secure challenge passed (→ pending, completed at `completeAt`) or failed (→ failed). */
export const answerChallenge = async (sql: Sql, t: RampTransaction, passed: boolean, completeAt: number, fx: Effects): Promise<RampTransaction | undefined> => {
  const waiting = t.provider === "moonpay" ? "waitingAuthorization" : "new"
  if (!t.threeDs) return undefined
  return passed
    ? moveTransaction(sql, t, [waiting], { status: "pending", completeAt }, fx)
    : moveTransaction(sql, t, [waiting], { status: "failed", failureReason: "3ds_authentication_failed" }, fx)
}

/** The sell's crypto arrived (the wallet's stand-in call): → pending, completed at `completeAt`. */
export const markDeposited = async (sql: Sql, t: RampTransaction, cryptoTransactionId: string | undefined, completeAt: number, fx: Effects) =>
  moveTransaction(sql, t, ["waitingForDeposit"], { status: "pending", completeAt, cryptoTransactionId: cryptoTransactionId ?? txHash() }, fx)

export const cancelSell = async (sql: Sql, t: RampTransaction, fx: Effects) =>
  moveTransaction(sql, t, ["waitingForDeposit"], { status: "failed", failureReason: "cancelled" }, fx)

/**
 * Completes the pending transactions whose timed completion is due (all of them with `all`):
 * 3-D Secure buys and deposited sells. Returns how many were completed.
 */
export const completeDue = async (db: PGlite, now: number, all: boolean, reorder: number): Promise<number> => {
  const { rows } = await db.query<Row>(
    "select * from ramp_transactions where complete_at is not null and status = 'pending' and ($1::boolean or complete_at <= $2) order by complete_at",
    [all, now],
  )
  let done = 0
  for (const row of rows) {
    const t = fromRow(row)
    const fx = { now, reorder }
    const moved = await db.transaction(async (sql) =>
      t.direction === "sell" ? moveTransaction(sql, t, ["pending"], { status: "completed", completeAt: null }, fx) : settleBuy(sql, t, fx),
    )
    if (moved) done++
  }
  return done
}
