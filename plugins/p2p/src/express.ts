/**
 * Express mode's pure rules (spec 3 §2.1, §3 "Express", §4.1, §7.1; issue 21): the user's side and the
 * offers it matches, an amount typed in crypto or fiat turned into an order's amounts at an offer's
 * price, the best offer's order, the limits across offers, and who is kept to express only.
 * Shared by the server and the screens; no I/O.
 */
import { cryptoOf, fiatOf, type OfferType } from "./domain.ts"

/**
 * Spec 3 §3 settings `expressCalculationType`: the amount is typed in crypto (BY_AMOUNT, the default)
 * or in fiat (BY_FIAT).
 */
export const EXPRESS_CALCULATION_TYPES = ["BY_AMOUNT", "BY_FIAT"] as const
export type ExpressCalculationType = (typeof EXPRESS_CALCULATION_TYPES)[number]

/**
 * A request's life: SEARCHING while its order is being placed, MATCHED once it is (while the order is
 * open), FAILED when no order came of it, CLOSED once its order finished (completed or cancelled).
 */
export const EXPRESS_REQUEST_STATUSES = ["SEARCHING", "MATCHED", "FAILED", "CLOSED"] as const
export type ExpressRequestStatus = (typeof EXPRESS_REQUEST_STATUSES)[number]
/** The statuses of a user's current request: at most one per user (a unique partial index). */
export const EXPRESS_OPEN_STATUSES: ReadonlyArray<ExpressRequestStatus> = ["SEARCHING", "MATCHED"]

/** The `/p2p/express/$operation` segment: what the user does. */
export const EXPRESS_OPERATIONS = ["buy", "sell"] as const
export type ExpressOperation = (typeof EXPRESS_OPERATIONS)[number]
/** The user's side as the express calls name it (spec 3 §7.1 `offerType`): PURCHASE buys crypto, SALE sells it. */
export const sideOfOperation = (operation: unknown): OfferType => (operation === "sell" ? "SALE" : "PURCHASE")
export const operationOfSide = (side: OfferType): ExpressOperation => (side === "SALE" ? "sell" : "buy")

/** The offers a side is matched against: a buyer takes SALE offers, a seller PURCHASE offers. */
export const matchedOfferType = (side: OfferType): OfferType => (side === "PURCHASE" ? "SALE" : "PURCHASE")

/** Spec 3 §7.1: the pairs are stale after 30 s; a current request is polled every 5 s while open. */
export const EXPRESS_PAIRS_STALE_MS = 30_000
export const EXPRESS_POLL_MS = 5_000
/** A request left SEARCHING this long (the process stopped mid-way) is settled by what its order did. */
export const EXPRESS_STALE_SEARCH_MS = 60_000
/** A request whose order finished stays the current one this long (the screen shows how it ended). */
export const EXPRESS_SHOW_CLOSED_MS = 3_600_000

export interface ExpressAmounts {
  /** Crypto minor units the order trades. */
  readonly amount: bigint
  /** Its fiat value in cents at the offer's price. */
  readonly fiat: bigint
}

/**
 * The order an express amount makes at `priceCents`. In crypto (BY_AMOUNT) the fiat follows (rounded
 * half up, as the server does). In fiat (BY_FIAT) the crypto is the amount worth at least the typed fiat
 * (one minor unit more when rounding down fell short), unless that unit would pass `maxFiat`.
 */
export const expressAmounts = (
  calculation: ExpressCalculationType,
  typed: bigint,
  decimals: number,
  priceCents: bigint,
  maxFiat?: bigint,
): ExpressAmounts | null => {
  if (typed <= 0n || priceCents <= 0n) return null
  if (calculation === "BY_AMOUNT") return { amount: typed, fiat: fiatOf(typed, decimals, priceCents) }
  const down = cryptoOf(typed, decimals, priceCents)
  const downFiat = fiatOf(down, decimals, priceCents)
  if (downFiat >= typed) return down > 0n ? { amount: down, fiat: downFiat } : null
  const upFiat = fiatOf(down + 1n, decimals, priceCents)
  if (maxFiat !== undefined && upFiat > maxFiat) return down > 0n ? { amount: down, fiat: downFiat } : null
  return { amount: down + 1n, fiat: upFiat }
}

/** What the matching needs of an offer: its price now, limits, what is left, and its maker's record. */
export interface ExpressCandidate {
  readonly id: number
  readonly priceCents: bigint
  readonly minFiat: bigint
  readonly maxFiat: bigint
  readonly available: bigint
  /** The maker's completion rate (whole percent), null before their first closed order. */
  readonly completionRate: number | null
  readonly completedOrders: number
}

/** Whether an offer can fill these amounts: within its per-order limits and what it has left. */
export const fits = (offer: ExpressCandidate, amounts: ExpressAmounts): boolean =>
  amounts.amount > 0n && amounts.amount <= offer.available && amounts.fiat >= offer.minFiat && amounts.fiat <= offer.maxFiat

/**
 * The best offer first: the cheapest for a buyer, the highest price for a seller; at one price the
 * maker with the better completion rate (a maker without a record after those with one), then more
 * completed orders, then the older offer.
 */
