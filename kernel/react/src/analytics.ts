import { useEffect, useMemo } from "react"
import { Effect, Option } from "effect"
import { Analytics, type AnalyticsProperties, type AnalyticsShape, type Composition } from "@wallet/kernel"
import { useKernel, type Kernel } from "./context.tsx"

const noop: AnalyticsShape = {
  track: () => {},
  meter: () => {},
  identify: () => {},
  setProperties: () => {},
  flush: () => {},
  sessionId: () => "",
}

/** The kernel's Analytics service (decision 0350); a no-op in a kernel built without it. */
export const analyticsOf = (kernel: Pick<Kernel, "runtime">): AnalyticsShape => {
  try {
    return Option.getOrElse(kernel.runtime.runSync(Effect.serviceOption(Analytics)), () => noop)
  } catch {
    return noop
  }
}

/** `const analytics = useAnalytics(); analytics.track("custody.send_submit", { currency })`. */
export function useAnalytics(): AnalyticsShape {
  const kernel = useKernel()
  return useMemo(() => analyticsOf(kernel), [kernel])
}

/**
 * Tracks `name` once when the screen mounts and again whenever `key` changes (an error code shown,
 * a step reached); `when: false` skips it (nothing to report yet).
 */
export function useTrackEvent(name: string, properties?: AnalyticsProperties, options: { readonly key?: unknown; readonly when?: boolean } = {}): void {
  const analytics = useAnalytics()
  const when = options.when ?? true
  useEffect(() => {
    if (when) analytics.track(name, properties)
    // The properties are read when the key changes, not on every render.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [analytics, name, when, options.key])
}

/** What `trackScreenViews` needs of a TanStack router. */
interface RouterLike {
  readonly state: {
    readonly matches: ReadonlyArray<{ readonly routeId: string; readonly fullPath?: string }>
    readonly location: { readonly pathname: string }
  }
  readonly subscribe: (event: "onResolved", listener: (event: { readonly pathChanged: boolean }) => void) => () => void
}

/**
 * One `screen_view` per shown route, from the router (every plugin's routes, no screen code):
 * `route` is the composed route's global id (`custody/asset`; a shell route: the router's id),
 * `path` the pathname. Returns the unsubscribe function. The shown pathname is also written to
 * `<html data-shown-path>` (browser tests wait on it: `location.pathname` changes before a lazy
 * screen resolves, and a navigation superseded before it resolves was never shown).
 */
export function trackScreenViews(router: RouterLike, analytics: AnalyticsShape, composition?: Pick<Composition, "routes">): () => void {
  const byPath = new Map((composition?.routes ?? []).map((route) => [route.fullPath, route.globalId]))
  let last: string | undefined
  const report = () => {
    const match = router.state.matches.at(-1)
    if (!match) return
    const fullPath = match.fullPath?.replace(/\/$/, "") || "/"
    const route = byPath.get(fullPath) ?? match.routeId
    const path = router.state.location.pathname
    if (typeof document !== "undefined") document.documentElement.dataset.shownPath = path
    if (`${route} ${path}` === last) return
    last = `${route} ${path}`
    analytics.track("screen_view", { route, path })
  }
  report()
  return router.subscribe("onResolved", () => report())
}

/**
 * `useTrackEvent` as an element, for a place where a hook cannot go (a branch of JSX):
 * `{failed && <><TrackEvent name="error_shown" properties={{ where: "custody/asset", code }} /><LoadError … /></>}`.
 */
export function TrackEvent({
  name,
  properties,
  eventKey,
}: {
  readonly name: string
  readonly properties?: AnalyticsProperties
  readonly eventKey?: unknown
}): null {
  useTrackEvent(name, properties, { key: eventKey })
  return null
}
