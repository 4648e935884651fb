/**
 * Money formatting from integer minor units and decimal strings: never through a float. Intl
 * formats a decimal string exactly (ECMA-402 accepts numeric strings).
 */
import { numberLocale } from "@wallet/kernel"

const asIntlNumber = (decimal: string) => decimal as unknown as number

/** `123456n` with 2 decimals -> "1234.56"; negative values keep their sign. */
export const minorToDecimal = (minor: bigint, decimals: number): string => {
  const negative = minor < 0n
  const abs = negative ? -minor : minor
  if (decimals === 0) return `${negative ? "-" : ""}${abs}`
  const scale = 10n ** BigInt(decimals)
  const fraction = (abs % scale).toString().padStart(decimals, "0")
  return `${negative ? "-" : ""}${abs / scale}.${fraction}`
}

/** Formats a fiat amount in minor units with the currency's own number of digits (JPY has none). */
export const formatFiat = (minor: bigint, currency: string, language: string): string => {
  const format = new Intl.NumberFormat(numberLocale(language), { style: "currency", currency })
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  return format.format(asIntlNumber(minorToDecimal(minor, digits)))
}

/** A fiat price given as a decimal string ("3.2145"): two digits, more for prices under 1. */
export const formatFiatDecimal = (decimal: string, currency: string, language: string): string => {
  const small = /^-?0(\.|$)/.test(decimal)
  const format = new Intl.NumberFormat(numberLocale(language), { style: "currency", currency, ...(small ? { maximumSignificantDigits: 4 } : {}) })
  return format.format(asIntlNumber(decimal))
}

/**
 * A crypto amount in minor units: grouped, at most `maxFraction` digits (cut, not rounded up, so a
 * balance is never shown larger than it is), trailing zeros dropped, then the currency code.
 */
export const formatCrypto = (minor: bigint, decimals: number, currency: string, language: string, maxFraction = 6): string => {
  const keep = Math.min(decimals, maxFraction)
  const cut = decimals > keep ? minor / 10n ** BigInt(decimals - keep) : minor
  const format = new Intl.NumberFormat(numberLocale(language), { minimumFractionDigits: 0, maximumFractionDigits: keep })
  return `${format.format(asIntlNumber(minorToDecimal(cut, keep)))} ${currency}`
}

/** A fiat value given as a decimal string ("12.30") with the currency's own digits. */
export const formatFiatAmount = (decimal: string, currency: string, language: string): string =>
  new Intl.NumberFormat(numberLocale(language), { style: "currency", currency }).format(asIntlNumber(decimal))

/**
 * A 24h change in percent (a display ratio such as -1.25, not money), signed, two decimals. The
 * value is scaled as a decimal string so no float division happens.
 */
export const formatPercentChange = (percent: number, language: string): string => {
  const fixed = percent.toFixed(2)
  const negative = fixed.startsWith("-")
  const [whole = "0", fraction = "00"] = fixed.replace("-", "").split(".")
  const ratio = `${negative ? "-" : ""}${minorToDecimal(BigInt(whole + fraction), 4)}`
  return new Intl.NumberFormat(numberLocale(language), {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
  }).format(asIntlNumber(ratio))
}

/** The sign of a decimal string: -1, 0 or 1. */
export const decimalSign = (decimal: string): -1 | 0 | 1 => (decimal.startsWith("-") && /[1-9]/.test(decimal) ? -1 : /[1-9]/.test(decimal) ? 1 : 0)
