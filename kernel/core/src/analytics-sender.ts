/**
 * The analytics batch sender (spec 3 §4.5, §7.5; decision 0350), loaded lazily after the first
 * screen. One queue per stream (custodial, scw) plus the meters.
 *
 * States: `active` (a flush runs `ANALYTICS_FLUSH_DELAY_MS` after the first queued item),
 * `paused` (offline or hidden: items queue, nothing is posted) and `destroyed` (final).
 * - offline -> paused; online -> active (when visible).
 * - hidden -> the queue goes out by beacon, then paused; visible -> active (when online).
 * - pagehide / unload -> the queue goes out by beacon.
 * - A failed post puts its events back at the head of their queue, in their order, and the next
 *   try waits longer (doubling, at most 30 s). A batch the gateway refuses (a 4xx other than 408
 *   and 429: malformed, oversized) is dropped and reported: sent again it would be refused again and
 *   block every event behind it. Meters are dropped on failure (spec: ignored).
 */
import {
  ANALYTICS_EVENTS_PATH,
  ANALYTICS_FLUSH_DELAY_MS,
  ANALYTICS_MAX_BATCH,
  ANALYTICS_METERS_PATH,
  ANALYTICS_STREAMS,
  type AnalyticsEvent,
  type AnalyticsMeter,
  type AnalyticsSink,
  type AnalyticsStream,
} from "./analytics.ts"

export type SenderState = "active" | "paused" | "destroyed"

/** A post the gateway answered with an HTTP error status. */
export class AnalyticsHttpError extends Error {
  constructor(readonly status: number) {
    super(`analytics: HTTP ${status}`)
  }
}

/** A refusal that no retry can fix (the batch itself is wrong). */
export const isRefusal = (error: unknown): boolean =>
  error instanceof AnalyticsHttpError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429

export const MAX_RETRY_DELAY_MS = 30_000

/** How batches leave: a POST (rejects on failure) and a beacon (false when the browser refused it). */
export interface AnalyticsTransport {
  readonly post: (path: string, body: unknown) => Promise<void>
  readonly beacon: (path: string, body: unknown) => boolean
}

export type PageSignal = "online" | "offline" | "hidden" | "visible" | "pagehide" | "unload"

/** What the sender needs from the page; `browserEnvironment` is the real one, tests pass a fake. */
export interface SenderEnvironment {
  readonly setTimeout: (run: () => void, ms: number) => unknown
  readonly clearTimeout: (handle: unknown) => void
  readonly isOnline: () => boolean
  readonly isVisible: () => boolean
  /** Subscribes to the page's signals; returns the unsubscribe function. */
  readonly listen: (listener: (signal: PageSignal) => void) => () => void
}

export interface BatchSender extends AnalyticsSink {
  readonly state: () => SenderState
  readonly queued: (stream: AnalyticsStream) => ReadonlyArray<AnalyticsEvent>
  readonly destroy: () => void
  /** Resolves when no post is in flight (tests). */
  readonly idle: () => Promise<void>
}

