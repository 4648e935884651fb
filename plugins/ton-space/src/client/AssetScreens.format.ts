/** Money formatting of the TON space's asset pages. */
import { numberLocale } from "@wallet/kernel"
import { formatFiat } from "../core/pnl.ts"

/**
 * `12.34` fiat nanos as "$12.34" (narrow symbol of the user's fiat in the kernel's number locale, so
 * bn, hi and ar read as en, spec 2 §9; the amount itself is formatted from bigint).
 */
export const fiatText = (nanos: bigint, fiat: string, language: string) => {
  let symbol = fiat
  try {
    symbol =
      new Intl.NumberFormat(numberLocale(language), { style: "currency", currency: fiat, currencyDisplay: "narrowSymbol" })
        .formatToParts(0)
        .find((p) => p.type === "currency")?.value ?? fiat
  } catch {
    symbol = fiat
  }
  const text = formatFiat(nanos)
  return text.startsWith("-") ? `-${symbol}${text.slice(1)}` : `${symbol}${text}`
}
