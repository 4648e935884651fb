import { booleanParam, routeRef, searchParams } from "@wallet/kernel"

/**
 * The home plugin's routes and the routes it opens as typed references (decision 0170). The
 * manifest's routes use the same search checks. Custody's screens come from custody's `./routes`
 * (a dependency); the TON space is not one, so its public path is declared here.
 */

/** Spec 1 §2: /main (search showCreatePasscode); /wv and /giveaway redirect to main. */
export const MainSearch = searchParams({ showCreatePasscode: booleanParam })

export const mainRoute = routeRef("/main", MainSearch)
/** The TON space's main screen (spec 2), opened by the crypto/TON switch. */
export const scwRoute = routeRef("/scw")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [mainRoute, scwRoute]
