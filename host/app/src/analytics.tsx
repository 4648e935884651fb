/**
 * The app's Analytics service (decision 0350): the kernel's and the enabled plugins' declared
 * events, the base properties from Telegram's launch params, the stream from the current side
 * (`/scw` = self-custody), the batch sender loaded lazily on the first event.
 */
import { useLocation } from "@tanstack/react-router"
import {
  analyticsClientId,
  analyticsId,
  browserAnalyticsSink,
  initiateMethod,
  KERNEL_ANALYTICS_EVENTS,
  KERNEL_VERSION,
  makeAnalytics,
  type AnalyticsShape,
  type Composition,
  type LaunchParams,
} from "@wallet/kernel"
import { useTrackEvent } from "@wallet/kernel-react"
import * as screens from "./shell/screens.tsx"

const timezone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC"
  } catch {
    return "UTC"
  }
}

export function makeAppAnalytics(composition: Composition, launchParams: LaunchParams): AnalyticsShape {
  const dev = import.meta.env.DEV || import.meta.env.VITE_DEV_TOOLS === "1"
  let storage: Storage | undefined
  try {
    storage = window.localStorage
  } catch {
    storage = undefined
  }
  return makeAnalytics({
    now: () => Date.now(),
    newId: analyticsId,
    clientId: analyticsClientId(storage),
    version: KERNEL_VERSION,
    base: {
      platform: launchParams.platform,
      tg_sdk_version: launchParams.version,
      bot_language: launchParams.languageCode ?? "",
      is_new_user: false,
      scw_user_id: null,
      client_timezone: timezone(),
      initiate_method: initiateMethod(launchParams.startParam),
    },
    declared: new Set([...KERNEL_ANALYTICS_EVENTS, ...composition.analyticsEvents].map((event) => event.name)),
    onUndeclared: (name) => {
      if (dev) console.warn(`[analytics] '${name}' is not declared in any manifest's analytics.events: not sent`)
    },
    streamOf: () => (window.location.pathname === "/scw" || window.location.pathname.startsWith("/scw/") ? "scw" : "custodial"),
    sink: browserAnalyticsSink(window.location.origin, (message, error) => console.warn(`[analytics] ${message}`, error ?? "")),
    production: import.meta.env.PROD,
  })
}

/** The router's not-found screen, logging a not_found event for the unknown path. */
export function NotFoundTracked() {
  const path = useLocation({ select: (location) => location.pathname })
  useTrackEvent("not_found", { path, kind: "route" }, { key: path })
  return <screens.NotFoundScreen />
}