export const compareCandidates =
  (side: OfferType) =>
  (a: ExpressCandidate, b: ExpressCandidate): number => {
    if (a.priceCents !== b.priceCents) {
      const cheaper = a.priceCents < b.priceCents ? -1 : 1
      return side === "PURCHASE" ? cheaper : -cheaper
    }
    const rate = (b.completionRate ?? -1) - (a.completionRate ?? -1)
    if (rate !== 0) return rate
    if (a.completedOrders !== b.completedOrders) return b.completedOrders - a.completedOrders
    return a.id - b.id
  }

/** The best offer for a typed amount and the order it makes there, or null when no offer can fill it. */
export const bestMatch = <C extends ExpressCandidate>(
  side: OfferType,
  candidates: ReadonlyArray<C>,
  calculation: ExpressCalculationType,
  typed: bigint,
  decimals: number,
): ReadonlyArray<{ readonly offer: C; readonly amounts: ExpressAmounts }> =>
  [...candidates].sort(compareCandidates(side)).flatMap((offer) => {
    const amounts = expressAmounts(calculation, typed, decimals, offer.priceCents, offer.maxFiat)
    return amounts !== null && fits(offer, amounts) ? [{ offer, amounts }] : []
  })

export interface ExpressLimits {
  readonly minFiat: bigint
  readonly maxFiat: bigint
  /** The same range in crypto minor units. */
  readonly minAmount: bigint
  readonly maxAmount: bigint
}

/**
 * The range an express amount may take across the offers (spec 3 §7.1 "Express get limits"): the
 * smallest order some offer takes and the largest some offer can fill (its maximum, or what it has left).
 * Null without offers. The range may have gaps between offers; a quote inside a gap finds no offer.
 */
export const limitsOf = (candidates: ReadonlyArray<ExpressCandidate>, decimals: number): ExpressLimits | null => {
  let limits: ExpressLimits | null = null
  for (const offer of candidates) {
    const leftFiat = fiatOf(offer.available, decimals, offer.priceCents)
    const maxFiat = leftFiat < offer.maxFiat ? leftFiat : offer.maxFiat
    if (maxFiat < offer.minFiat || offer.priceCents <= 0n) continue
    const smallest = expressAmounts("BY_FIAT", offer.minFiat, decimals, offer.priceCents, offer.maxFiat)
    const largestByFiat = cryptoOf(offer.maxFiat, decimals, offer.priceCents)
    const minAmount = smallest?.amount ?? 0n
    const maxAmount = largestByFiat < offer.available ? largestByFiat : offer.available
    if (minAmount <= 0n || maxAmount < minAmount) continue
    limits =
      limits === null
        ? { minFiat: offer.minFiat, maxFiat, minAmount, maxAmount }
        : {
            minFiat: offer.minFiat < limits.minFiat ? offer.minFiat : limits.minFiat,
            maxFiat: maxFiat > limits.maxFiat ? maxFiat : limits.maxFiat,
            minAmount: minAmount < limits.minAmount ? minAmount : limits.minAmount,
            maxAmount: maxAmount > limits.maxAmount ? maxAmount : limits.maxAmount,
          }
  }
  return limits
}

export type ExpressAmountProblem = "empty" | "belowMin" | "aboveMax"

/** What is wrong with a typed amount against the limits (the screen's check; the server checks again). */
export const expressAmountProblem = (typed: bigint | null, calculation: ExpressCalculationType, limits: ExpressLimits): ExpressAmountProblem | null => {
  if (typed === null || typed <= 0n) return "empty"
  const [min, max] = calculation === "BY_FIAT" ? [limits.minFiat, limits.maxFiat] : [limits.minAmount, limits.maxAmount]
  if (typed < min) return "belowMin"
  if (typed > max) return "aboveMax"
  return null
}

/**
 * Whether a price the server matched now is still the one the user confirmed: a buyer's may be higher
 * and a seller's lower by at most `toleranceBps` (the market's floating tolerance); better is always fine.
 */
export const priceAcceptable = (side: OfferType, seen: bigint, now: bigint, toleranceBps: number): boolean => {
  const slack = (seen * BigInt(toleranceBps)) / 10_000n
  return side === "PURCHASE" ? now <= seen + slack : now >= seen - slack
}

/** The same calendar day in UTC (an account "created today"). */
export const sameUtcDay = (a: Date, b: Date): boolean =>
  a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth() && a.getUTCDate() === b.getUTCDate()

/** The country express-only mode is for (spec 3 §4.1 "country code ru"). */
export const EXPRESS_ONLY_COUNTRY = "RU"

/**
 * Spec 3 §4.1 express-only mode: an unrestricted user from Russia (by their profile's country or by the
 * residence their verification records) whose account was created today. A region whose market config
 * restricts RU (the default) closes the market to them instead, so the mode never applies there (also
 * not to a user whose IP country let them in while their phone or residence says RU).
 */
export const isExpressOnly = (user: {
  readonly countries: ReadonlyArray<string | null | undefined>
  /** The market is closed to the user (any reason: region, restriction code, no custody, blocked). */
  readonly restricted: boolean
  /** The region's `restrictedCountries`. */
  readonly restrictedCountries: ReadonlyArray<string>
  readonly accountCreatedAt: Date | null
  readonly now: Date
}): boolean =>
  !user.restricted &&
  !user.restrictedCountries.some((country) => country.toUpperCase() === EXPRESS_ONLY_COUNTRY) &&
  user.accountCreatedAt !== null &&
  sameUtcDay(user.accountCreatedAt, user.now) &&
  user.countries.some((country) => typeof country === "string" && country.toUpperCase() === EXPRESS_ONLY_COUNTRY)
