import { enumParam, routeRef, searchParams } from "@wallet/kernel"

/**
 * The settings plugin's routes as typed references (decision 0170). The manifest's routes use the
 * same search checks, so a reference and its route cannot drift apart.
 */

/** Spec 1 §2: /settings (search tab = cw or scw), /settings/language, /settings/default-currency. */
export const SettingsSearch = searchParams({ tab: enumParam(["cw", "scw"], "cw") })

export const settingsRoute = routeRef("/settings", SettingsSearch)
export const notificationTypeRoute = routeRef("/settings/notifications/$type")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [settingsRoute, notificationTypeRoute]
