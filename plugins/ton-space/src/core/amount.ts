/**
 * Amounts as strings and bigint minor units, never floats (spec 2 §5: truncation by default,
 * decimals bounded). TON has 9 decimals.
 */
import { formatUnits } from "@wallet/kernel"

export const TON_DECIMALS = 9
export const NANO = 1_000_000_000n

/** Parses a user amount ('.' or ',' separator) into minor units, truncating digits beyond `decimals`. Null when not a number. */
export const parseAmount = (input: string, decimals: number): bigint | null => {
  const text = input.trim().replace(",", ".")
  if (!/^\d*(\.\d*)?$/.test(text) || text === "" || text === ".") return null
  const [whole = "", fraction = ""] = text.split(".")
  const kept = fraction.slice(0, decimals).padEnd(decimals, "0")
  return BigInt(whole === "" ? "0" : whole) * 10n ** BigInt(decimals) + (decimals > 0 ? BigInt(kept) : 0n)
}

/** Minor units to a decimal string, truncated to `maxDecimals`, zeros dropped, thousands spaced: the kernel's `formatUnits`. */
export { formatUnits as formatAmount }

/** Display decimals by magnitude (spec 2 §5 quote rule): 6 minus the number of integer digits, at least 0. */
export const displayDecimals = (minor: bigint, decimals: number): number => {
  const whole = (minor < 0n ? -minor : minor) / 10n ** BigInt(decimals)
  const digits = whole === 0n ? 0 : whole.toString().length
  return Math.max(0, Math.min(decimals, 6 - digits))
}

/** Formats with the magnitude rule; small non-zero amounts keep enough digits to not show 0. */
export const formatDisplay = (minor: bigint, decimals: number): string => {
  const shown = formatUnits(minor, decimals, displayDecimals(minor, decimals))
  return shown === "0" && minor !== 0n ? formatUnits(minor, decimals) : shown
}
