import type { AnalyticsProperties } from "./analytics.ts"

/**
 * The launch event's properties (spec 3 §3 "Launch event fields"): how the app was opened, the
 * device and the navigation timings (ms, from PerformanceNavigationTiming). Every read is guarded:
 * a missing browser API leaves its field out.
 */
export interface LaunchFacts {
  readonly startParam?: string | undefined
  readonly navigator?: Partial<Navigator & { readonly deviceMemory: number; readonly connection: { readonly effectiveType?: string } }>
  readonly screen?: Partial<Pick<Screen, "width" | "height">> & { readonly orientation?: { readonly type?: string } }
  readonly devicePixelRatio?: number
  readonly navigation?: Partial<
    Pick<
      PerformanceNavigationTiming,
      "duration" | "domainLookupStart" | "domainLookupEnd" | "connectStart" | "connectEnd" | "requestStart" | "responseStart" | "responseEnd"
    >
  >
}

/** `direct` without a start param, `mailing` for a mailing link, else `link`. */
export const initiateMethod = (startParam: string | undefined): string =>
  !startParam ? "direct" : /(?:^|_)mailing(?:_|-|$)/i.test(startParam) ? "mailing" : "link"

/** A mailing link's id: the part after `mailing_` / `mailing-` (`..._mailing_42_...` -> `42`). */
export const mailingId = (startParam: string | undefined): string | null => startParam?.match(/(?:^|_)mailing[_-]([A-Za-z0-9]+)/i)?.[1] ?? null

const ms = (value: number | undefined) => (typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : undefined)

export const launchProperties = (facts: LaunchFacts): AnalyticsProperties => {
  const nav = facts.navigation
  const width = facts.screen?.width
  const height = facts.screen?.height
  return {
    initiate_method: initiateMethod(facts.startParam),
    mailing_id: mailingId(facts.startParam),
    operation: facts.startParam ? facts.startParam.slice(0, 256) : null,
    user_agent: facts.navigator?.userAgent?.slice(0, 512),
    pixel_ratio: facts.devicePixelRatio,
    hardware_concurrency: facts.navigator?.hardwareConcurrency,
    device_memory: facts.navigator?.deviceMemory,
    connection_type: facts.navigator?.connection?.effectiveType,
    screen_size: width !== undefined && height !== undefined ? `${width}x${height}` : undefined,
    orientation: facts.screen?.orientation?.type,
    duration: ms(nav?.duration),
    dns: nav ? ms((nav.domainLookupEnd ?? 0) - (nav.domainLookupStart ?? 0)) : undefined,
    connecting: nav ? ms((nav.connectEnd ?? 0) - (nav.connectStart ?? 0)) : undefined,
    waiting: nav ? ms((nav.responseStart ?? 0) - (nav.requestStart ?? 0)) : undefined,
    loading: nav ? ms((nav.responseEnd ?? 0) - (nav.responseStart ?? 0)) : undefined,
  }
}

/** The facts of this page (browser only). */
export const browserLaunchFacts = (startParam: string | undefined): LaunchFacts => ({
  startParam,
  navigator: navigator as LaunchFacts["navigator"],
  screen: window.screen,
  devicePixelRatio: window.devicePixelRatio,
  navigation: performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined,
})
