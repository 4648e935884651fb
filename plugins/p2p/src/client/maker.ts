/**
 * Pure helpers of the maker's and profile screens (spec 3 §2.1): the offer draft (kept in
 * sessionStorage between the form, the payment-method detour and the preview), the form's step checks,
 * the draft's request, payment details' display and checks, the fiat chooser's order and the offer's
 * share link. No React, no I/O.
 */
import { minorUnitsToAmount } from "@wallet/kernel-react/ui"
import type { Offer, OfferForm, P2pSettings, PaymentDetails } from "../api.ts"
import {
  cryptoDecimals,
  FIAT_DECIMALS,
  fiatOf,
  FLOATING_MAX_BPS,
  FLOATING_MIN_BPS,
  maskField,
  normaliseField,
  OFFER_TYPES,
  offerHoldOf,
  P2P_CRYPTO,
  PAYMENT_METHOD_CODES,
  PAYMENT_WINDOWS,
  paymentMethod,
  PRICE_TYPES,
  type FieldKind,
  type OfferType,
  type P2pCrypto,
  type PriceType,
} from "../domain.ts"
import { parseMinor } from "./market.ts"

/** sessionStorage key of the offer being written (create or edit). */
export const DRAFT_KEY = "p2p:offer-draft"
export const OFFER_STEPS = 3
/** An offer lists at most five payment details (SALE) or methods (PURCHASE). */
export const MAX_PAYMENT_CHOICES = 5
export const TERMS_MAX = 1000

export type PaymentWindow = (typeof PAYMENT_WINDOWS)[number]

/** The offer form's state: typed texts as the fields hold them (canonical decimals with '.'). */
export interface OfferDraft {
  readonly v: 1
  /** Null while creating; the offer's id while editing. */
  readonly offerId: number | null
  /** The step shown (1..OFFER_STEPS). */
  readonly step: number
  readonly type: OfferType
  readonly crypto: P2pCrypto
  readonly fiat: string
  readonly priceType: PriceType
  /** FIXED: fiat per whole crypto unit ("95.5"). */
  readonly fixedPrice: string
  /** FLOATING: percent of the market rate ("101.5"). */
  readonly floatingPercent: string
  /** Crypto offered ("100"). */
  readonly volume: string
  /** Fiat limits per order ("500", "10000"). */
  readonly minOrder: string
  readonly maxOrder: string
  readonly paymentDetailsIds: ReadonlyArray<number>
  readonly paymentMethodCodes: ReadonlyArray<string>
  readonly paymentWindowMinutes: PaymentWindow
  readonly terms: string
  readonly autoAccept: boolean
  /** Crypto minor units orders already took (editing: volume - available); the volume may not go below it. */
  readonly taken: string
  /** The maker fee the hold counts (the offer settings' rate, or the edited offer's own). */
  readonly makerFeeBps: number
  /** Sent with the create request: publishing twice makes one offer. */
  readonly idempotencyKey: string
}

export const newDraft = (input: {
  readonly type: OfferType
  readonly crypto: P2pCrypto
  readonly fiat: string
  readonly makerFeeBps: number
  readonly idempotencyKey: string
}): OfferDraft => ({
  v: 1,
  offerId: null,
  step: 1,
  type: input.type,
  crypto: input.crypto,
  fiat: input.fiat,
  priceType: "FIXED",
  fixedPrice: "",
  floatingPercent: "100",
  volume: "",
  minOrder: "",
  maxOrder: "",
  paymentDetailsIds: [],
  paymentMethodCodes: [],
  paymentWindowMinutes: 15,
  terms: "",
  autoAccept: false,
  taken: "0",
  makerFeeBps: input.makerFeeBps,
  idempotencyKey: input.idempotencyKey,
})

const windowOf = (minutes: number): PaymentWindow => ((PAYMENT_WINDOWS as ReadonlyArray<number>).includes(minutes) ? (minutes as PaymentWindow) : 15)

