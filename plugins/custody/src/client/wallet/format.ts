/**
 * Formatting for the wallet screens, from the contract's decimal strings: Intl formats numeric
 * strings exactly, so no amount ever goes through a float.
 */
import { numberLocale, shortAddress as kernelShortAddress } from "@wallet/kernel"
import { parseAmount } from "../../currencies.ts"

const exact = (decimal: string) => decimal as unknown as number

/** A crypto amount cut (never rounded up) to `maxFraction` digits, grouped, with its code. */
export const formatCryptoAmount = (decimal: string, decimals: number, currency: string, language: string, maxFraction = 6): string => {
  const minor = parseAmount(decimal.replace(/^-/, ""), decimals) ?? 0n
  const keep = Math.min(decimals, maxFraction)
  const cut = minor / 10n ** BigInt(decimals - keep)
  const whole = cut / 10n ** BigInt(keep)
  const fraction = keep > 0 ? (cut % 10n ** BigInt(keep)).toString().padStart(keep, "0") : ""
  const text = new Intl.NumberFormat(numberLocale(language), { maximumFractionDigits: keep }).format(exact(`${whole}${fraction ? `.${fraction}` : ""}`))
  return `${decimal.startsWith("-") && cut > 0n ? "-" : ""}${text} ${currency}`
}

/** A fiat value ("12.30") with the currency's digits. */
export const formatFiatValue = (decimal: string, currency: string, language: string): string =>
  new Intl.NumberFormat(numberLocale(language), { style: "currency", currency }).format(exact(decimal))

/** A price: two digits, four significant ones under 1. */
export const formatPrice = (decimal: string, currency: string, language: string): string =>
  new Intl.NumberFormat(numberLocale(language), { style: "currency", currency, ...(/^0(\.|$)/.test(decimal) ? { maximumSignificantDigits: 4 } : {}) }).format(
    exact(decimal),
  )

/** A change in percent (display ratio, e.g. -1.25), signed, two decimals. */
export const formatPercent = (percent: number, language: string): string =>
  `${new Intl.NumberFormat(numberLocale(language), { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(percent)}%`

export const formatDateTime = (iso: string, language: string): string =>
  new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso))

export const formatTime = (iso: string, language: string): string => new Intl.DateTimeFormat(language, { timeStyle: "short" }).format(new Date(iso))

/** A long address shortened in the middle, custody's 6 + 6 ("UQAbcd…456789"), by the kernel's `shortAddress`. */
export const shortAddress = (address: string): string => kernelShortAddress(address, 6, 6)
