/*
 * Decimal amount strings. Amounts are kept as canonical strings ("0", "12.5", "0.000001") and
 * converted to integer minor units with BigInt: no floating point anywhere.
 */

/** Largest integer part accepted by default (enough for any supply in nano units). */
export const AMOUNT_MAX_INTEGER_DIGITS = 18

const DIGIT_RANGES: ReadonlyArray<number> = [
  0x0660, // Arabic-Indic
  0x06f0, // Extended Arabic-Indic (Persian)
  0x0966, // Devanagari
  0xff10, // full-width
]

function toAsciiDigits(s: string): string {
  let out = ""
  for (const ch of s) {
    const code = ch.codePointAt(0)!
    const base = DIGIT_RANGES.find((b) => code >= b && code <= b + 9)
    out += base === undefined ? ch : String(code - base)
  }
  return out
}

const SPACES = /[\s\u00a0\u202f\u2009'’_]/gu
const DECIMAL_SEPARATORS = /[.,\u066b\u060c]/u // '.', ',', Arabic decimal separator, Arabic comma

export interface AmountRules {
  /** Max digits after the separator; 0 for whole units only. */
  decimals: number
  maxIntegerDigits?: number
}

function canonical(intPart: string, frac: string | null): string {
  const int = intPart.replace(/^0+(?=\d)/u, "") || "0"
  return frac === null ? int : `${int}.${frac}`
}

/**
 * Typing rules: the new raw text of the field is accepted or rejected as a whole.
 * Accepts digits (any common script), one separator ('.' or ','), strips spaces; adds "0" before a
 * leading separator and drops leading zeros ("007" -> "7"). Rejects a second separator, a separator
 * when decimals is 0, more fraction digits than `decimals`, or an integer part that is too long.
 * Returns the canonical string ('.' separator) or null when the edit must be rejected.
 */
export function sanitizeAmountInput(raw: string, rules: AmountRules): string | null {
  const text = toAsciiDigits(raw).replace(SPACES, "")
  if (text === "") return ""
  const parts = text.split(DECIMAL_SEPARATORS)
  if (parts.length > 2) return null
  const [intPart = "", frac] = parts
  if (!/^\d*$/u.test(intPart) || (frac !== undefined && !/^\d*$/u.test(frac))) return null
  if (frac !== undefined && (rules.decimals <= 0 || frac.length > rules.decimals)) return null
  const out = canonical(intPart, frac ?? null)
  if (out.split(".")[0]!.length > (rules.maxIntegerDigits ?? AMOUNT_MAX_INTEGER_DIGITS)) return null
  return out
}

/**
 * Paste rules, more lenient: grouping separators are allowed ("1 234,56", "1,234.56", "1.234.567"),
 * extra fraction digits are cut (never rounded). The last separator is decimal when both kinds occur
 * or when one kind occurs once; one kind occurring several times is grouping.
 */
export function sanitizePastedAmount(raw: string, rules: AmountRules): string | null {
  const text = toAsciiDigits(raw.trim())
    .replace(SPACES, "")
    .replace(/[\u066b]/gu, ".")
    .replace(/[\u060c]/gu, ",")
  if (!/^[\d.,]+$/u.test(text)) return null
  const dots = text.split(".").length - 1
  const commas = text.split(",").length - 1
  let intPart: string
  let frac: string | null = null
  if (dots > 0 && commas > 0) {
    const last = Math.max(text.lastIndexOf("."), text.lastIndexOf(","))
    intPart = text.slice(0, last).replace(/[.,]/gu, "")
    frac = text.slice(last + 1)
    if (/[.,]/u.test(frac)) return null
  } else if (dots + commas === 1) {
    const [a = "", b = ""] = text.split(/[.,]/u)
    intPart = a
    frac = b
  } else {
    intPart = text.replace(/[.,]/gu, "")
  }
  if (frac !== null) {
    frac = rules.decimals > 0 ? frac.slice(0, rules.decimals) : ""
    if (frac === "") frac = rules.decimals > 0 && /[.,]$/u.test(text) ? "" : null
  }
  const out = canonical(intPart, frac)
  if (out.split(".")[0]!.length > (rules.maxIntegerDigits ?? AMOUNT_MAX_INTEGER_DIGITS)) return null
  return out
}

/** "12.5" with decimals 9 -> 12500000000n. Empty or "." parts count as zero. Throws on garbage. */
export function amountToMinorUnits(amount: string, decimals: number): bigint {
  const m = /^(\d*)(?:\.(\d*))?$/u.exec(amount.trim())
  if (!m) throw new Error(`Not a decimal amount: ${JSON.stringify(amount)}`)
  const int = m[1] ?? ""
  const frac = m[2] ?? ""
  if (frac.length > decimals) throw new Error(`More than ${decimals} decimals: ${JSON.stringify(amount)}`)
  return BigInt((int || "0") + frac.padEnd(decimals, "0"))
}

/** 12500000000n with decimals 9 -> "12.5" (no trailing zeros; negative amounts keep their sign). */
export function minorUnitsToAmount(units: bigint, decimals: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0")
  const int = digits.slice(0, digits.length - decimals)
  const frac = decimals > 0 ? digits.slice(digits.length - decimals).replace(/0+$/u, "") : ""
  return `${negative ? "-" : ""}${int}${frac ? `.${frac}` : ""}`
}

/** Canonical "12.5" shown with the locale separator: "12,5". */
export function formatAmountForInput(value: string, decimalSeparator: "." | ","): string {
  return decimalSeparator === "," ? value.replace(".", ",") : value
}
