import { describe, expect, it } from "vitest"
import {
  ANALYTICS_EVENTS_PATH,
  ANALYTICS_FLUSH_DELAY_MS,
  ANALYTICS_METERS_PATH,
  ANALYTICS_SESSION_MAX_AGE_MS,
  KERNEL_ANALYTICS_EVENTS,
  lazySink,
  makeAnalytics,
  recordingSink,
  type AnalyticsEvent,
  type AnalyticsStream,
} from "./analytics.ts"
import { AnalyticsHttpError, createBatchSender, MAX_RETRY_DELAY_MS, type PageSignal, type SenderEnvironment } from "./analytics-sender.ts"
import { composePlugins } from "./compose.ts"
import { definePlugin, ManifestError } from "./manifest.ts"

const base = {
  platform: "ios",
  tg_sdk_version: "7.0",
  bot_language: "en",
  is_new_user: false,
  scw_user_id: null,
  client_timezone: "UTC",
  initiate_method: "direct",
}

function setup(options: { declared?: ReadonlyArray<string>; production?: boolean; stream?: AnalyticsStream } = {}) {
  const clock = { now: Date.UTC(2026, 0, 1) }
  let n = 0
  const recording = recordingSink()
  const undeclared: Array<string> = []
  const analytics = makeAnalytics({
    now: () => clock.now,
    newId: () => `id-${++n}`,
    clientId: "client-1",
    version: "1.2.3",
    base,
    declared: new Set(options.declared ?? ["screen_view", "home.open"]),
    onUndeclared: (name) => void undeclared.push(name),
    streamOf: () => options.stream ?? "custodial",
    sink: recording.sink,
    production: options.production ?? true,
  })
  return { clock, analytics, recording, undeclared }
}

/** A fake page: manual timers, online/visible switches, signals sent by the test. */
function fakePage() {
  const timers = new Map<number, { run: () => void; at: number }>()
  let now = 0
  let next = 1
  let online = true
  let visible = true
  const listeners = new Set<(signal: PageSignal) => void>()
  const environment: SenderEnvironment = {
    setTimeout: (run, ms) => {
      const id = next++
      timers.set(id, { run, at: now + ms })
      return id
    },
    clearTimeout: (id) => void timers.delete(id as number),
    isOnline: () => online,
    isVisible: () => visible,
    listen: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
  return {
    environment,
    pending: () => [...timers.values()].map((t) => t.at - now),
    /** Moves the fake clock, running due timers. */
    advance: (ms: number) => {
      now += ms
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at <= now) {
          timers.delete(id)
          timer.run()
        }
      }
    },
    signal: (signal: PageSignal) => {
      if (signal === "online") online = true
      if (signal === "offline") online = false
      if (signal === "hidden") visible = false
      if (signal === "visible") visible = true
      for (const listener of listeners) listener(signal)
    },
    listeners: () => listeners.size,
  }
}

function fakeTransport() {
  const posts: Array<{ path: string; body: any }> = []
  const beacons: Array<{ path: string; body: any }> = []
  let failNext = 0
  let refuseWith: number | undefined
  let refuseBeacon = false
  return {
    posts,
    beacons,
    failNext: (count: number) => void (failNext = count),
    refuseNext: (status: number) => void (refuseWith = status),
    refuseBeacons: (value: boolean) => void (refuseBeacon = value),
    transport: {
      post: async (path: string, body: unknown) => {
        if (refuseWith !== undefined) {
          const status = refuseWith
          refuseWith = undefined
          throw new AnalyticsHttpError(status)
        }
        if (failNext > 0) {
          failNext--
          throw new Error("network down")
        }
        posts.push({ path, body: structuredClone(body) })
      },
      beacon: (path: string, body: unknown) => {
        if (refuseBeacon) return false
        beacons.push({ path, body: structuredClone(body) })
        return true
      },
    },
  }
}

let seq = 0
const event = (name: string, stream: AnalyticsStream = "custodial"): AnalyticsEvent => ({
  clientId: "c",
  traceId: "t",
  idempotencyKey: `k-${++seq}`,
  clientTime: "2026-01-01T00:00:00.000Z",
  version: "1",
  userId: "1",
  name,
  stream,
  eventProperties: {},
})
const names = (batch: { body: { events: ReadonlyArray<AnalyticsEvent> } }) => batch.body.events.map((e) => e.name)