/** The edit form of an offer: its terms as typed texts. */
export const draftFromOffer = (offer: Offer, idempotencyKey: string): OfferDraft => {
  const decimals = cryptoDecimals(offer.crypto) ?? 0
  const taken = BigInt(offer.volume) - BigInt(offer.available)
  return {
    v: 1,
    offerId: offer.id,
    step: 1,
    type: offer.type,
    crypto: offer.crypto,
    fiat: offer.fiat,
    priceType: offer.price.type,
    fixedPrice: offer.price.type === "FIXED" ? minorUnitsToAmount(BigInt(offer.price.value), FIAT_DECIMALS) : "",
    // Basis points are hundredths of a percent: 10150 bps is 101.5 %.
    floatingPercent: offer.price.type === "FLOATING" ? minorUnitsToAmount(BigInt(offer.price.value), 2) : "100",
    volume: minorUnitsToAmount(BigInt(offer.volume), decimals),
    minOrder: minorUnitsToAmount(BigInt(offer.minOrderFiat), FIAT_DECIMALS),
    maxOrder: minorUnitsToAmount(BigInt(offer.maxOrderFiat), FIAT_DECIMALS),
    paymentDetailsIds: offer.type === "SALE" ? [...offer.paymentDetailsIds] : [],
    paymentMethodCodes: offer.type === "PURCHASE" ? offer.paymentMethods.map((m) => m.code) : [],
    paymentWindowMinutes: windowOf(offer.paymentWindowMinutes),
    terms: offer.terms ?? "",
    autoAccept: offer.autoAccept,
    taken: (taken > 0n ? taken : 0n).toString(),
    makerFeeBps: offer.makerFeeBps,
    idempotencyKey,
  }
}

export const serialiseDraft = (draft: OfferDraft): string => JSON.stringify(draft)

const isDecimalText = (value: unknown): value is string => typeof value === "string" && /^(\d{0,30}(\.\d{0,30})?)?$/.test(value)
const isIntArray = (value: unknown): value is ReadonlyArray<number> =>
  Array.isArray(value) && value.length <= 20 && value.every((x) => Number.isSafeInteger(x) && (x as number) > 0)

/** A stored draft, or null when there is none or it is not one this version wrote (never throws). */
export const parseDraft = (text: string | null | undefined): OfferDraft | null => {
  if (text === null || text === undefined || text === "") return null
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return null
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null
  const d = raw as Record<string, unknown>
  const ok =
    d.v === 1 &&
    (d.offerId === null || (Number.isSafeInteger(d.offerId) && (d.offerId as number) > 0)) &&
    Number.isInteger(d.step) &&
    (d.step as number) >= 1 &&
    (d.step as number) <= OFFER_STEPS &&
    (OFFER_TYPES as ReadonlyArray<unknown>).includes(d.type) &&
    P2P_CRYPTO.some((c) => c.code === d.crypto) &&
    typeof d.fiat === "string" &&
    /^[A-Z]{3}$/.test(d.fiat) &&
    (PRICE_TYPES as ReadonlyArray<unknown>).includes(d.priceType) &&
    isDecimalText(d.fixedPrice) &&
    isDecimalText(d.floatingPercent) &&
    isDecimalText(d.volume) &&
    isDecimalText(d.minOrder) &&
    isDecimalText(d.maxOrder) &&
    isIntArray(d.paymentDetailsIds) &&
    Array.isArray(d.paymentMethodCodes) &&
    d.paymentMethodCodes.length <= 20 &&
    d.paymentMethodCodes.every((code) => (PAYMENT_METHOD_CODES as ReadonlyArray<unknown>).includes(code)) &&
    (PAYMENT_WINDOWS as ReadonlyArray<unknown>).includes(d.paymentWindowMinutes) &&
    typeof d.terms === "string" &&
    d.terms.length <= TERMS_MAX * 2 &&
    typeof d.autoAccept === "boolean" &&
    typeof d.taken === "string" &&
    /^(0|[1-9]\d{0,29})$/.test(d.taken) &&
    Number.isInteger(d.makerFeeBps) &&
    (d.makerFeeBps as number) >= 0 &&
    (d.makerFeeBps as number) <= 10_000 &&
    typeof d.idempotencyKey === "string" &&
    /^[A-Za-z0-9_-]{8,64}$/.test(d.idempotencyKey)
  return ok ? (raw as OfferDraft) : null
}

/** Whether a stored draft belongs to the form being opened (the same offer, or a new ad of that type). */
export const draftMatches = (draft: OfferDraft | null, target: { readonly offerId: number | null; readonly type?: OfferType }): draft is OfferDraft =>
  draft !== null && draft.offerId === target.offerId && (target.offerId !== null || target.type === undefined || draft.type === target.type)

/** A floating percent ("101.5") as basis points (10150); null when empty or unreadable. */
export const percentToBps = (text: string): bigint | null => parseMinor(text, 2)

/** The draft's price in cents per whole unit: typed (FIXED) or the market rate times the percent (rounded down, as the server does). */
export const draftPriceCents = (draft: Pick<OfferDraft, "priceType" | "fixedPrice" | "floatingPercent">, marketPriceCents: bigint | null): bigint | null => {
  if (draft.priceType === "FIXED") return parseMinor(draft.fixedPrice, FIAT_DECIMALS)
  const bps = percentToBps(draft.floatingPercent)
  if (bps === null || marketPriceCents === null) return null
  return (marketPriceCents * bps) / 10_000n
}

