/**
 * Pure helpers of the market and order screens (spec 3 §2.1, §4.1): money text, the take form's amount
 * conversion and checks, the order page's title, refusal messages and the countdown. No React, no I/O.
 */
import { formatAmount } from "@wallet/kernel"
import { amountToMinorUnits } from "@wallet/kernel-react/ui"
import type { Order } from "../api.ts"
import {
  ACTIVE_STATUSES,
  cryptoDecimals,
  cryptoOf,
  FIAT_DECIMALS,
  fiatOf,
  maskField,
  type FieldKind,
  type OrderStatus,
  type UnavailableReason,
} from "../domain.ts"

/** Fiat cents as currency text ("1 234,50 ₽", "$12"): whole amounts without decimals; exact (no floats). */
export const formatFiat = (cents: string | bigint, fiat: string, locale: string): string => {
  const value = typeof cents === "bigint" ? cents : BigInt(cents)
  const text = formatAmount(value, FIAT_DECIMALS)
  const whole = value % 100n === 0n
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency: fiat,
      minimumFractionDigits: whole ? 0 : FIAT_DECIMALS,
      maximumFractionDigits: FIAT_DECIMALS,
    }).format(text as Intl.StringNumericLiteral)
  } catch {
    return `${text} ${fiat}`
  }
}

/** Crypto minor units with the code ("12.5 USDT"), every digit kept. */
export const formatCrypto = (units: string | bigint, crypto: string): string =>
  `${formatAmount(typeof units === "bigint" ? units : BigInt(units), cryptoDecimals(crypto) ?? 0)} ${crypto}`

/** A typed amount ("12.5") in minor units; null for an empty or unreadable text. */
export const parseMinor = (text: string, decimals: number): bigint | null => {
  if (text.trim() === "" || text.trim() === ".") return null
  try {
    return amountToMinorUnits(text, decimals)
  } catch {
    return null
  }
}

export type AmountMode = "fiat" | "crypto"

/**
 * The order the take form describes: the crypto amount and its fiat value at `priceCents`. Typed in
 * crypto, the fiat is computed (rounded half up, as the server does). Typed in fiat, the crypto is the
 * amount worth at least the typed fiat (one minor unit more when rounding down fell short of it),
 * unless that unit would pass `maxFiat`.
 */
export const takeAmounts = (
  mode: AmountMode,
  text: string,
  decimals: number,
  priceCents: bigint,
  maxFiat?: bigint,
): { readonly amount: bigint; readonly fiat: bigint } | null => {
  if (mode === "crypto") {
    const amount = parseMinor(text, decimals)
    return amount === null ? null : { amount, fiat: fiatOf(amount, decimals, priceCents) }
  }
  const typed = parseMinor(text, FIAT_DECIMALS)
  if (typed === null) return null
  if (priceCents <= 0n) return { amount: 0n, fiat: typed }
  const down = cryptoOf(typed, decimals, priceCents)
  const downFiat = fiatOf(down, decimals, priceCents)
  if (downFiat >= typed) return { amount: down, fiat: downFiat }
  const upFiat = fiatOf(down + 1n, decimals, priceCents)
  return maxFiat !== undefined && upFiat > maxFiat ? { amount: down, fiat: downFiat } : { amount: down + 1n, fiat: upFiat }
}

export type TakeProblem = "empty" | "zero" | "belowMin" | "aboveMax" | "aboveAvailable"

/** What is wrong with the take form's amount before it is sent (spec 3 §4.1: the offer's limits and volume). */
export const takeProblem = (
  order: { readonly amount: bigint; readonly fiat: bigint } | null,
  limits: { readonly minFiat: bigint; readonly maxFiat: bigint; readonly available: bigint },
): TakeProblem | null => {
  if (order === null) return "empty"
  if (order.amount <= 0n || order.fiat <= 0n) return "zero"
  if (order.amount > limits.available) return "aboveAvailable"
  if (order.fiat < limits.minFiat) return "belowMin"
  if (order.fiat > limits.maxFiat) return "aboveMax"
  return null
}

/** The refusal codes the screens explain; anything else reads as the generic message. */
export const KNOWN_ERRORS = [
  "price_moved",
  "amount_out_of_limits",
  "amount_above_available",
  "offer_unavailable",
  "offer_state_changed",
  "order_state_changed",
  "insufficient_funds",
  "wrong_side",
  "invalid_payment_details",
  "payment_method_required",
  "verification_limit",
  "p2p_unavailable",
  "offer_not_found",
  "order_not_found",
] as const

/** Express mode's refusals (issue 21): their strings are express's own (`express.errors.*`). */
const EXPRESS_CODES = ["express_no_offer", "express_no_payment_details", "express_request_open", "express_only"]

