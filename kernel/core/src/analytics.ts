import { Context, Effect, Layer } from "effect"
import type { AnalyticsEventDefinition } from "./manifest.ts"

/**
 * The kernel's Analytics service (spec 3 §3, §4.5, §7.5, §9; decision 0350).
 *
 * `track(name, properties)` builds an event (clientId, traceId = the analytics session, a fresh
 * idempotencyKey, clientTime, version, userId, name, eventProperties, stream) and hands it to a
 * sink. The batch sender (`analytics-sender.ts`) is loaded lazily, off the first screen: until it
 * arrives the sink keeps events in memory, in order. Only declared events are tracked: the kernel's
 * (`KERNEL_ANALYTICS_EVENTS`) and those the enabled plugins list in their manifests (`analytics`).
 */

/** Spec 3 §9: a new analytics session id after 30 minutes (1,800,000 ms) without events. */
export const ANALYTICS_SESSION_MAX_AGE_MS = 1_800_000
/** Spec 3 §9: batch flush delay 300 ms. */
export const ANALYTICS_FLUSH_DELAY_MS = 300
/** At most this many events in one posted batch (the server refuses larger ones). */
export const ANALYTICS_MAX_BATCH = 100
export const ANALYTICS_EVENTS_PATH = "/api/analytics/events"
export const ANALYTICS_METERS_PATH = "/api/analytics/meters"

/** The custodial side and the self-custody (TON space, `/scw`) side send separate streams. */
export type AnalyticsStream = "custodial" | "scw"
export const ANALYTICS_STREAMS: ReadonlyArray<AnalyticsStream> = ["custodial", "scw"]

/** JSON values an event property may hold. */
export type AnalyticsValue = string | number | boolean | null | ReadonlyArray<AnalyticsValue> | { readonly [key: string]: AnalyticsValue }
export type AnalyticsProperties = { readonly [key: string]: AnalyticsValue | undefined }

/** The properties every event carries (spec 3 §3). */
export interface AnalyticsBaseProperties {
  readonly platform: string
  readonly tg_sdk_version: string
  readonly bot_language: string
  readonly is_new_user: boolean
  readonly scw_user_id: string | null
  readonly client_timezone: string
  readonly initiate_method: string
}

export interface AnalyticsEvent {
  readonly clientId: string
  readonly traceId: string
  readonly idempotencyKey: string
  /** ISO 8601. */
  readonly clientTime: string
  readonly version: string
  readonly userId: string | null
  readonly name: string
  readonly stream: AnalyticsStream
  readonly eventProperties: { readonly [key: string]: AnalyticsValue }
  /** Set on events held until the user id was known (spec 3 §4.5). */
  readonly isPostoponed?: true
}

export interface AnalyticsMeter {
  readonly name: string
  readonly value: number
  readonly clientId: string
  readonly clientTime: string
  readonly version: string
}

/** Where built events go: the batch sender, or a buffer until it loads. */
export interface AnalyticsSink {
  readonly enqueue: (event: AnalyticsEvent) => void
  readonly enqueueMeter: (meter: AnalyticsMeter) => void
  /** Sends what is queued now (a page about to close uses the beacon). */
  readonly flush: () => void
}

/** The kernel's own events; plugins' events are `<pluginId>.<event>` (decision 0350). */
export const KERNEL_ANALYTICS_EVENTS: ReadonlyArray<AnalyticsEventDefinition> = [
  { name: "launch", description: "The app started: start param, device and navigation timings (spec 3 §3)" },
  { name: "not_found", description: "An unknown page or start param was opened (spec 1 §8)" },
  { name: "user_created", description: "The server created the user record on this launch (spec 3 §7.4)" },
  { name: "screen_view", description: "A route was shown; `route` is its id (sent by the router for every route)" },
  { name: "error_shown", description: "An error the user saw: `code`, `where`" },
]