export type DraftField = "price" | "volume" | "minOrder" | "maxOrder" | "payment" | "terms"
export type StepProblem =
  | "required"
  | "zero"
  | "percentRange"
  | "noMarketPrice"
  | "belowTaken"
  | "minAboveMax"
  | "maxAboveVolume"
  | "paymentRequired"
  | "tooManyPayments"
  | "termsTooLong"
export type StepProblems = Partial<Record<DraftField, StepProblem>>

/**
 * What keeps a step from going on (spec 3 §2.1): 1 a price (a fixed one above zero, or 70–130 % of a
 * known market rate); 2 a volume above zero (and not below what orders took), limits with min ≤ max ≤
 * the volume's fiat value, one to five payment choices; 3 terms of at most 1,000 characters.
 */
export const stepProblems = (step: number, draft: OfferDraft, marketPriceCents: bigint | null): StepProblems => {
  const problems: StepProblems = {}
  if (step === 1) {
    if (draft.priceType === "FIXED") {
      const price = parseMinor(draft.fixedPrice, FIAT_DECIMALS)
      if (price === null) problems.price = "required"
      else if (price <= 0n) problems.price = "zero"
    } else {
      const bps = percentToBps(draft.floatingPercent)
      if (bps === null) problems.price = "required"
      else if (bps < BigInt(FLOATING_MIN_BPS) || bps > BigInt(FLOATING_MAX_BPS)) problems.price = "percentRange"
      else if (marketPriceCents === null || marketPriceCents <= 0n) problems.price = "noMarketPrice"
    }
  } else if (step === 2) {
    const decimals = cryptoDecimals(draft.crypto) ?? 0
    const volume = parseMinor(draft.volume, decimals)
    if (volume === null) problems.volume = "required"
    else if (volume <= 0n) problems.volume = "zero"
    else if (volume < BigInt(draft.taken)) problems.volume = "belowTaken"
    const min = parseMinor(draft.minOrder, FIAT_DECIMALS)
    const max = parseMinor(draft.maxOrder, FIAT_DECIMALS)
    if (min === null) problems.minOrder = "required"
    else if (min <= 0n) problems.minOrder = "zero"
    if (max === null) problems.maxOrder = "required"
    else if (max <= 0n) problems.maxOrder = "zero"
    else if (min !== null && min > max) problems.maxOrder = "minAboveMax"
    else {
      const price = draftPriceCents(draft, marketPriceCents)
      if (volume !== null && volume > 0n && price !== null && price > 0n && max > fiatOf(volume, decimals, price)) problems.maxOrder = "maxAboveVolume"
    }
    const chosen = draft.type === "SALE" ? draft.paymentDetailsIds.length : draft.paymentMethodCodes.length
    if (chosen === 0) problems.payment = "paymentRequired"
    else if (chosen > MAX_PAYMENT_CHOICES) problems.payment = "tooManyPayments"
  } else if (step === 3) {
    if (draft.terms.trim().length > TERMS_MAX) problems.terms = "termsTooLong"
  }
  return problems
}

export const hasProblems = (problems: StepProblems): boolean => Object.keys(problems).length > 0

/** The first step with a problem, or null when the whole draft is fine. */
export const firstBadStep = (draft: OfferDraft, marketPriceCents: bigint | null): number | null => {
  for (let step = 1; step <= OFFER_STEPS; step++) if (hasProblems(stepProblems(step, draft, marketPriceCents))) return step
  return null
}

/** The fiat value (cents) of the draft's volume at its price; null while either is unknown. */
export const volumeFiatCents = (draft: OfferDraft, marketPriceCents: bigint | null): bigint | null => {
  const decimals = cryptoDecimals(draft.crypto) ?? 0
  const volume = parseMinor(draft.volume, decimals)
  const price = draftPriceCents(draft, marketPriceCents)
  return volume === null || price === null || price <= 0n ? null : fiatOf(volume, decimals, price)
}

/** What publishing holds of a SALE draft (the volume orders have not taken, plus the maker fee); null for PURCHASE or no volume. */
export const draftHold = (draft: OfferDraft): bigint | null => {
  if (draft.type !== "SALE") return null
  const volume = parseMinor(draft.volume, cryptoDecimals(draft.crypto) ?? 0)
  if (volume === null || volume <= 0n) return null
  const free = volume - BigInt(draft.taken)
  return offerHoldOf(free > 0n ? free : 0n, { makerBps: draft.makerFeeBps, takerBps: 0 })
}

