/**
 * Quotes in whole minor units (BigInt): a buy turns a fiat amount (≤ 2 decimals) into crypto after
 * the provider's fee; a sell turns crypto into fiat after the fee. Amounts leave as decimal strings.
 */
import { CRYPTOS, FEE_BPS, FIATS, type Crypto, type Provider } from "./config.ts"

/** "12.5" with at most `decimals` fraction digits → minor units; undefined when malformed or not positive. */
export const parseUnits = (text: string | null | undefined, decimals: number): bigint | undefined => {
  if (!text || !/^\d{1,12}(\.\d+)?$/.test(text)) return undefined
  const [whole = "0", fraction = ""] = text.split(".")
  if (fraction.length > decimals) return undefined
  const units = BigInt(whole + fraction.padEnd(decimals, "0"))
  return units > 0n ? units : undefined
}

export const formatUnits = (units: bigint, decimals: number): string => {
  const text = units.toString().padStart(decimals + 1, "0")
  const whole = text.slice(0, text.length - decimals)
  const fraction = text.slice(text.length - decimals).replace(/0+$/, "")
  return fraction ? `${whole}.${fraction}` : whole
}

export const cryptoByCode = (provider: Provider, code: string | null): Crypto | undefined =>
  CRYPTOS.find((c) => (provider === "moonpay" ? c.moonpay === code?.toLowerCase() : c.mercuryo === code?.toUpperCase()))

export const cryptoBySymbol = (symbol: string): Crypto | undefined => CRYPTOS.find((c) => c.symbol === symbol)

export interface Quote {
  readonly fiatAmount: string
  readonly cryptoAmount: string
  readonly feeAmount: string
}

export type QuoteProblem = "amount" | "currency" | "limits"

const fiatLimits = (fiat: string) => FIATS[fiat]

const feeOf = (cents: bigint, provider: Provider): bigint => (cents * BigInt(FEE_BPS[provider]) + 9999n) / 10_000n

const inLimits = (fiat: string, cents: bigint): boolean => {
  const limits = fiatLimits(fiat)
  return limits !== undefined && cents >= BigInt(limits.min * 100) && cents <= BigInt(limits.max * 100)
}

/** A buy of crypto for `fiatText` of `fiat` (lowercase code). */
export const quoteBuy = (provider: Provider, crypto: Crypto, fiat: string, fiatText: string | null): Quote | QuoteProblem => {
  const price = crypto.price[fiat]
  if (price === undefined || !fiatLimits(fiat)) return "currency"
  const cents = parseUnits(fiatText, 2)
  if (cents === undefined) return "amount"
  if (!inLimits(fiat, cents)) return "limits"
  const fee = feeOf(cents, provider)
  const units = ((cents - fee) * 10n ** BigInt(crypto.decimals)) / BigInt(price)
  return { fiatAmount: formatUnits(cents, 2), cryptoAmount: formatUnits(units, crypto.decimals), feeAmount: formatUnits(fee, 2) }
}

/** A sell of `cryptoText` for `fiat`. */
export const quoteSell = (provider: Provider, crypto: Crypto, fiat: string, cryptoText: string | null): Quote | QuoteProblem => {
  const price = crypto.price[fiat]
  if (price === undefined || !fiatLimits(fiat)) return "currency"
  const units = parseUnits(cryptoText, crypto.decimals)
  if (units === undefined) return "amount"
  const gross = (units * BigInt(price)) / 10n ** BigInt(crypto.decimals)
  if (!inLimits(fiat, gross)) return "limits"
  const fee = feeOf(gross, provider)
  return { fiatAmount: formatUnits(gross - fee, 2), cryptoAmount: formatUnits(units, crypto.decimals), feeAmount: formatUnits(fee, 2) }
}
