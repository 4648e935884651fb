import { optionalEnumParam, routeRef, searchParams } from "@wallet/kernel"
import { KYC_STEPS, RESTRICTED_PERMISSIONS } from "./domain.ts"

/**
 * The kyc plugin's routes (spec 3 §2.2) as typed references (decision 0170), with their search
 * checks. `/kyc/main?forcedStep=country` opens the step list with that step active.
 */
export const KycMainSearch = searchParams({ forcedStep: optionalEnumParam(KYC_STEPS) })

/** `/kyc/partially-blocked?restrictedPermission=canUseP2p`: the screen of one restricted permission. */
export const KycPartialBlockSearch = searchParams({ restrictedPermission: optionalEnumParam(RESTRICTED_PERMISSIONS) })

export const kycMainRoute = routeRef("/kyc/main", KycMainSearch)
export const kycBlockedRoute = routeRef("/kyc/blocked")
export const kycPartialBlockRoute = routeRef("/kyc/partially-blocked", KycPartialBlockSearch)
export const kycCountryRoute = routeRef("/kyc/verify-country")
export const kycNameRoute = routeRef("/kyc/verify-name")
export const kycSuccessRoute = routeRef("/kyc/success")
/** Wallet main (the home plugin), where the success screen leads. */
export const walletMainRoute = routeRef("/main")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [kycMainRoute, kycCountryRoute, kycNameRoute, kycSuccessRoute, kycBlockedRoute, kycPartialBlockRoute, walletMainRoute]
