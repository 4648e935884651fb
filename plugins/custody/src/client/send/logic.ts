/**
 * Pure rules of the send screens (spec 1 §4 status mapping, §9 recent list size; spec 2 §5 address
 * check, §"Escrow" 14-day expiry). Amounts are bigint minor units or canonical decimal strings.
 */
import { numberLocale } from "@wallet/kernel"
import { formatAmount as minorToDecimal, parseAmount } from "../../currencies.ts"

// --- statuses ----------------------------------------------------------------------------------

export type DisplayStatus = "pending" | "accepted" | "rejected" | "failed"

/** Spec 1 §4 custody transfers: new -> pending; success/accepted -> accepted; canceled/rejected -> rejected; else failed. */
export const mapTransferStatus = (status: string): DisplayStatus => {
  switch (status) {
    case "new":
      return "pending"
    case "success":
    case "accepted":
      return "accepted"
    case "canceled":
    case "rejected":
      return "rejected"
    default:
      return "failed"
  }
}

/**
 * Spec 1 §4 generic mapping: pending -> pending; success -> accepted; canceled -> rejected; else failed.
 * A withdrawal's `processing` (sent, not final) is still on its way: shown as pending.
 */
export const mapGenericStatus = (status: string): DisplayStatus => {
  switch (status) {
    case "pending":
    case "processing":
      return "pending"
    case "success":
      return "accepted"
    case "canceled":
      return "rejected"
    default:
      return "failed"
  }
}

export const isFinalStatus = (status: DisplayStatus): boolean => status !== "pending"

// --- transfer expiry and roles -----------------------------------------------------------------

/** Escrow-like items expire 14 days after creation (spec 2 "Escrow"). */
export const TRANSFER_EXPIRY_MS = 14 * 24 * 60 * 60 * 1000

export const transferExpiresAt = (createdAt: string | Date): Date => new Date(new Date(createdAt).getTime() + TRANSFER_EXPIRY_MS)

/** Whole days left (rounded up) until expiry; 0 once expired. */
export const daysLeft = (createdAt: string | Date, now: Date): number => {
  const left = transferExpiresAt(createdAt).getTime() - now.getTime()
  return left <= 0 ? 0 : Math.ceil(left / (24 * 60 * 60 * 1000))
}

export type TransferView = "accept" | "cancel" | "transaction"

/**
 * Spec 1 §2: a transfer link leads by role: the receiver opens the accept page, the sender the
 * cancel page, and a user without custody the transaction page. Once final there is nothing to
 * accept or cancel: both see the transaction.
 */
export const transferView = (args: { readonly role: "sender" | "receiver"; readonly custody: boolean; readonly status: DisplayStatus }): TransferView => {
  if (!args.custody || args.status !== "pending") return "transaction"
  return args.role === "receiver" ? "accept" : "cancel"
}

// --- recent receivers --------------------------------------------------------------------------

/** Spec 1 §9: at most two items in a recent list. */
export const RECENT_RECEIVERS_MAX = 2

/** Puts `id` first, without duplicates, cut to the limit. */
export const pushRecent = <T extends { readonly id: number | string }>(list: ReadonlyArray<T>, item: T, max = RECENT_RECEIVERS_MAX): ReadonlyArray<T> =>
  [item, ...list.filter((entry) => entry.id !== item.id)].slice(0, max)

// --- amounts -----------------------------------------------------------------------------------

export type AmountProblem = "empty" | "zero" | "too_small" | "too_large" | "insufficient"

export interface AmountLimits {
  readonly decimals: number
  /** What the user holds (minor units). */
  readonly balance: bigint
  /** Charged on top of the amount (same currency); 0 for transfers to Telegram users. */
  readonly fee: bigint
  readonly min?: bigint
  readonly max?: bigint
}

/** Parses a canonical decimal string to minor units; undefined when empty or malformed. */
export const toMinor = (value: string, decimals: number): bigint | undefined => {
  if (!/^\d+(?:\.\d+)?$/.test(value)) return undefined
  if ((value.split(".")[1]?.length ?? 0) > decimals) return undefined
  return parseAmount(value, decimals)
}

export const toDecimal = (minor: bigint, decimals: number): string => minorToDecimal(minor, decimals)

/** The first rule an amount breaks, or undefined when it can be sent. */
export const amountProblem = (value: string, limits: AmountLimits): AmountProblem | undefined => {
  if (value === "") return "empty"
  const minor = toMinor(value, limits.decimals)
  if (minor === undefined) return "empty"
  if (minor === 0n) return "zero"
  if (limits.min !== undefined && minor < limits.min) return "too_small"
  if (limits.max !== undefined && minor > limits.max) return "too_large"
  if (minor + limits.fee > limits.balance) return "insufficient"
  return undefined
}

/** Max: the balance minus the fee (never below 0), capped by the per-send maximum. */
export const maxAmount = (limits: AmountLimits): bigint => {
  const available = limits.balance - limits.fee
  const capped = limits.max !== undefined && limits.max < available ? limits.max : available
  return capped > 0n ? capped : 0n
}

/** Formats minor units for display with the currency code ("1.5 TON"), grouping by the language. */
export const formatAmount = (minor: bigint, decimals: number, currency: string, language: string): string => {
  const decimal = minorToDecimal(minor, decimals)
  const [int = "0", frac] = decimal.split(".")
  const grouped = new Intl.NumberFormat(numberLocale(language), { maximumFractionDigits: 0 }).format(BigInt(int))
  const separator = new Intl.NumberFormat(numberLocale(language)).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? "."
  return `${grouped}${frac ? `${separator}${frac}` : ""}\u00a0${currency}`
}

/** A short form of a long address for summaries: the wallet screens' (first 6 and last 6). */
export { shortAddress } from "../wallet/format.ts"