/** The i18n key of a refusal's message. */
export const errorKey = (code: string | undefined): string =>
  code !== undefined && EXPRESS_CODES.includes(code)
    ? `express.errors.${code}`
    : code !== undefined && (KNOWN_ERRORS as ReadonlyArray<string>).includes(code)
      ? `market.errors.${code}`
      : "market.errors.generic"

/**
 * The i18n key of the order page's title for the requester (spec 3 §2.1 /p2p/orders/$id): the maker
 * accepts or declines a request, so those titles follow the role; the rest follow the side.
 */
export const orderTitleKey = (order: Pick<Order, "status" | "side" | "role" | "cancelledBy">): string => {
  const otherSide = order.side === "buyer" ? "seller" : "buyer"
  switch (order.status) {
    case "REQUESTED":
      return order.role === "maker" ? "order.title.requested.maker" : `order.title.requested.waitFor.${otherSide}`
    case "ACCEPTED":
      return order.side === "buyer" ? "order.title.accepted.buyer" : "order.title.accepted.seller"
    case "PAID":
      return order.side === "buyer" ? "order.title.paid.buyer" : "order.title.paid.seller"
    case "COMPLETED":
      return "order.title.completed"
    case "CANCELLED":
      return order.cancelledBy === null
        ? "order.title.cancelled.unknown"
        : order.cancelledBy === order.side
          ? "order.title.cancelled.you"
          : `order.title.cancelled.${order.cancelledBy}`
    case "EXPIRED":
      return "order.title.expired"
    case "REJECTED":
      return order.role === "maker" ? "order.title.rejected.you" : `order.title.rejected.by.${otherSide}`
    case "IN_APPEAL":
      return "order.title.inAppeal"
  }
}

export const isActiveStatus = (status: OrderStatus): boolean => ACTIVE_STATUSES.includes(status)

/** The other party of an order, seen by the requester. */
export const counterpartyOf = (order: Pick<Order, "side" | "buyer" | "seller">) => (order.side === "buyer" ? order.seller : order.buyer)

/** Time left until `deadline` as "m:ss" (or "h:mm:ss"); "0:00" once passed; null without a deadline. */
export const countdown = (deadline: string | null, nowMs: number): string | null => {
  if (deadline === null) return null
  const end = Date.parse(deadline)
  if (Number.isNaN(end)) return null
  const total = Math.max(0, Math.ceil((end - nowMs) / 1000))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = String(total % 60).padStart(2, "0")
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`
}

/** An order or offer id from the path: a positive whole number, else null (the screen shows "not found"). */
export const idOf = (value: unknown): number | null => {
  if (typeof value !== "string" || !/^[0-9]+$/.test(value)) return null
  const id = Number(value)
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

/** The offer list's fiat: the one asked for, else the last chosen, else the user's local currency, else USD. */
export const defaultFiat = (asked: string | undefined, recentFiats: ReadonlyArray<string> | undefined, localCurrency: string | undefined): string => {
  const valid = (code: string | undefined): code is string => code !== undefined && /^[A-Z]{3}$/.test(code)
  if (valid(asked)) return asked
  const recent = recentFiats?.[0]
  if (valid(recent)) return recent
  const local = localCurrency?.toUpperCase()
  return valid(local) ? local : "USD"
}

/** The i18n key explaining why an offer cannot be taken. */
export const unavailableReasonKey = (reason: UnavailableReason | string | undefined): string =>
  reason === "open_orders_per_offer_cap_reached" || reason === "sold_out" || reason === "inactive" || reason === "own_offer" || reason === "below_minimum"
    ? `market.unavailableReason.${reason}`
    : "market.unavailableReason.generic"

/** A fresh idempotency key (32 hex digits), made once per take form so a retry repeats the same request. */
export const newIdempotencyKey = (): string => crypto.randomUUID().replace(/-/g, "")

/** A saved payment details' one-line summary for a chooser ("Sber · •••• 4242"): numbers masked, no comment. */
export const detailsLine = (fields: Readonly<Record<string, string>>): string =>
  Object.entries(fields)
    .filter(([kind, value]) => kind !== "comment" && value.trim() !== "")
    .map(([kind, value]) => maskField(kind as FieldKind, value))
    .join(" · ")

/** A fee in basis points as a percent text ("0.5 %" in the locale). */
export const formatBps = (bps: number, locale: string): string => {
  try {
    return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(bps / 10_000)
  } catch {
    return `${bps / 100}%`
  }
}

/** Fiat cents as the plain number a banking app takes ("1234.5" -> "1234.50", whole amounts without decimals). */
export const formatFiatPlain = (cents: string | bigint): string => {
  const value = typeof cents === "bigint" ? cents : BigInt(cents)
  const rest = value % 100n
  return rest === 0n ? (value / 100n).toString() : `${value / 100n}.${rest.toString().padStart(2, "0")}`
}