export interface AnalyticsOptions {
  readonly now: () => number
  readonly newId: () => string
  readonly clientId: string
  readonly version: string
  readonly base: AnalyticsBaseProperties
  /** Event names that may be tracked; anything else goes to `onUndeclared` and is dropped. */
  readonly declared: ReadonlySet<string>
  readonly onUndeclared: (name: string) => void
  /** The stream of an event tracked without one (the app: `/scw` screens are the self-custody side). */
  readonly streamOf: () => AnalyticsStream
  readonly sink: AnalyticsSink
  /** Meters are sent only in production (spec 3 §7.5). */
  readonly production: boolean
}

export interface AnalyticsShape {
  readonly track: (name: string, properties?: AnalyticsProperties, options?: { readonly stream?: AnalyticsStream }) => void
  readonly meter: (name: string, value: number) => void
  /** The user id is known: held events go out with `isPostoponed`. */
  readonly identify: (userId: string | number, properties?: Partial<AnalyticsBaseProperties>) => void
  readonly setProperties: (properties: Partial<AnalyticsBaseProperties>) => void
  readonly flush: () => void
  /** The current analytics session id (the events' traceId). */
  readonly sessionId: () => string
}

const clean = (properties: AnalyticsProperties | undefined): { [key: string]: AnalyticsValue } => {
  const out: { [key: string]: AnalyticsValue } = {}
  for (const [key, value] of Object.entries(properties ?? {})) if (value !== undefined) out[key] = value
  return out
}

/** The service's logic, without Effect (unit tests drive it with a fake clock and sink). */
export const makeAnalytics = (options: AnalyticsOptions): AnalyticsShape => {
  let base: AnalyticsBaseProperties = options.base
  let userId: string | null = null
  let traceId = options.newId()
  let lastEventAt: number | undefined
  const held: Array<AnalyticsEvent> = []

  const sessionFor = (now: number) => {
    if (lastEventAt !== undefined && now - lastEventAt > ANALYTICS_SESSION_MAX_AGE_MS) traceId = options.newId()
    lastEventAt = now
    return traceId
  }

  return {
    track: (name, properties, trackOptions) => {
      if (!options.declared.has(name)) return options.onUndeclared(name)
      const now = options.now()
      const event: AnalyticsEvent = {
        clientId: options.clientId,
        traceId: sessionFor(now),
        idempotencyKey: options.newId(),
        clientTime: new Date(now).toISOString(),
        version: options.version,
        userId,
        name,
        stream: trackOptions?.stream ?? options.streamOf(),
        eventProperties: { ...base, ...clean(properties) },
      }
      if (userId === null) held.push(event)
      else options.sink.enqueue(event)
    },
    meter: (name, value) => {
      if (!options.production || !Number.isFinite(value)) return
      options.sink.enqueueMeter({ name, value, clientId: options.clientId, clientTime: new Date(options.now()).toISOString(), version: options.version })
    },
    identify: (id, properties) => {
      if (properties) base = { ...base, ...properties }
      userId = String(id)
      for (const event of held.splice(0)) {
        options.sink.enqueue({ ...event, userId: String(id), eventProperties: { ...event.eventProperties, ...properties }, isPostoponed: true })
      }
    },
    setProperties: (properties) => {
      base = { ...base, ...properties }
    },
    flush: () => options.sink.flush(),
    sessionId: () => traceId,
  }
}

/**
 * A sink that buffers until the real one loads (the sender module is a lazy chunk, fetched on the
 * first event), then replays the buffer in order and forwards everything after. A load failure is logged only (spec: events
 * that fail to send are logged only).
 */
