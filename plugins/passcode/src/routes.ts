import { enumParam, optionalEnumParam, routeRef, searchParams, stringParam } from "@wallet/kernel"

/**
 * The passcode plugin's routes and the routes its screens open, as typed references (decision
 * 0170), with the search checks the manifest's routes use.
 */

/** /passcode/settings: `action` opens a flow directly (wallet main's showCreatePasscode opens `create`). */
export const PasscodeSettingsSearch = searchParams({
  action: enumParam(["list", "create", "change", "reset", "email"], "list"),
})

/** /scw/passcode/create (spec 3 §2.3): email, type manual | recover | mnemonic, source. */
export const PasscodeCreateSearch = searchParams({
  email: stringParam,
  type: enumParam(["manual", "recover", "mnemonic"], "manual"),
  source: optionalEnumParam(["banner", "onboarding", "onboarding_checklist"]),
})

export const passcodeSettingsRoute = routeRef("/passcode/settings", PasscodeSettingsSearch)
export const passcodeCreateRoute = routeRef("/scw/passcode/create", PasscodeCreateSearch)

// Public paths of plugins the passcode plugin does not depend on (the route-reference test checks they exist).
/** The settings screen (the settings plugin). */
export const walletSettingsRoute = routeRef("/settings")
/** The TON space's main screen. */
export const scwRoute = routeRef("/scw")

/** Every reference of this plugin (the route-reference test checks them against the composed tree). */
export const routeRefs = [passcodeSettingsRoute, passcodeCreateRoute, walletSettingsRoute, scwRoute]