export const createBatchSender = (options: {
  readonly transport: AnalyticsTransport
  readonly environment: SenderEnvironment
  readonly delayMs?: number
  readonly onProblem?: (message: string, error?: unknown) => void
}): BatchSender => {
  const { transport, environment } = options
  const delayMs = options.delayMs ?? ANALYTICS_FLUSH_DELAY_MS
  const onProblem = options.onProblem ?? (() => {})
  const queues: Record<AnalyticsStream, Array<AnalyticsEvent>> = { custodial: [], scw: [] }
  let meters: Array<AnalyticsMeter> = []
  let state: SenderState = environment.isOnline() && environment.isVisible() ? "active" : "paused"
  let timer: unknown
  let failures = 0
  let inFlight: Promise<void> | undefined

  const hasQueued = () => meters.length > 0 || ANALYTICS_STREAMS.some((stream) => queues[stream].length > 0)

  const cancel = () => {
    if (timer !== undefined) environment.clearTimeout(timer)
    timer = undefined
  }
  const schedule = () => {
    if (state !== "active" || timer !== undefined || inFlight || !hasQueued()) return
    const wait = failures === 0 ? delayMs : Math.min(delayMs * 2 ** failures, MAX_RETRY_DELAY_MS)
    timer = environment.setTimeout(() => {
      timer = undefined
      void post()
    }, wait)
  }

  const post = async () => {
    if (state !== "active" || inFlight) return
    const batches = ANALYTICS_STREAMS.filter((stream) => queues[stream].length > 0).map((stream) => ({
      stream,
      events: queues[stream].splice(0, ANALYTICS_MAX_BATCH),
    }))
    const meterBatch = meters.splice(0, ANALYTICS_MAX_BATCH)
    let failed = false
    inFlight = (async () => {
      for (const batch of batches) {
        try {
          await transport.post(ANALYTICS_EVENTS_PATH, batch)
        } catch (error) {
          if (isRefusal(error)) {
            onProblem(`analytics batch of ${batch.events.length} refused by the gateway; dropped`, error)
            continue
          }
          failed = true
          // Back at the head, before anything queued meanwhile, in the original order.
          queues[batch.stream].unshift(...batch.events)
          onProblem(`analytics batch of ${batch.events.length} failed; kept for the next try`, error)
        }
      }
      if (meterBatch.length > 0) {
        await transport.post(ANALYTICS_METERS_PATH, { meters: meterBatch }).catch(() => {})
      }
    })()
    await inFlight
    inFlight = undefined
    failures = failed ? failures + 1 : 0
    schedule()
  }

  /** Everything queued now, by beacon; what a refused beacon carried stays queued. */
  const beaconAll = () => {
    if (!environment.isOnline()) return
    for (const stream of ANALYTICS_STREAMS) {
      while (queues[stream].length > 0) {
        const events = queues[stream].slice(0, ANALYTICS_MAX_BATCH)
        if (!transport.beacon(ANALYTICS_EVENTS_PATH, { stream, events })) {
          onProblem("analytics beacon refused; kept for the next try")
          return
        }
        queues[stream].splice(0, events.length)
      }
    }
    if (meters.length > 0 && transport.beacon(ANALYTICS_METERS_PATH, { meters: meters.slice(0, ANALYTICS_MAX_BATCH) })) meters = []
  }

  const pause = () => {
    if (state === "destroyed") return
    state = "paused"
    cancel()
  }
  const resume = () => {
    if (state === "destroyed" || !environment.isOnline() || !environment.isVisible()) return
    state = "active"
    failures = 0
    schedule()
  }

  const unsubscribe = environment.listen((signal) => {
    if (state === "destroyed") return
    switch (signal) {
      case "offline":
        return pause()
      case "online":
        return resume()
      case "hidden":
        beaconAll()
        return pause()
      case "visible":
        return resume()
      case "pagehide":
      case "unload":
        return beaconAll()
    }
  })

  return {
    enqueue: (event) => {
      if (state === "destroyed") return
      queues[event.stream].push(event)
      schedule()
    },
    enqueueMeter: (meter) => {
      if (state === "destroyed") return
      meters.push(meter)
      schedule()
    },
    flush: () => {
      if (state === "active") {
        cancel()
        void post()
      } else if (state === "paused" && !environment.isVisible()) beaconAll()
    },
    state: () => state,
    queued: (stream) => [...queues[stream]],
    destroy: () => {
      if (state === "destroyed") return
      cancel()
      beaconAll()
      unsubscribe()
      state = "destroyed"
    },
    idle: async () => {
      for (let current = inFlight; current; current = inFlight) await current
    },
  }
}

/** The page's signals, timers and connectivity. */
export const browserEnvironment = (): SenderEnvironment => ({
  setTimeout: (run, ms) => window.setTimeout(run, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
  isOnline: () => navigator.onLine !== false,
  isVisible: () => document.visibilityState !== "hidden",
  listen: (listener) => {
    const online = () => listener("online")
    const offline = () => listener("offline")
    const visibility = () => listener(document.visibilityState === "hidden" ? "hidden" : "visible")
    const pagehide = () => listener("pagehide")
    const unload = () => listener("unload")
    window.addEventListener("online", online)
    window.addEventListener("offline", offline)
    document.addEventListener("visibilitychange", visibility)
    window.addEventListener("pagehide", pagehide)
    window.addEventListener("beforeunload", unload)
    return () => {
      window.removeEventListener("online", online)
      window.removeEventListener("offline", offline)
      document.removeEventListener("visibilitychange", visibility)
      window.removeEventListener("pagehide", pagehide)
      window.removeEventListener("beforeunload", unload)
    }
  },
})

/**
 * POST with `fetch` (JSON) and the beacon as `application/json` (a same-origin beacon may carry
 * any type; the server also reads `text/plain`, what a cross-origin beacon must use).
 */
export const browserTransport = (baseUrl: string): AnalyticsTransport => ({
  post: async (path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new AnalyticsHttpError(response.status)
  },
  beacon: (path, body) => {
    if (typeof navigator.sendBeacon !== "function") return false
    return navigator.sendBeacon(`${baseUrl}${path}`, new Blob([JSON.stringify(body)], { type: "application/json" }))
  },
})

/** The app's sender (what `lazySink` loads). */
export const createBrowserSender = (baseUrl: string, onProblem?: (message: string, error?: unknown) => void): BatchSender =>
  createBatchSender({ transport: browserTransport(baseUrl), environment: browserEnvironment(), ...(onProblem ? { onProblem } : {}) })
