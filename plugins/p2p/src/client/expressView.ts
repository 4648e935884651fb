/**
 * Pure helpers of the express screens (spec 3 §2.1, §7.1; issue 21): which pair to show, the onboarding
 * gate, refusal messages, the current request's polling. No React, no I/O.
 */
import type { ExpressPairs, ExpressRequest } from "../api.ts"
import { EXPRESS_OPEN_STATUSES, EXPRESS_POLL_MS, type ExpressCalculationType } from "../express.ts"
import { errorKey } from "./market.ts"

export type Pair = ExpressPairs["pairs"][number]

/** The crypto codes of the pairs, in the pairs' order, once each. */
export const cryptosOf = (pairs: ReadonlyArray<Pair>): ReadonlyArray<string> => [...new Set(pairs.map((p) => p.crypto))]
/** The fiats a crypto trades against. */
export const fiatsFor = (pairs: ReadonlyArray<Pair>, crypto: string): ReadonlyArray<string> => pairs.filter((p) => p.crypto === crypto).map((p) => p.fiat)

/**
 * The pair the screen opens on: the one asked for (search) when it exists; else the asked crypto, else
 * the first; its fiat the asked one, else the user's recent or local currency when that pair exists,
 * else the first. Null without pairs.
 */
export const pickPair = (
  pairs: ReadonlyArray<Pair>,
  asked: { readonly crypto?: string; readonly fiat?: string },
  preferredFiats: ReadonlyArray<string | undefined>,
): Pair | null => {
  if (pairs.length === 0) return null
  const crypto = asked.crypto !== undefined && pairs.some((p) => p.crypto === asked.crypto) ? asked.crypto : pairs[0]!.crypto
  const fiats = fiatsFor(pairs, crypto)
  const fiat = [asked.fiat, ...preferredFiats].find((f): f is string => f !== undefined && fiats.includes(f)) ?? fiats[0]!
  return { crypto: crypto as Pair["crypto"], fiat }
}

/** The onboarding shows until the user hides it for good, once per app session, and always before the market is opened for them. */
export const needsOnboarding = (state: { readonly initialized: boolean; readonly hidden: boolean; readonly seenThisSession: boolean }): boolean =>
  !state.initialized || (!state.hidden && !state.seenThisSession)

let seen = false
/** This app session went through the onboarding (the screen does not send the user back to it). */
export const onboardingSeen = (): boolean => seen
export const markOnboardingSeen = (): void => {
  seen = true
}

/** The refusals the express screen explains in its own words; the rest as the market does. */
export const EXPRESS_ERRORS = [
  "express_no_offer",
  "express_no_payment_details",
  "express_request_open",
  "express_only",
  "amount_out_of_limits",
  "price_moved",
] as const

export const expressErrorKey = (code: string | undefined): string =>
  code !== undefined && (EXPRESS_ERRORS as ReadonlyArray<string>).includes(code) ? `express.errors.${code}` : errorKey(code)

/** A request still on its way (SEARCHING, or MATCHED with its order open). */
export const isOpenRequest = (request: ExpressRequest | null | undefined): boolean =>
  request !== null && request !== undefined && EXPRESS_OPEN_STATUSES.includes(request.status)

/** Spec 3 §7.1 "current request: optional polling": every 5 s while open, not once it is over. */
export const currentPollMs = (request: ExpressRequest | null | undefined): number | false => (isOpenRequest(request) ? EXPRESS_POLL_MS : false)

/** The unit the amount is typed in, as the settings name it (BY_FIAT types fiat). */
export const amountUnit = (calculation: ExpressCalculationType): "fiat" | "crypto" => (calculation === "BY_FIAT" ? "fiat" : "crypto")
