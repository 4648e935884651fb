/**
 * Formatting for the trade screens, from the contract's decimal strings: Intl formats numeric
 * strings exactly, so prices never go through a float; big sums are shown compact ("$1.2B").
 */
import { numberLocale } from "@wallet/kernel"

const exact = (decimal: string) => decimal as unknown as number

/** A price: two digits, four significant ones under 1 (0.00002134 stays readable). */
export const formatPrice = (decimal: string, fiat: string, language: string): string =>
  new Intl.NumberFormat(numberLocale(language), {
    style: "currency",
    currency: fiat,
    ...(/^0(\.|$)/.test(decimal) ? { maximumSignificantDigits: 4 } : {}),
  }).format(exact(decimal))

/** A large fiat sum, compact ("$1.2B", "1,2 млрд $"). */
export const formatCompactFiat = (decimal: string, fiat: string, language: string): string =>
  new Intl.NumberFormat(numberLocale(language), { style: "currency", currency: fiat, notation: "compact", maximumFractionDigits: 2 }).format(exact(decimal))

/** A 24 h change in percent (-1.25), signed, two decimals. */
export const formatChange = (percent: number, language: string): string =>
  `${new Intl.NumberFormat(numberLocale(language), { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(percent)}%`

export const trendOf = (percent: number): "up" | "down" | "flat" => (percent > 0 ? "up" : percent < 0 ? "down" : "flat")