describe("Analytics service", () => {
  it("builds events with the spec's fields and the base properties", () => {
    const { analytics, recording } = setup()
    analytics.identify(42)
    analytics.track("home.open", { asset: "TON", dropped: undefined })
    expect(recording.events).toEqual([
      {
        clientId: "client-1",
        traceId: "id-1",
        idempotencyKey: "id-2",
        clientTime: "2026-01-01T00:00:00.000Z",
        version: "1.2.3",
        userId: "42",
        name: "home.open",
        stream: "custodial",
        eventProperties: { ...base, asset: "TON" },
      },
    ])
  })

  it("starts a new analytics session after more than 30 idle minutes, not before", () => {
    const { analytics, recording, clock } = setup()
    analytics.identify(1)
    analytics.track("screen_view")
    clock.now += ANALYTICS_SESSION_MAX_AGE_MS
    analytics.track("screen_view")
    clock.now += ANALYTICS_SESSION_MAX_AGE_MS + 1
    analytics.track("screen_view")
    clock.now += 1000
    analytics.track("screen_view")
    const traces = recording.events.map((e) => e.traceId)
    expect(traces[0]).toBe(traces[1])
    expect(traces[2]).not.toBe(traces[1])
    expect(traces[3]).toBe(traces[2])
    expect(analytics.sessionId()).toBe(traces[3])
  })

  it("holds events without a user id and sends them with isPostoponed once the user is known", () => {
    const { analytics, recording } = setup()
    analytics.track("screen_view", { route: "a" })
    analytics.track("home.open")
    expect(recording.events).toEqual([])
    analytics.identify(7, { is_new_user: true })
    analytics.track("screen_view", { route: "b" })
    expect(recording.events.map((e) => [e.name, e.userId, e.isPostoponed, e.eventProperties.is_new_user])).toEqual([
      ["screen_view", "7", true, true],
      ["home.open", "7", true, true],
      ["screen_view", "7", undefined, true],
    ])
  })

  it("refuses an event no manifest declares", () => {
    const { analytics, recording, undeclared } = setup()
    analytics.identify(1)
    analytics.track("home.secret_thing")
    expect(undeclared).toEqual(["home.secret_thing"])
    expect(recording.events).toEqual([])
  })

  it("puts each event in its stream: the given one, else the current side's", () => {
    const scw = setup({ stream: "scw" })
    scw.analytics.identify(1)
    scw.analytics.track("screen_view")
    scw.analytics.track("screen_view", {}, { stream: "custodial" })
    expect(scw.recording.events.map((e) => e.stream)).toEqual(["scw", "custodial"])
  })

  it("sends meters only in production", () => {
    const prod = setup()
    prod.analytics.meter("first_screen_ms", 812)
    prod.analytics.meter("bad", Number.NaN)
    expect(prod.recording.meters).toEqual([
      { name: "first_screen_ms", value: 812, clientId: "client-1", clientTime: "2026-01-01T00:00:00.000Z", version: "1.2.3" },
    ])
    const dev = setup({ production: false })
    dev.analytics.meter("first_screen_ms", 812)
    expect(dev.recording.meters).toEqual([])
  })

  it("the lazy sink buffers until the sender loads, in order, and loads it on the first event only", async () => {
    const target = recordingSink()
    let loads = 0
    const sink = lazySink(async () => {
      loads++
      return target.sink
    })
    sink.flush()
    expect(loads).toBe(0)
    sink.enqueue(event("a"))
    sink.enqueue(event("b"))
    await sink.ready()
    sink.enqueue(event("c"))
    expect(target.events.map((e) => e.name)).toEqual(["a", "b", "c"])
    expect(target.flushes()).toBe(1)
    expect(loads).toBe(1)
  })
})

describe("manifest analytics events", () => {
  const plugin = (events: ReadonlyArray<{ name: string; description: string }>) => ({ id: "demo", version: "1.0.0", kernel: "^0.1.0", analytics: { events } })

  it("accepts <pluginId>.<event> names, refuses others and duplicates", () => {
    expect(() => definePlugin(plugin([{ name: "demo.open", description: "x" }]))).not.toThrow()
    expect(() => definePlugin(plugin([{ name: "open", description: "x" }]))).toThrow(ManifestError)
    expect(() => definePlugin(plugin([{ name: "other.open", description: "x" }]))).toThrow("demo.<event>")
    expect(() => definePlugin(plugin([{ name: "demo.Open", description: "x" }]))).toThrow(ManifestError)
    expect(() =>
      definePlugin(
        plugin([
          { name: "demo.a", description: "x" },
          { name: "demo.a", description: "y" },
        ]),
      ),
    ).toThrow("declared twice")
  })

  it("composition collects them and refuses a bad one from a plain manifest", () => {
    const region = { id: "t", plugins: { demo: { enabled: true } } }
    const composition = composePlugins({ region, installed: [plugin([{ name: "demo.open", description: "x" }])] as never })
    expect(composition.analyticsEvents).toEqual([{ name: "demo.open", description: "x", pluginId: "demo" }])
    expect(() => composePlugins({ region, installed: [plugin([{ name: "nope", description: "x" }])] as never })).toThrow(
      expect.objectContaining({ reason: "invalid-analytics-event" }),
    )
  })

  it("the kernel's own events are bare names", () => {
    expect(KERNEL_ANALYTICS_EVENTS.map((e) => e.name)).toEqual(expect.arrayContaining(["launch", "not_found", "user_created", "screen_view"]))
  })
})

