import { optionalEnumParam, routeRef, searchParams } from "@wallet/kernel"
import { KYC_STEPS, RESTRICTED_PERMISSIONS } from "./domain.ts"

/** The levels the partner verifies (decision 0930). */
export const PARTNER_LEVELS = ["LEVEL_2", "LEVEL_3"] as const

/**
 * The kyc plugin's routes (spec 3 §2.2) as typed references (decision 0170), with their search
 * checks. `/kyc/main?forcedStep=country` opens the step list with that step active.
 */
export const KycMainSearch = searchParams({ forcedStep: optionalEnumParam(KYC_STEPS), level: optionalEnumParam(PARTNER_LEVELS) })

/** `/kyc/sumsub?action=KYC&level=LEVEL_2`: the partner's frame for a level (spec 3 §2.2). */
export const KycSumsubSearch = searchParams({ action: optionalEnumParam(["KYC", "LIVENESS"] as const), level: optionalEnumParam(PARTNER_LEVELS) })

/** `/kyc/verification-pending?submitted=1`: the documents were just sent (the partner's word may still be on its way). */
export const KycPendingSearch = searchParams({ submitted: optionalEnumParam(["1"] as const) })

/** `/kyc/settings?level=LEVEL_2`: the levels and their limits, with the given level offered. */
export const KycSettingsSearch = searchParams({ level: optionalEnumParam(PARTNER_LEVELS) })

/** `/kyc/partially-blocked?restrictedPermission=canUseP2p`: the screen of one restricted permission. */
export const KycPartialBlockSearch = searchParams({ restrictedPermission: optionalEnumParam(RESTRICTED_PERMISSIONS) })

export const kycMainRoute = routeRef("/kyc/main", KycMainSearch)
export const kycBlockedRoute = routeRef("/kyc/blocked")
export const kycPartialBlockRoute = routeRef("/kyc/partially-blocked", KycPartialBlockSearch)
export const kycCountryRoute = routeRef("/kyc/verify-country")
export const kycNameRoute = routeRef("/kyc/verify-name")
export const kycSuccessRoute = routeRef("/kyc/success")
export const kycSumsubRoute = routeRef("/kyc/sumsub", KycSumsubSearch)
export const kycSettingsRoute = routeRef("/kyc/settings", KycSettingsSearch)
export const kycEddRoute = routeRef("/kyc/edd")
export const kycConfirmationRoute = routeRef("/kyc/confirmation")
export const kycEddBlockedRoute = routeRef("/kyc/edd-blocked")
export const kycVerificationPendingRoute = routeRef("/kyc/verification-pending", KycPendingSearch)
/** Wallet main (the home plugin), where the success screen leads. */
export const walletMainRoute = routeRef("/main")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [
  kycMainRoute,
  kycCountryRoute,
  kycNameRoute,
  kycSuccessRoute,
  kycBlockedRoute,
  kycPartialBlockRoute,
  kycSumsubRoute,
  kycSettingsRoute,
  kycVerificationPendingRoute,
  kycEddRoute,
  kycEddBlockedRoute,
  kycConfirmationRoute,
  walletMainRoute,
]
