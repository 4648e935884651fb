/**
 * Money and address text shared by every plugin and the server (decision 0130). Amounts are
 * integer minor units (bigint); nothing here goes through floats.
 */

/** Exact minor units to the shortest decimal string ("1.5", "0", "-0.25"): the wire and ledger form. */
export const formatAmount = (units: bigint, decimals: number): string => {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`
}

/**
 * Minor units for display (spec 2 §5): truncated (never rounded up) to `maxDecimals` digits,
 * trailing zeros dropped, thousands separated by a space ("12 345.5").
 */
export const formatUnits = (minor: bigint, decimals: number, maxDecimals = decimals): string => {
  const negative = minor < 0n
  const abs = negative ? -minor : minor
  const base = 10n ** BigInt(decimals)
  const whole = (abs / base).toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ")
  const fraction = decimals > 0 ? (abs % base).toString().padStart(decimals, "0").slice(0, Math.max(0, maxDecimals)).replace(/0+$/, "") : ""
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`
}

/**
 * A long address shortened in the middle: the first `head` characters, an ellipsis, the last
 * `tail` (spec 2 §5: 2 and 4; custody's screens use 6 and 6). Addresses of `head + tail`
 * characters or fewer are shown in full.
 */
export const shortAddress = (address: string, head = 2, tail = 4): string =>
  address.length <= head + tail ? address : `${address.slice(0, head)}…${address.slice(-tail)}`
