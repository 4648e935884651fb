/**
 * The P2P market's pure rules (spec 3 §1, §3, §4.1, §9; decision 1000): currencies, the payment
 * method catalogue and its field checks, prices, fees, the order machine and the history filters.
 * Shared by the server, the mini-app and the tests; no I/O.
 */

export const OFFER_TYPES = ["SALE", "PURCHASE"] as const
export type OfferType = (typeof OFFER_TYPES)[number]
/** An order's `offerType` (spec 3 §3): SALE when the offer sold crypto, BUY when it bought. */
export type OrderOfferType = "SALE" | "BUY"
export const orderOfferType = (type: OfferType): OrderOfferType => (type === "SALE" ? "SALE" : "BUY")

export const OFFER_STATUSES = ["ACTIVE", "INACTIVE"] as const
export type OfferStatus = (typeof OFFER_STATUSES)[number]

export const PRICE_TYPES = ["FIXED", "FLOATING"] as const
export type PriceType = (typeof PRICE_TYPES)[number]

/** Crypto traded on the market (custodial currencies, minor units as in the Ledger). */
export const P2P_CRYPTO = [
  { code: "USDT", decimals: 6 },
  { code: "TON", decimals: 9 },
  { code: "BTC", decimals: 8 },
  { code: "NOT", decimals: 9 },
] as const
export type P2pCrypto = (typeof P2P_CRYPTO)[number]["code"]
export const cryptoDecimals = (code: string): number | undefined => P2P_CRYPTO.find((c) => c.code === code)?.decimals

/** Fiat is counted in cents (two decimals) everywhere on the market. */
export const FIAT_DECIMALS = 2

// --- payment methods -----------------------------------------------------------------------------

export const FIELD_KINDS = ["cardNumber", "phone", "email", "iban", "accountNumber", "holderName", "bankName", "revtag", "pixKey", "comment"] as const
export type FieldKind = (typeof FIELD_KINDS)[number]

export interface PaymentMethodInfo {
  readonly code: string
  /** English name; the mini-app translates `methods.<code>` when it has one. */
  readonly name: string
  readonly fiats: ReadonlyArray<string>
  /** Required fields first; `comment` is always optional. */
  readonly fields: ReadonlyArray<FieldKind>
  /** Minutes a buyer gets to pay by default (instant rails 15; bank transfers longer; PARTNERS.md §1.6). */
  readonly paymentWindow: number
}

const CARD_FIATS = ["RUB", "USD", "EUR", "UAH", "KZT", "UZS", "BYN", "TRY", "GEL", "AZN", "AMD", "KGS", "GBP", "INR"]
const IDR = ["IDR"]

/** Spec 3 §3 "Payment method codes" (sbp is special: a phone and the receiving bank). */
export const PAYMENT_METHODS: ReadonlyArray<PaymentMethodInfo> = [
  { code: "sbp", name: "SBP", fiats: ["RUB"], fields: ["phone", "bankName", "holderName"], paymentWindow: 15 },
  { code: "card", name: "Bank card", fiats: CARD_FIATS, fields: ["cardNumber", "holderName", "bankName"], paymentWindow: 15 },
  { code: "google", name: "Google Pay", fiats: ["USD", "EUR", "GBP"], fields: ["cardNumber", "holderName"], paymentWindow: 15 },
  { code: "apple", name: "Apple Pay", fiats: ["USD", "EUR", "GBP"], fields: ["cardNumber", "holderName"], paymentWindow: 15 },
  { code: "revolut_pay", name: "Revolut", fiats: ["EUR", "GBP", "USD"], fields: ["revtag", "holderName"], paymentWindow: 15 },
  { code: "unlimint_pix_brl", name: "PIX", fiats: ["BRL"], fields: ["pixKey", "holderName"], paymentWindow: 15 },
  { code: "EightBWorld_bni", name: "BNI", fiats: IDR, fields: ["accountNumber", "holderName"], paymentWindow: 30 },
  { code: "EightBWorld_bri", name: "BRI", fiats: IDR, fields: ["accountNumber", "holderName"], paymentWindow: 30 },
  { code: "EightBWorld_mandiri", name: "Mandiri", fiats: IDR, fields: ["accountNumber", "holderName"], paymentWindow: 30 },
  { code: "EightBWorld_permata", name: "Permata", fiats: IDR, fields: ["accountNumber", "holderName"], paymentWindow: 30 },
  { code: "EightBWorld_qris", name: "QRIS", fiats: IDR, fields: ["accountNumber", "holderName"], paymentWindow: 15 },
  { code: "EightBWorld_ovo", name: "OVO", fiats: IDR, fields: ["phone", "holderName"], paymentWindow: 15 },
  { code: "EightBWorld_instapay", name: "InstaPay", fiats: ["PHP"], fields: ["accountNumber", "holderName"], paymentWindow: 15 },
  { code: "dana", name: "DANA", fiats: IDR, fields: ["phone", "holderName"], paymentWindow: 15 },
  { code: "linkaja", name: "LinkAja", fiats: IDR, fields: ["phone", "holderName"], paymentWindow: 15 },
  { code: "shopeepay", name: "ShopeePay", fiats: IDR, fields: ["phone", "holderName"], paymentWindow: 15 },
  { code: "interac_gk", name: "Interac e-Transfer", fiats: ["CAD"], fields: ["email", "holderName"], paymentWindow: 30 },
  { code: "volt_banktransfer_eur", name: "SEPA bank transfer", fiats: ["EUR"], fields: ["iban", "holderName"], paymentWindow: 60 },
]
export const PAYMENT_METHOD_CODES = PAYMENT_METHODS.map((m) => m.code)
export const paymentMethod = (code: string): PaymentMethodInfo | undefined => PAYMENT_METHODS.find((m) => m.code === code)
export const methodsForFiat = (fiat: string): ReadonlyArray<PaymentMethodInfo> => PAYMENT_METHODS.filter((m) => m.fiats.includes(fiat))
/** Fiat currencies some payment method serves, in a stable order. */
export const P2P_FIATS: ReadonlyArray<string> = [...new Set(PAYMENT_METHODS.flatMap((m) => m.fiats))]