describe("Batch sender", () => {
  it("active: flushes once, 300 ms after the first event, one batch per stream", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    expect(sender.state()).toBe("active")
    sender.enqueue(event("a"))
    sender.enqueue(event("b", "scw"))
    sender.enqueue(event("c"))
    expect(page.pending()).toEqual([ANALYTICS_FLUSH_DELAY_MS])
    page.advance(ANALYTICS_FLUSH_DELAY_MS - 1)
    expect(net.posts).toEqual([])
    page.advance(1)
    await sender.idle()
    expect(net.posts.map((p) => [p.path, p.body.stream, names(p)])).toEqual([
      [ANALYTICS_EVENTS_PATH, "custodial", ["a", "c"]],
      [ANALYTICS_EVENTS_PATH, "scw", ["b"]],
    ])
  })

  it("a failed flush puts the events back at the head, in order, and retries later", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const problems: Array<string> = []
    const sender = createBatchSender({ transport: net.transport, environment: page.environment, onProblem: (m) => void problems.push(m) })
    net.failNext(1)
    sender.enqueue(event("a"))
    sender.enqueue(event("b"))
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    sender.enqueue(event("c")) // queued while the failing post is in flight
    await sender.idle()
    expect(sender.queued("custodial").map((e) => e.name)).toEqual(["a", "b", "c"])
    expect(problems).toHaveLength(1)
    // Backoff: the retry waits twice the delay.
    expect(page.pending()).toEqual([ANALYTICS_FLUSH_DELAY_MS * 2])
    page.advance(ANALYTICS_FLUSH_DELAY_MS * 2)
    await sender.idle()
    expect(net.posts.map(names)).toEqual([["a", "b", "c"]])
    expect(sender.queued("custodial")).toEqual([])
  })

  it("a batch the gateway refuses (400) is dropped and reported, and does not block the events after it", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const problems: Array<string> = []
    const sender = createBatchSender({ transport: net.transport, environment: page.environment, onProblem: (m) => void problems.push(m) })
    net.refuseNext(400)
    sender.enqueue(event("bad"))
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(sender.queued("custodial")).toEqual([])
    expect(problems).toEqual([expect.stringContaining("refused")])
    sender.enqueue(event("next"))
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(net.posts.map(names)).toEqual([["next"]])
  })

  it("a 429 is not a refusal: the batch is kept for the next try", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    net.refuseNext(429)
    sender.enqueue(event("a"))
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(sender.queued("custodial").map((e) => e.name)).toEqual(["a"])
  })

  it("retries keep doubling up to 30 s and keep each event's idempotency key", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    const first = event("a")
    sender.enqueue(first)
    net.failNext(20)
    for (let i = 0; i < 12; i++) {
      page.advance(MAX_RETRY_DELAY_MS)
      await sender.idle()
    }
    expect(page.pending()).toEqual([MAX_RETRY_DELAY_MS])
    expect(sender.queued("custodial")).toEqual([first])
  })

  it("offline: pauses (nothing posted), resumes and flushes when online", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    page.signal("offline")
    expect(sender.state()).toBe("paused")
    sender.enqueue(event("a"))
    sender.enqueue(event("b"))
    expect(page.pending()).toEqual([])
    page.advance(60_000)
    expect(net.posts).toEqual([])
    page.signal("online")
    expect(sender.state()).toBe("active")
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(net.posts.map(names)).toEqual([["a", "b"]])
  })

  it("hidden: flushes by beacon and pauses; visible resumes", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    sender.enqueue(event("a"))
    sender.enqueue(event("b", "scw"))
    page.signal("hidden")
    expect(sender.state()).toBe("paused")
    expect(net.beacons.map((b) => [b.body.stream, names(b)])).toEqual([
      ["custodial", ["a"]],
      ["scw", ["b"]],
    ])
    expect(page.pending()).toEqual([])
    sender.enqueue(event("c"))
    page.advance(10_000)
    expect(net.posts).toEqual([])
    page.signal("visible")
    expect(sender.state()).toBe("active")
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(net.posts.map(names)).toEqual([["c"]])
  })

  it("visible while offline stays paused; hidden while offline keeps the events for later", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    page.signal("offline")
    sender.enqueue(event("a"))
    page.signal("hidden")
    expect(net.beacons).toEqual([])
    page.signal("visible")
    expect(sender.state()).toBe("paused")
    page.signal("online")
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(net.posts.map(names)).toEqual([["a"]])
  })

  it("pagehide and unload send the queue by beacon; a refused beacon keeps it", () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    sender.enqueue(event("a"))
    net.refuseBeacons(true)
    page.signal("pagehide")
    expect(sender.queued("custodial").map((e) => e.name)).toEqual(["a"])
    net.refuseBeacons(false)
    page.signal("unload")
    expect(net.beacons.map(names)).toEqual([["a"]])
    expect(sender.queued("custodial")).toEqual([])
  })

  it("destroyed: sends what is left by beacon, stops listening and ignores new events", () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    sender.enqueue(event("a"))
    sender.destroy()
    expect(sender.state()).toBe("destroyed")
    expect(net.beacons.map(names)).toEqual([["a"]])
    expect(page.listeners()).toBe(0)
    expect(page.pending()).toEqual([])
    sender.enqueue(event("b"))
    page.signal("online")
    expect(sender.state()).toBe("destroyed")
    expect(page.pending()).toEqual([])
  })

  it("starts paused when the page is hidden or offline", () => {
    const page = fakePage()
    page.signal("hidden")
    const sender = createBatchSender({ transport: fakeTransport().transport, environment: page.environment })
    expect(sender.state()).toBe("paused")
  })

  it("meters go as a meters array; a failed meter batch is dropped", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    sender.enqueueMeter({ name: "m", value: 1, clientId: "c", clientTime: "t", version: "1" })
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(net.posts).toEqual([{ path: ANALYTICS_METERS_PATH, body: { meters: [{ name: "m", value: 1, clientId: "c", clientTime: "t", version: "1" }] } }])
    net.failNext(1)
    sender.enqueueMeter({ name: "n", value: 2, clientId: "c", clientTime: "t", version: "1" })
    page.advance(ANALYTICS_FLUSH_DELAY_MS)
    await sender.idle()
    expect(page.pending()).toEqual([])
    expect(net.posts).toHaveLength(1)
  })

  it("an explicit flush posts at once", async () => {
    const page = fakePage()
    const net = fakeTransport()
    const sender = createBatchSender({ transport: net.transport, environment: page.environment })
    sender.enqueue(event("a"))
    sender.flush()
    await sender.idle()
    expect(net.posts.map(names)).toEqual([["a"]])
    expect(page.pending()).toEqual([])
  })
})