/** The request of a draft whose every step is fine; null otherwise. */
export const draftToForm = (draft: OfferDraft, marketPriceCents: bigint | null): OfferForm | null => {
  if (firstBadStep(draft, marketPriceCents) !== null) return null
  const decimals = cryptoDecimals(draft.crypto) ?? 0
  const price = draft.priceType === "FIXED" ? parseMinor(draft.fixedPrice, FIAT_DECIMALS) : percentToBps(draft.floatingPercent)
  const volume = parseMinor(draft.volume, decimals)
  const min = parseMinor(draft.minOrder, FIAT_DECIMALS)
  const max = parseMinor(draft.maxOrder, FIAT_DECIMALS)
  if (price === null || volume === null || min === null || max === null) return null
  const terms = draft.terms.trim()
  return {
    type: draft.type,
    crypto: draft.crypto,
    fiat: draft.fiat,
    price: { type: draft.priceType, value: price.toString() },
    volume: volume.toString(),
    minOrderFiat: min.toString(),
    maxOrderFiat: max.toString(),
    paymentDetailsIds: draft.type === "SALE" ? [...draft.paymentDetailsIds] : [],
    paymentMethodCodes: draft.type === "PURCHASE" ? ([...draft.paymentMethodCodes] as OfferForm["paymentMethodCodes"]) : [],
    paymentWindowMinutes: draft.paymentWindowMinutes,
    terms: terms === "" ? null : terms,
    autoAccept: draft.autoAccept,
  }
}

/** A new pair or type empties the payment choices (details and methods belong to one fiat and side). */
export const withPair = (draft: OfferDraft, change: Partial<Pick<OfferDraft, "type" | "crypto" | "fiat">>): OfferDraft => {
  const next = { ...draft, ...change }
  const samePayments = next.fiat === draft.fiat && next.type === draft.type
  return samePayments ? next : { ...next, paymentDetailsIds: [], paymentMethodCodes: [] }
}

/** Toggles `item` in a choice list of at most `max` (adding past the limit changes nothing). */
export const toggleChoice = <T>(list: ReadonlyArray<T>, item: T, max = MAX_PAYMENT_CHOICES): ReadonlyArray<T> =>
  list.includes(item) ? list.filter((x) => x !== item) : list.length >= max ? list : [...list, item]

/** The step the form opens at after a refusal at publishing (what the user must change). */
export const stepForRefusal = (code: string | undefined): number =>
  code === "insufficient_funds" ||
  code === "verification_limit" ||
  code === "amount_out_of_limits" ||
  code === "payment_method_required" ||
  code === "invalid_payment_details"
    ? 2
    : 1

/**
 * The form's starting pair: the saved defaults when the region allows them (spec 3 §3: the sale
 * default is a fiat, the purchase default a crypto), else the last chosen fiat, the user's local
 * currency, the region's first fiat.
 */
export const defaultPair = (
  settings: Pick<P2pSettings, "defaultCurrencyForSaleOfferCreation" | "defaultCurrencyForPurchaseOfferCreation" | "recentFiats"> | undefined,
  fiats: ReadonlyArray<string>,
  localCurrency: string | undefined,
): { readonly crypto: P2pCrypto; readonly fiat: string } => {
  const crypto = settings?.defaultCurrencyForPurchaseOfferCreation ?? "USDT"
  const candidates = [settings?.defaultCurrencyForSaleOfferCreation ?? undefined, ...(settings?.recentFiats ?? []), localCurrency?.toUpperCase()]
  const fiat = candidates.find((code): code is string => code !== undefined && fiats.includes(code)) ?? fiats[0] ?? "USD"
  return { crypto, fiat }
}

// --- payment details -----------------------------------------------------------------------------

/** The fields a method's form shows: the method's own, then the optional comment. */
export const formKinds = (code: string): ReadonlyArray<FieldKind> => {
  const method = paymentMethod(code)
  return method === undefined ? [] : [...method.fields.filter((kind) => kind !== "comment"), "comment"]
}

export type FieldProblem = "required" | "invalid" | "sbpPhone"

/** Each field's problem: a required one empty, or a value `normaliseField` refuses (sbp: a +7 phone). */
export const fieldProblems = (code: string, values: Readonly<Record<string, string>>): Partial<Record<FieldKind, FieldProblem>> => {
  const out: Partial<Record<FieldKind, FieldProblem>> = {}
  for (const kind of formKinds(code)) {
    const value = values[kind] ?? ""
    if (value.trim() === "") {
      if (kind !== "comment") out[kind] = "required"
      continue
    }
    if (normaliseField(kind, value, code) === undefined) out[kind] = kind === "phone" && code === "sbp" ? "sbpPhone" : "invalid"
  }
  return out
}