const luhn = (digits: string): boolean => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

const ibanValid = (iban: string): boolean => {
  const moved = iban.slice(4) + iban.slice(0, 4)
  let rest = 0
  for (const ch of moved) {
    const value = ch >= "A" && ch <= "Z" ? String(ch.charCodeAt(0) - 55) : ch
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97
  }
  return rest === 1
}

/** Normalises one field (spaces out of numbers, upper-case IBAN); undefined when the value is not valid. */
export const normaliseField = (kind: FieldKind, value: string, methodCode?: string): string | undefined => {
  const text = value.trim()
  switch (kind) {
    case "cardNumber": {
      const digits = text.replace(/[\s-]/g, "")
      return /^\d{16,19}$/.test(digits) && luhn(digits) ? digits : undefined
    }
    case "phone": {
      const phone = text.replace(/[\s()-]/g, "")
      // SBP is a Russian system: the phone is +7 and ten digits (spec 3 §3 "sbp is special").
      if (methodCode === "sbp") return /^\+7\d{10}$/.test(phone) ? phone : undefined
      return /^\+\d{8,15}$/.test(phone) ? phone : undefined
    }
    case "email":
      return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(text) && text.length <= 254 ? text : undefined
    case "iban": {
      const iban = text.replace(/\s/g, "").toUpperCase()
      return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && ibanValid(iban) ? iban : undefined
    }
    case "accountNumber": {
      const digits = text.replace(/[\s-]/g, "")
      return /^\d{6,20}$/.test(digits) ? digits : undefined
    }
    case "holderName":
      return text.length >= 2 && text.length <= 100 && !/\d/.test(text) ? text.replace(/\s+/g, " ") : undefined
    case "bankName":
      return text.length >= 2 && text.length <= 60 ? text : undefined
    case "revtag":
      return /^@?[a-z0-9_]{3,32}$/i.test(text) ? (text.startsWith("@") ? text : `@${text}`) : undefined
    case "pixKey":
      return text.length >= 5 && text.length <= 77 ? text : undefined
    case "comment":
      return text.length <= 200 ? text : undefined
  }
}

/** Checks a method's fields: the normalised values, or the kinds that are missing or invalid. */
export const checkFields = (
  method: PaymentMethodInfo,
  fields: Readonly<Record<string, string>>,
): { readonly ok: true; readonly fields: Record<string, string> } | { readonly ok: false; readonly invalid: ReadonlyArray<string> } => {
  const out: Record<string, string> = {}
  const invalid: Array<string> = []
  for (const key of Object.keys(fields)) if (!method.fields.includes(key as FieldKind) && key !== "comment") invalid.push(key)
  for (const kind of method.fields) {
    const value = fields[kind]
    const normal = value === undefined ? undefined : normaliseField(kind, value, method.code)
    if (normal === undefined) invalid.push(kind)
    else out[kind] = normal
  }
  if (fields.comment !== undefined && fields.comment.trim() !== "") {
    const comment = normaliseField("comment", fields.comment)
    if (comment === undefined) invalid.push("comment")
    else out.comment = comment
  }
  return invalid.length > 0 ? { ok: false, invalid } : { ok: true, fields: out }
}