describe("launch event properties", () => {
  it("reads the start param, the device and the navigation timings", async () => {
    const { launchProperties } = await import("./analytics-launch.ts")
    expect(
      launchProperties({
        startParam: "promo_mailing_42_x",
        navigator: { userAgent: "UA", hardwareConcurrency: 8, deviceMemory: 4, connection: { effectiveType: "4g" } },
        screen: { width: 390, height: 844, orientation: { type: "portrait-primary" } },
        devicePixelRatio: 3,
        navigation: {
          duration: 812.4,
          domainLookupStart: 10,
          domainLookupEnd: 15,
          connectStart: 15,
          connectEnd: 40,
          requestStart: 41,
          responseStart: 141,
          responseEnd: 150,
        },
      }),
    ).toEqual({
      initiate_method: "mailing",
      mailing_id: "42",
      operation: "promo_mailing_42_x",
      user_agent: "UA",
      pixel_ratio: 3,
      hardware_concurrency: 8,
      device_memory: 4,
      connection_type: "4g",
      screen_size: "390x844",
      orientation: "portrait-primary",
      duration: 812,
      dns: 5,
      connecting: 25,
      waiting: 100,
      loading: 9,
    })
    expect(launchProperties({}).initiate_method).toBe("direct")
    expect(launchProperties({ startParam: "assets" })).toMatchObject({ initiate_method: "link", mailing_id: null, operation: "assets" })
  })
})
