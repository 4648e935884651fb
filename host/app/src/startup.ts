import { resolveStartParam, type Composition, type SessionUser, type StartupFailure } from "@wallet/kernel"

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
}): StartupTarget {
  if (!input.hasInitData) return { to: "/client-connection-error" }
  if (input.failure) return input.failure.to === "/error" ? { to: "/error", search: { code: input.failure.code } } : { to: input.failure.to }
  const user = input.user!
  const link = input.startParam ? resolveStartParam(input.composition.deepLinks, input.startParam) : undefined
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