/** A card number shows as its last four digits to everyone but its owner and the order's buyer. */
export const maskField = (kind: FieldKind, value: string): string =>
  kind === "cardNumber" || kind === "accountNumber" || kind === "iban" ? `•••• ${value.slice(-4)}` : value

// --- prices, amounts and fees --------------------------------------------------------------------

/** Floating prices are a percentage of the market rate in basis points of it (10000 = the rate). */
export const FLOATING_MIN_BPS = 7_000
export const FLOATING_MAX_BPS = 13_000
export const PAYMENT_WINDOWS = [15, 30, 45, 60, 120, 180] as const
/** Minutes a maker has to accept an order request (offers without auto-accept). */
export const ACCEPT_WINDOW_MINUTES = 10

const pow10 = (n: number) => 10n ** BigInt(n)

/** Fiat cents of `amount` crypto minor units at `priceCents` per whole unit, rounded half up. */
export const fiatOf = (amount: bigint, decimals: number, priceCents: bigint): bigint => (amount * priceCents * 2n + pow10(decimals)) / (2n * pow10(decimals))

/** Crypto minor units that `fiatCents` buys at `priceCents` per whole unit, rounded down. */
export const cryptoOf = (fiatCents: bigint, decimals: number, priceCents: bigint): bigint =>
  priceCents <= 0n ? 0n : (fiatCents * pow10(decimals)) / priceCents

/** A fee of `bps` basis points on `amount`, rounded down (the parts' fees never exceed the whole's). */
export const feeOf = (amount: bigint, bps: number): bigint => (amount * BigInt(bps)) / 10_000n

export interface FeeRates {
  readonly makerBps: number
  readonly takerBps: number
}

/**
 * Who pays what on an order of `amount` (decision 1000): the seller's fee is held on top of the amount
 * and the buyer's fee comes out of what the buyer receives; both go to the fee account at completion.
 */
export const orderMoney = (amount: bigint, offerType: OfferType, fees: FeeRates) => {
  const sellerBps = offerType === "SALE" ? fees.makerBps : fees.takerBps
  const buyerBps = offerType === "SALE" ? fees.takerBps : fees.makerBps
  const sellerFee = feeOf(amount, sellerBps)
  const buyerFee = feeOf(amount, buyerBps)
  return { hold: amount + sellerFee, sellerFee, buyerFee, buyerReceives: amount - buyerFee }
}

/** What publishing a SALE offer of `volume` holds: the volume and the maker's fee on it. */
export const offerHoldOf = (volume: bigint, fees: FeeRates): bigint => volume + feeOf(volume, fees.makerBps)

// --- the order machine ---------------------------------------------------------------------------

export const ORDER_STATUSES = ["REQUESTED", "ACCEPTED", "PAID", "COMPLETED", "CANCELLED", "EXPIRED", "REJECTED", "IN_APPEAL"] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]
export const ACTIVE_STATUSES: ReadonlyArray<OrderStatus> = ["REQUESTED", "ACCEPTED", "PAID", "IN_APPEAL"]
export const CLOSED_CANCEL_STATUSES: ReadonlyArray<OrderStatus> = ["CANCELLED", "EXPIRED", "REJECTED"]

export const ORDER_MOVES = ["accept", "reject", "paid", "received", "cancel", "appeal"] as const
export type OrderMove = (typeof ORDER_MOVES)[number]
export type Side = "buyer" | "seller"
export type Role = "maker" | "taker"

export interface MoveRule {
  readonly from: ReadonlyArray<OrderStatus>
  readonly to: OrderStatus
  /** Who may make the move: the buyer, the seller, or the offer's owner (maker). */
  readonly by: Side | "maker" | "either"
  readonly ledger: "none" | "release" | "post"
}

/** Decision 1000's table. The sweep makes the two timed moves (EXPIRED) with the same conditional update. */
export const MOVES: Readonly<Record<OrderMove, MoveRule>> = {
  accept: { from: ["REQUESTED"], to: "ACCEPTED", by: "maker", ledger: "none" },
  reject: { from: ["REQUESTED"], to: "REJECTED", by: "maker", ledger: "release" },
  paid: { from: ["ACCEPTED"], to: "PAID", by: "buyer", ledger: "none" },
  // The seller may still release during an appeal (it closes the appeal in the buyer's favour).
  received: { from: ["PAID", "IN_APPEAL"], to: "COMPLETED", by: "seller", ledger: "post" },
  // Before payment either side may cancel; after "paid" nobody cancels alone (an appeal, issue 21).
  cancel: { from: ["REQUESTED", "ACCEPTED"], to: "CANCELLED", by: "either", ledger: "release" },
  // Issue 21: after "paid", either side may ask support; the hold stays frozen until staff decide.
  appeal: { from: ["PAID"], to: "IN_APPEAL", by: "either", ledger: "none" },
}

