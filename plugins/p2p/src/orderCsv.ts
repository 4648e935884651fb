/**
 * The order-history export (issue 21; spec 3 §2.1 /p2p/export-order-history): the periods, the
 * columns and the CSV text (RFC 4180: comma-separated, CRLF line ends, a header row, a field quoted
 * when it holds a comma, a quote or a line break, quotes doubled). A cell that a spreadsheet would
 * read as a formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe,
 * so a counterparty named `=HYPERLINK(...)` stays text (OWASP "CSV injection"). Pure; no I/O.
 */
import { formatAmount } from "@wallet/kernel"
import { cryptoDecimals, FIAT_DECIMALS } from "./domain.ts"

export const EXPORT_PERIODS = ["30d", "90d", "all"] as const
export type ExportPeriod = (typeof EXPORT_PERIODS)[number]

/** How the file reaches the user: the Telegram client's download (Bot API 8.0), or a link in a bot message. */
export const EXPORT_DELIVERIES = ["download", "message"] as const
export type ExportDelivery = (typeof EXPORT_DELIVERIES)[number]

/** A download link works once, for this long. */
export const EXPORT_LINK_TTL_MS = 10 * 60_000

/** The link's token: 32 random bytes, base64url (43 characters). */
export const EXPORT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

export const EXPORT_COLUMNS = [
  "order_id",
  "created_at",
  "status",
  "side",
  "crypto",
  "amount",
  "fiat",
  "fiat_amount",
  "price",
  "fee",
  "counterparty",
  "payment_method",
  "completed_at",
] as const

const DAY_MS = 86_400_000

/** The first moment the period covers (null: all of the history). */
export const periodStart = (period: ExportPeriod, nowMs: number): Date | null =>
  period === "all" ? null : new Date(nowMs - (period === "30d" ? 30 : 90) * DAY_MS)

/** A cell as a spreadsheet must read it: formula starts neutralised, then quoted when needed. */
export const csvCell = (value: string): string => {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvLine = (cells: ReadonlyArray<string>): string => cells.map(csvCell).join(",")

/** The whole file: the header row and one line per row, each ending in CRLF. */
export const toCsv = (rows: ReadonlyArray<ReadonlyArray<string>>): string => [EXPORT_COLUMNS, ...rows].map((row) => `${csvLine(row)}\r\n`).join("")

/** One order as the export shows it to the requester. */
export interface ExportOrder {
  readonly id: number
  readonly createdAt: Date
  readonly status: string
  readonly side: "buyer" | "seller"
  readonly crypto: string
  /** Minor units. */
  readonly amount: bigint
  readonly fiat: string
  /** Cents. */
  readonly fiatAmount: bigint
  /** Cents per whole crypto unit. */
  readonly priceCents: bigint
  /** The requester's own fee (minor units of the crypto). */
  readonly fee: bigint
  readonly counterparty: string
  readonly paymentMethod: string
  readonly completedAt: Date | null
}

/** Amounts as plain decimals ("1.5"), times in ISO 8601 UTC. */
export const exportRow = (order: ExportOrder): ReadonlyArray<string> => {
  const decimals = cryptoDecimals(order.crypto) ?? 0
  return [
    String(order.id),
    order.createdAt.toISOString(),
    order.status,
    order.side,
    order.crypto,
    formatAmount(order.amount, decimals),
    order.fiat,
    formatAmount(order.fiatAmount, FIAT_DECIMALS),
    formatAmount(order.priceCents, FIAT_DECIMALS),
    formatAmount(order.fee, decimals),
    order.counterparty,
    order.paymentMethod,
    order.completedAt === null ? "" : order.completedAt.toISOString(),
  ]
}

/** `p2p-orders-<period>-<YYYY-MM-DD>.csv` (the UTC day of the export). */
export const exportFileName = (period: ExportPeriod, nowMs: number): string => `p2p-orders-${period}-${new Date(nowMs).toISOString().slice(0, 10)}.csv`
