/** Exact fiat arithmetic on integer minor units and scaled prices (no floats for money). */
import { formatAmount } from "../currencies.ts"
import { PRICE_DECIMALS, PRICE_SCALE } from "./rates/Rates.ts"

/** Rounds num/den half away from zero (den > 0). */
export const divRound = (num: bigint, den: bigint): bigint => (num >= 0n ? (num + den / 2n) / den : -((-num + den / 2n) / den))

/** Value of `units` (with `decimals`) at `price` (fiat per unit, scaled) in fiat cents, rounded half up. */
export const fiatCents = (units: bigint, decimals: number, price: bigint): bigint => divRound(units * price * 100n, 10n ** BigInt(decimals) * PRICE_SCALE)

/** Cents to "12.30" / "-0.05". */
export const formatCents = (cents: bigint): string => {
  const negative = cents < 0n
  const digits = (negative ? -cents : cents).toString().padStart(3, "0")
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`
}

/** A scaled price to a decimal string (up to 12 fractional digits, trailing zeros dropped). */
export const formatPrice = (price: bigint): string => formatAmount(price, PRICE_DECIMALS)

/** Change from `before` to `now` in percent with 2 decimals (0 when `before` is 0). */
export const percentChange = (now: bigint, before: bigint): number => (before === 0n ? 0 : Number(divRound((now - before) * 10_000n, before)) / 100)