/** The fields to save: normalised, the empty comment left out; null while any is wrong. */
export const fieldsToSave = (code: string, values: Readonly<Record<string, string>>): Record<string, string> | null => {
  if (Object.keys(fieldProblems(code, values)).length > 0) return null
  const out: Record<string, string> = {}
  for (const kind of formKinds(code)) {
    const value = values[kind] ?? ""
    if (value.trim() === "") continue
    const normal = normaliseField(kind, value, code)
    if (normal === undefined) return null
    out[kind] = normal
  }
  return out
}

/** A saved details' main field (the method's first), as a row shows it: numbers masked to the last four. */
export const mainFieldText = (details: Pick<PaymentDetails, "paymentMethod" | "fields">): string => {
  const kinds = paymentMethod(details.paymentMethod.code)?.fields ?? []
  const kind = kinds.find((k) => (details.fields[k] ?? "").trim() !== "") ?? (Object.keys(details.fields).find((k) => k !== "comment") as FieldKind | undefined)
  if (kind === undefined) return ""
  return maskField(kind, details.fields[kind] ?? "")
}

/** Payment details by fiat, fiats in alphabetical order, each group in the server's order. */
export const groupByFiat = <T extends { readonly fiat: string }>(
  items: ReadonlyArray<T>,
): ReadonlyArray<{ readonly fiat: string; readonly items: ReadonlyArray<T> }> => {
  const groups = new Map<string, Array<T>>()
  for (const item of items) groups.set(item.fiat, [...(groups.get(item.fiat) ?? []), item])
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([fiat, list]) => ({ fiat, items: list }))
}

/** The `fields` a refusal names (invalid_payment_details), from the decoded error or an HTTP error's body. */
export const refusedFields = (error: unknown): ReadonlyArray<string> => {
  const read = (value: unknown): ReadonlyArray<string> | undefined => {
    const fields = value !== null && typeof value === "object" ? (value as { fields?: unknown }).fields : undefined
    return Array.isArray(fields) ? fields.filter((f): f is string => typeof f === "string") : undefined
  }
  return read(error) ?? read(error !== null && typeof error === "object" ? (error as { body?: unknown }).body : undefined) ?? []
}

/** The server's message of a refusal (shown under the translated one for invalid_offer), if any. */
export const refusalMessage = (error: unknown): string | undefined => {
  const direct = error !== null && typeof error === "object" ? (error as { message?: unknown; _tag?: unknown }) : undefined
  if (direct !== undefined && typeof direct._tag === "string" && direct._tag.startsWith("P2p") && typeof direct.message === "string") return direct.message
  const body = error !== null && typeof error === "object" ? (error as { body?: unknown }).body : undefined
  const message = body !== null && typeof body === "object" ? (body as { message?: unknown }).message : undefined
  return typeof message === "string" && message !== "" ? message : undefined
}

// --- fiat chooser --------------------------------------------------------------------------------

/**
 * The fiat chooser's lists: the recent ones (at most two, those the list has) on top, then the rest;
 * with a query, only the fiats whose code or name contains it.
 */
export const fiatChoices = (
  all: ReadonlyArray<string>,
  recent: ReadonlyArray<string>,
  query: string,
  nameOf: (code: string) => string,
): { readonly recent: ReadonlyArray<string>; readonly rest: ReadonlyArray<string> } => {
  const q = query.trim().toLowerCase()
  const matches = (code: string) => q === "" || code.toLowerCase().includes(q) || nameOf(code).toLowerCase().includes(q)
  const top = [...new Set(recent)].filter((code) => all.includes(code)).slice(0, 2)
  return { recent: top.filter(matches), rest: all.filter((code) => !top.includes(code) && matches(code)) }
}

// --- sharing -------------------------------------------------------------------------------------

/** The start param of an offer link (the manifest's `offerid` deep link). */
export const offerStartParam = (offerId: number, userId: number): string => `offerid_${offerId}_${userId}`

/** A t.me link opening the mini-app on the offer. */
export const offerShareLink = (botUsername: string | undefined, offerId: number, userId: number): string =>
  `https://t.me/${botUsername !== undefined && /^\w{3,64}$/.test(botUsername) ? botUsername : "wallet"}?startapp=${offerStartParam(offerId, userId)}`

/** The decimal separator of a locale's numbers ("," for ru), for the amount fields. */
export const decimalSeparatorOf = (locale: string): "." | "," => {
  try {
    const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")
    return part?.value === "," ? "," : "."
  } catch {
    return "."
  }
}
