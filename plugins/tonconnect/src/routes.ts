import { Check, routeRef, searchParams, stringParam } from "@wallet/kernel"

/**
 * TonConnect's routes as typed references (decision 0170), with the search checks the manifest's
 * routes use. The TON space's screens come from its `./routes` (a dependency).
 */

/**
 * The connect routes' search (spec 2 §2: v, id, ret, r). `r` is the connect request as JSON text; the
 * router may hand it over already parsed, so any value is taken and the screen turns it back into
 * text. `startapp` carries the packed `tonconnect-…` start param of the deep link.
 */
export const ConnectSearch = searchParams({
  v: stringParam,
  id: stringParam,
  r: Check.optional(Check.unknown),
  ret: stringParam,
  startapp: stringParam,
})

export const RequestSearch = searchParams({ id: stringParam })

export const connectRoute = routeRef("/scw/tc/connect", ConnectSearch)
export const connectQrRoute = routeRef("/scw/tc/connect/qr", ConnectSearch)
export const requestRoute = routeRef("/scw/tc/request", RequestSearch)
export const connectedAppsRoute = routeRef("/scw/settings/connected-apps")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [connectRoute, connectQrRoute, requestRoute, connectedAppsRoute]