/** Whether `side` (and whether it is the maker) may make `move`. */
export const mayMove = (move: OrderMove, side: Side, isMaker: boolean): boolean => {
  const by = MOVES[move].by
  return by === "either" || by === side || (by === "maker" && isMaker)
}

/** The moves open to a participant in a status (for the order page's buttons). */
export const movesFor = (status: OrderStatus, side: Side, isMaker: boolean): ReadonlyArray<OrderMove> =>
  ORDER_MOVES.filter((move) => MOVES[move].from.includes(status) && mayMove(move, side, isMaker))

// --- history, strip, reasons ---------------------------------------------------------------------

/** Spec 3 §3: the home's filter values and the server's statuses. Unknown values read as active. */
export const HISTORY_FILTERS = ["active", "completed", "canceled"] as const
export type HistoryFilter = (typeof HISTORY_FILTERS)[number]
export const SERVER_FILTERS = ["ALL_ACTIVE", "COMPLETED_FOR_REQUESTER", "CANCELLED_OR_CANCELLING"] as const
export type ServerFilter = (typeof SERVER_FILTERS)[number]
export const serverFilterOf = (filter: string | undefined): ServerFilter =>
  filter === "completed" ? "COMPLETED_FOR_REQUESTER" : filter === "canceled" ? "CANCELLED_OR_CANCELLING" : "ALL_ACTIVE"
export const historyFilterOf = (value: unknown): HistoryFilter => (value === "completed" || value === "canceled" || value === "active" ? value : "active")
export const statusesOf = (filter: ServerFilter): ReadonlyArray<OrderStatus> =>
  filter === "ALL_ACTIVE" ? ACTIVE_STATUSES : filter === "COMPLETED_FOR_REQUESTER" ? ["COMPLETED"] : CLOSED_CANCEL_STATUSES
/** Spec 3 §4.1: paging continues only after a full page. */
export const hasNextPage = (received: number, limit: number): boolean => received >= limit

/** Spec 3 §9: the strip polls active orders every 5 s, stale 5 s, page 20. */
export const STRIP_POLL_MS = 5_000
export const STRIP_PAGE = 20
/** Spec 3 §9: the order read is cached 3,500 ms and retried 5 times. */
export const ORDER_CACHE_MS = 3_500
export const ORDER_RETRIES = 5

/** Why an offer cannot be taken (spec 3 §2.1 names the first two). */
export const UNAVAILABLE_REASONS = ["open_orders_per_offer_cap_reached", "sold_out", "inactive", "own_offer", "below_minimum"] as const
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number]

/** Spec 3 §4.1: the unavailable screen's reasons; an unknown value is generic. */
export const UNAVAILABLE_WHY = ["generic", "platform", "region"] as const
export type UnavailableWhy = (typeof UNAVAILABLE_WHY)[number]
export const unavailableWhyOf = (value: unknown): UnavailableWhy => (value === "platform" || value === "region" ? value : "generic")

/** Spec 3 §9: the recent-items helper keeps at most two (recent fiats), newest first. */
export const pushRecent = (list: ReadonlyArray<string>, item: string, max = 2): ReadonlyArray<string> => [item, ...list.filter((x) => x !== item)].slice(0, max)

/** Spec 1 §9 avatar palette: user id modulo 7. */
export const avatarColorIndex = (userId: number): number => ((userId % 7) + 7) % 7

// --- appeals (issue 21) --------------------------------------------------------------------------

/** Spec 3 §2.1 order help: the fixed issue list (issueListSelect). */
export const ISSUE_TYPES = ["seller_not_releasing", "paid_wrong_amount", "buyer_not_paid", "payment_not_received", "other"] as const
export type IssueType = (typeof ISSUE_TYPES)[number]
/** Which side names which issue. */
export const ISSUES_OF: Readonly<Record<Side, ReadonlyArray<IssueType>>> = {
  buyer: ["seller_not_releasing", "paid_wrong_amount", "other"],
  seller: ["buyer_not_paid", "payment_not_received", "paid_wrong_amount", "other"],
}
/**
 * Issues the other side can usually settle by returning the money themselves (a wrong amount paid): the help flow
 * first suggests asking them in the chat, unless the link says `skipRefund` (spec 3 §2.1) or the user goes on.
 */
export const REFUND_FIRST: ReadonlyArray<IssueType> = ["paid_wrong_amount"]
export const asksRefundFirst = (issue: IssueType | undefined, skipRefund: boolean): boolean =>
  issue !== undefined && !skipRefund && REFUND_FIRST.includes(issue)
export const APPEAL_OUTCOMES = ["BUYER", "SELLER", "SPLIT"] as const
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number]
/** A statement is at most this long (characters). */
export const MAX_STATEMENT = 2_000
