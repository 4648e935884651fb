/**
 * What the boot starts early for the first screen (decision 0007): at the start path (`/` or `/main`)
 * wallet main is the likely first screen, so its strings load beside sign-in instead of after the
 * route resolves. Pure functions of the composition, tested in boot-start.test.ts.
 */
import type { Composition } from "@wallet/kernel"

/** The paths the HTML paints wallet main's skeleton for (index.html's inline script has the same rule). */
export const START_PATHS: ReadonlyArray<string> = ["/", "/main"]

export const isStartPath = (pathname: string): boolean => START_PATHS.includes(pathname)

/** The route wallet main lives at; its start-time queries run once the session exists. */
export const MAIN_PATH = "/main"

/**
 * The i18n namespaces wallet main needs on its first render: the plugin serving `/main` and every
 * plugin contributing a top-bar button or an action (their strings label the buttons). Empty when
 * the app does not open at the start path.
 */
export const startNamespaces = (
  composition: Pick<Composition, "routes" | "plugins" | "main">,
  pathname: string = window.location.pathname,
): ReadonlyArray<string> => {
  if (!isStartPath(pathname)) return []
  const owner = composition.routes.find((route) => route.fullPath === MAIN_PATH)?.pluginId
  const pluginIds = [
    ...(owner ? [owner] : []),
    ...composition.main.topBar.map((slot) => slot.pluginId),
    ...composition.main.actions.map((slot) => slot.pluginId),
  ]
  const namespaces = pluginIds
    .map((id) => composition.plugins.find((plugin) => plugin.id === id)?.i18n?.namespace)
    .filter((ns): ns is string => ns !== undefined)
  return [...new Set(namespaces)]
}
