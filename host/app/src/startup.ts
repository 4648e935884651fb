import { resolveStartParam, type Composition, type SessionUser, type StartupFailure } from "@wallet/kernel"
import type { SavedRouteHistory } from "./route-history.ts"

export interface StartupTarget {
  readonly to: string
  readonly search?: Readonly<Record<string, string>>
  /** A start param no enabled plugin claims: the host logs a not-found event. */
  readonly notFound?: string
}

/** Pages a new user may open directly instead of onboarding (spec 1 §2 "Startup and deep links"). */
// A transfer link is how most receivers arrive: they accept first and meet onboarding later.
const NEW_USER_ALLOWED = ["/settings", "/assets-public", "/crypto-onboarding", "/kyc", "/scw", "/transfers"]

/**
 * Where the app opens (spec 1 §2 startup rules): failures go to their error page; a restricted user to
 * the restricted page unless a self-custody link applies; without custody the user stays in the TON
 * space except for verification; a new custody user goes to onboarding unless heading to an allowed
 * page; a start param goes where its plugin says; an unclaimed one goes to main.
 */
export function startupTarget(input: {
  readonly composition: Composition
  readonly user?: SessionUser
  readonly failure?: StartupFailure
  readonly hasInitData: boolean
  readonly startParam?: string
  /** The root search's `public_asset` (`/?public_asset=BTC`): the same priority as the start-param link. */
  readonly publicAsset?: string
  /** This Telegram session met 403 content_unavailable before (decision 0380): the unavailable page stays. */
  readonly restricted?: boolean
}): StartupTarget {
  if (!input.hasInitData) return { to: "/client-connection-error" }
  if (input.failure) return input.failure.to === "/error" ? { to: "/error", search: { code: input.failure.code } } : { to: input.failure.to }
  if (input.restricted) return { to: "/unavailable" }
  const user = input.user!
  // The root search's public asset goes through the owner plugin's `public_asset_` link declaration.
  const param = input.publicAsset && /^[A-Za-z0-9]{1,20}$/.test(input.publicAsset) ? `public_asset_${input.publicAsset}` : input.startParam
  const link = param ? resolveStartParam(input.composition.deepLinks, param) : undefined
  const linked = link?.kind === "route" ? { to: link.to, search: link.search } : undefined
  const notFound = link?.kind === "not-found" ? link.startParam : undefined
  const isScwLink = linked?.to.startsWith("/scw") === true

  if (user.restrictionCode === "unsupported_region" && !isScwLink) return { to: "/unsupported_region" }
  if (user.restrictionCode === "unsupported_app_store" && !isScwLink) return { to: "/unsupported_app_store" }
  if (!user.isCustodyAvailable) {
    if (linked && (isScwLink || linked.to.startsWith("/kyc"))) return linked
    return { to: "/scw", ...(notFound ? { notFound } : {}) }
  }
  if (user.isNew && !(linked && NEW_USER_ALLOWED.some((p) => linked.to.startsWith(p)))) {
    return { to: "/wallet-onboarding", ...(notFound ? { notFound } : {}) }
  }
  if (linked) return linked
  return { to: "/main", ...(notFound ? { notFound } : {}) }
}

/** Startup targets the saved route history never overrides: failures, restrictions, a broken launch. */
const DECIDED_BY_RULES = ["/error", "/unavailable", "/unsupported_region", "/unsupported_app_store", "/client-connection-error", "/attach-private-chats-error"]

/**
 * Spec 1 §2 "On start the app restores route history": a start at `/` with a saved history of this
 * user (this Telegram session) reopens it, unless the startup rules send the user to a failure or
 * restriction page. The start param of the launch was applied on the first start of the session.
 */
export const shouldRestoreHistory = (target: StartupTarget, saved: SavedRouteHistory | undefined): saved is SavedRouteHistory =>
  saved !== undefined && !DECIDED_BY_RULES.includes(target.to)

/** 403 content_unavailable marks the user restricted for the rest of the Telegram session (spec 1 §8). */
export const RESTRICTED_KEY = "wallet:restricted"
export const isContentUnavailable = (failure: StartupFailure | undefined) => failure?.to === "/unavailable"