export const lazySink = (
  load: () => Promise<AnalyticsSink>,
  onProblem: (error: unknown) => void = () => {},
): AnalyticsSink & { readonly ready: () => Promise<void> } => {
  let target: AnalyticsSink | undefined
  const buffer: Array<(sink: AnalyticsSink) => void> = []
  let flushWanted = false
  let loading: Promise<void> | undefined
  const start = () =>
    (loading ??= load().then(
      (sink) => {
        target = sink
        for (const call of buffer.splice(0)) call(sink)
        if (flushWanted) sink.flush()
      },
      (error: unknown) => onProblem(error),
    ))
  const later = (call: (sink: AnalyticsSink) => void) => {
    buffer.push(call)
    void start()
  }
  return {
    ready: start,
    enqueue: (event) => (target ? target.enqueue(event) : later((sink) => sink.enqueue(event))),
    enqueueMeter: (meter) => (target ? target.enqueueMeter(meter) : later((sink) => sink.enqueueMeter(meter))),
    flush: () => (target ? target.flush() : void (flushWanted = true)),
  }
}

/** Resolves when the browser is idle (at most 2 s later): the sender's chunk never competes with the first screen. */
const whenIdle = () =>
  new Promise<void>((resolve) => {
    if (typeof window !== "undefined" && "requestIdleCallback" in window) window.requestIdleCallback(() => resolve(), { timeout: 2000 })
    else setTimeout(resolve, 200)
  })

/** The app's sink: the batch sender in its own chunk, loaded after the first event when the browser is idle. */
export const browserAnalyticsSink = (baseUrl: string, onProblem: (message: string, error?: unknown) => void) =>
  lazySink(
    () => whenIdle().then(() => import("./analytics-sender.ts").then((m) => m.createBrowserSender(baseUrl, onProblem))),
    (error) => onProblem("analytics sender did not load", error),
  )

/** A random id (uuid v4 where the platform has it). */
export const analyticsId = (): string =>
  typeof crypto !== "undefined" && typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : "xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx".replace(/x/g, () => Math.floor(Math.random() * 16).toString(16))

/** The clientId kept in local storage (one per browser profile). */
export const analyticsClientId = (storage: Pick<globalThis.Storage, "getItem" | "setItem"> | undefined): string => {
  const key = "wallet:analytics-client-id"
  try {
    const existing = storage?.getItem(key)
    if (existing && /^[0-9a-f-]{36}$/i.test(existing)) return existing
    const id = analyticsId()
    storage?.setItem(key, id)
    return id
  } catch {
    return analyticsId()
  }
}

/** A sink that records what it gets (tests, the test kit). */
export const recordingSink = () => {
  const events: Array<AnalyticsEvent> = []
  const meters: Array<AnalyticsMeter> = []
  let flushes = 0
  const sink: AnalyticsSink = { enqueue: (e) => void events.push(e), enqueueMeter: (m) => void meters.push(m), flush: () => void flushes++ }
  return { sink, events, meters, flushes: () => flushes }
}

export class Analytics extends Context.Service<Analytics, AnalyticsShape>()("wallet/Analytics") {
  static readonly layer = (options: AnalyticsOptions) => Layer.succeed(Analytics, makeAnalytics(options))
  /** For tests: every declared name allowed, an undeclared one throws, events recorded. */
  static readonly layerTest = (declared: ReadonlyArray<string> = KERNEL_ANALYTICS_EVENTS.map((e) => e.name)) => {
    const recording = recordingSink()
    let n = 0
    return {
      recording,
      layer: Layer.succeed(
        Analytics,
        makeAnalytics({
          now: () => 0,
          newId: () => `id-${++n}`,
          clientId: "test-client",
          version: "test",
          base: {
            platform: "unknown",
            tg_sdk_version: "6.0",
            bot_language: "en",
            is_new_user: false,
            scw_user_id: null,
            client_timezone: "UTC",
            initiate_method: "direct",
          },
          declared: new Set(declared),
          onUndeclared: (name) => {
            throw new Error(`analytics event '${name}' is not declared in any manifest`)
          },
          streamOf: () => "custodial",
          sink: recording.sink,
          production: true,
        }),
      ),
    }
  }
}

/** `track` as an Effect (for Effect code; React screens use `useAnalytics`). */
export const track = (name: string, properties?: AnalyticsProperties): Effect.Effect<void, never, Analytics> =>
  Effect.gen(function* () {
    const analytics = yield* Analytics
    analytics.track(name, properties)
  })
