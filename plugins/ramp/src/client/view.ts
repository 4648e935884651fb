/** The ramp screens' pure helpers: the payload between steps, the status page's strict search, errors. */
import {
  AMOUNT_PATTERN,
  DIRECTIONS,
  INPUT_MODES,
  isFiat,
  isRampCurrency,
  PAYMENT_METHODS,
  type Direction,
  type InputMode,
  type PaymentMethod,
  type RampCurrency,
} from "../domain.ts"

/** What the amount step hands the provider step (the `payload` search param, JSON). */
export interface Payload {
  readonly direction: Direction
  readonly currency: RampCurrency
  readonly network: "ton"
  readonly fiatCurrency: string
  readonly amount: string
  readonly inputMode: InputMode
  readonly paymentMethod?: PaymentMethod
  /** After a sale was created: its id (the success step). */
  readonly rampId?: string
}

export const encodePayload = (payload: Payload): string => JSON.stringify(payload)

/** The payload of a search param, or undefined when it is not one (a hand-edited link). */
export const decodePayload = (text: string | undefined): Payload | undefined => {
  if (text === undefined) return undefined
  let value: Record<string, unknown>
  try {
    value = JSON.parse(text) as Record<string, unknown>
  } catch {
    return undefined
  }
  if (value === null || typeof value !== "object") return undefined
  const { direction, currency, network, fiatCurrency, amount, inputMode, paymentMethod, rampId } = value
  if (!(DIRECTIONS as ReadonlyArray<unknown>).includes(direction)) return undefined
  if (typeof currency !== "string" || !isRampCurrency(currency) || network !== "ton") return undefined
  if (typeof fiatCurrency !== "string" || !isFiat(fiatCurrency)) return undefined
  if (typeof amount !== "string" || !AMOUNT_PATTERN.test(amount)) return undefined
  if (!(INPUT_MODES as ReadonlyArray<unknown>).includes(inputMode)) return undefined
  if (paymentMethod !== undefined && !(PAYMENT_METHODS as ReadonlyArray<unknown>).includes(paymentMethod)) return undefined
  if (rampId !== undefined && (typeof rampId !== "string" || !UUID.test(rampId))) return undefined
  return {
    direction: direction as Direction,
    currency,
    network: "ton",
    fiatCurrency,
    amount,
    inputMode: inputMode as InputMode,
    ...(paymentMethod !== undefined ? { paymentMethod: paymentMethod as PaymentMethod } : {}),
    ...(rampId !== undefined ? { rampId: rampId as string } : {}),
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export interface StatusSearch {
  readonly externalTransactionId: string
  readonly direction: Direction
  readonly amount: string
  readonly currency: RampCurrency
}

/**
 * Spec 1 §2 /assets/ramp/asterium-trx-status: external_transaction_id (string), direction (buy or
 * sell), amount (string), currency (from the ramp currency list); any other search is rejected.
 */
export const statusSearchOf = (search: {
  readonly external_transaction_id?: string | undefined
  readonly direction?: string | undefined
  readonly amount?: string | undefined
  readonly currency?: string | undefined
}): StatusSearch | undefined => {
  const { external_transaction_id: id, direction, amount, currency } = search
  if (id === undefined || !UUID.test(id)) return undefined
  if (direction !== "buy" && direction !== "sell") return undefined
  if (amount === undefined || !AMOUNT_PATTERN.test(amount)) return undefined
  if (currency === undefined || !isRampCurrency(currency)) return undefined
  return { externalTransactionId: id, direction, amount, currency }
}

/** A fiat from a link, or the fallback when the link's is not in the fixed list (spec 1 §5). */
export const fiatOr = (code: string | undefined, fallback: string): string => (code !== undefined && isFiat(code.toUpperCase()) ? code.toUpperCase() : fallback)

/** The i18n key of a refusal code (unknown codes: the generic one). */
export const errorKey = (code: string | undefined): string =>
  code === "amount_too_small" ||
  code === "amount_too_large" ||
  code === "unsupported_fiat_currency" ||
  code === "insufficient_balance" ||
  code === "rates_unavailable" ||
  code === "provider_not_configured" ||
  code === "invalid_amount"
    ? `errors.${code}`
    : "errors.generic"
