/**
 * One open of wallet main in Chromium, as the first-load bench and the size suite's browser
 * cross-check measure it: the dev launch page signs a demo user's initData and hosts the built app
 * in its iframe (same origin, so the frame runs in the page's renderer and the page's CDP session
 * throttles its requests and its CPU; an out-of-process frame would be reported). Everything is read
 * in the app's frame: paint timing, the moment `[data-testid="total-balance"]` shows a digit and
 * `[data-asset]` rows are present (a MutationObserver installed before the app's scripts run), and
 * the Resource Timing entries completed by then (`encodedBodySize`: body bytes as received, gzip;
 * `transferSize`: with headers, 0 from the HTTP cache). Times are from the frame's navigation start.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"

/** Throttling of a cheap phone on a slow network (issue 17). */
export interface Throttle {
  readonly latencyMs: number
  /** Bytes per second, both ways. */
  readonly bytesPerSecond: number
  readonly cpuRate: number
}
/** 150 ms latency, 1.6 Mbit/s (200,000 bytes/s) down and up, 4x CPU. */
export const CHEAP_PHONE: Throttle = { latencyMs: 150, bytesPerSecond: 1_600_000 / 8, cpuRate: 4 }

/** A resource the app's frame fetched (the document too, `type: "navigation"`). */
export interface FetchedEntry {
  readonly url: string
  readonly type: string
  readonly start: number
  readonly end: number
  readonly transfer: number
  readonly encoded: number
}

export interface LoadFigures {
  readonly firstPaint: number | undefined
  readonly firstContentfulPaint: number | undefined
  /** A digit in the total balance. */
  readonly balance: number
  /** The first `[data-asset]` row. */
  readonly rows: number
  /** What the frame's text said at that moment (a sanity check). */
  readonly balanceText: string
  /** Completed before the balance showed. */
  readonly fetched: ReadonlyArray<FetchedEntry>
}

declare global {
  interface Window {
    __firstLoad?: {
      balance?: number
      rows?: number
      balanceText?: string
      fetched?: Array<FetchedEntry>
    }
  }
}

/**
 * Runs in every frame before its scripts; only the app's frame (not the launch page) records. Kept
 * as plain JavaScript text: a compiled function could carry helpers the page does not have.
 */
const DONE_MESSAGE = "first-load: balance and rows recorded"
const OBSERVE_FIRST_BALANCE = `(() => {
  if (location.pathname.startsWith("/launch")) return
  const marks = {}
  window.__firstLoad = marks
  performance.setResourceTimingBufferSize(2000)
  const snapshot = () =>
    [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((t) => ({
      url: t.name, type: t.initiatorType, start: t.startTime, end: t.responseEnd, transfer: t.transferSize, encoded: t.encodedBodySize,
    }))
  const observer = new MutationObserver(() => {
    const now = performance.now()
    if (marks.balance === undefined) {
      const text = document.querySelector('[data-testid="total-balance"]')?.textContent ?? ""
      if (/\\d/.test(text)) {
        marks.balance = now
        marks.balanceText = text
        marks.fetched = snapshot()
      }
    }
    if (marks.rows === undefined && document.querySelector("[data-asset]")) marks.rows = now
    if (marks.balance !== undefined && marks.rows !== undefined) {
      observer.disconnect()
      // Tells the bench without its polling the page: every evaluate ran on this (throttled) main thread.
      console.debug("${DONE_MESSAGE}")
    }
  })
  observer.observe(document, { subtree: true, childList: true, characterData: true })
})()`

export interface LaunchTarget {
  readonly appUrl: string
  readonly apiUrl: string
}

/** The demo user's id (dev mode's `/api/dev/demo-users`). */
export const demoUserId = async (apiUrl: string, kind: string): Promise<number> => {
  const users = (await (await fetch(`${apiUrl}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  const user = users.find((u) => u.kind === kind)
  if (!user) throw new Error(`no demo user of kind ${kind} (is the server in dev mode?)`)
  return user.id
}

/** A browser context for one device: the observer in every frame, fresh cache and storage. */
export const newDevice = async (browser: Browser): Promise<BrowserContext> => {
  // The first-load bench's HTTP/2 server has a throwaway certificate, trusted by the browser's launch flag
  // (`ServedApp.spki`): ignoring certificate errors instead would keep its answers out of the HTTP cache.
  const context = await browser.newContext({ viewport: { width: 420, height: 860 }, reducedMotion: "reduce" })
  await context.addInitScript({ content: OBSERVE_FIRST_BALANCE })
  return context
}

const throttle = async (context: BrowserContext, page: Page, profile: Throttle | undefined, cpuProfile: boolean) => {
  if (!profile && !cpuProfile) return undefined
  const cdp = await context.newCDPSession(page)
  if (cpuProfile) {
    await cdp.send("Profiler.enable")
    await cdp.send("Profiler.setSamplingInterval", { interval: 250 })
    await cdp.send("Profiler.start")
  }
  if (!profile) return cdp
  await cdp.send("Network.enable")
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.bytesPerSecond,
    uploadThroughput: profile.bytesPerSecond,
  })
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpuRate })
  return cdp
}

/**
 * Whether the app's frame has a CDP session of its own (out of process): then the page's throttling
 * would not cover it. Playwright refuses a session for an in-process frame.
 */
const isOutOfProcess = async (context: BrowserContext, page: Page): Promise<boolean> => {
  const frame = page.frames().find((f) => f !== page.mainFrame())
  if (!frame) return false
  try {
    const session = await context.newCDPSession(frame)
    await session.detach()
    return true
  } catch {
    return false
  }
}

export interface OpenOptions {
  readonly userId: number
  readonly throttle?: Throttle
  readonly language?: string
  readonly timeoutMs?: number
  /** Record a CPU profile (CDP Profiler) of the page from before the launch to the first balance. */
  readonly cpuProfile?: boolean
}

/**
 * Opens the launch page in a new tab of `context` (a fresh signed launch) and waits for the total
 * and the rows. The tab stays open for the caller to close.
 */
/** A CDP CPU profile (the `.cpuprofile` format DevTools opens). */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  }>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** Self time of a profile by script (file name) and by function, heaviest first (microseconds). */
export const selfTimes = (profile: CpuProfile): { byScript: Array<[string, number]>; byFunction: Array<[string, number]> } => {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
  const scripts = new Map<string, number>()
  const functions = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)
    const dt = profile.timeDeltas[i] ?? 0
    const file = frame?.url ? frame.url.split("/").pop()!.split("?")[0]! : `(${frame?.functionName || "native"})`
    scripts.set(file, (scripts.get(file) ?? 0) + dt)
    const fn = `${frame?.functionName || "(anonymous)"} ${file}:${(frame?.lineNumber ?? 0) + 1}`
    functions.set(fn, (functions.get(fn) ?? 0) + dt)
  })
  const heaviest = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1])
  return { byScript: heaviest(scripts), byFunction: heaviest(functions) }
}

export async function openWalletMain(
  context: BrowserContext,
  target: LaunchTarget,
  options: OpenOptions,
): Promise<{ page: Page; figures: LoadFigures; cpuProfile?: CpuProfile }> {
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  let done = () => {}
  const recorded = new Promise<void>((resolve) => (done = resolve))
  page.on("console", (message) => {
    if (message.text() === DONE_MESSAGE) done()
  })
  const cdp = await throttle(context, page, options.throttle, options.cpuProfile === true)
  const query = new URLSearchParams({ autostart: "1", user: String(options.userId), platform: "ios", theme: "light", lang: options.language ?? "en" })
  await page.goto(`${target.appUrl}/launch.html?${query}`)
  const timeout = options.timeoutMs ?? 60_000
  const deadline = Date.now() + timeout
  let checkedProcess = false
  for (;;) {
    const frame = page.frames().find((f) => f !== page.mainFrame())
    if (frame && !checkedProcess && options.throttle) {
      checkedProcess = true
      if (await isOutOfProcess(context, page)) throw new Error("the app's frame runs out of process: the page's throttling does not cover it")
    }
    const marks = frame ? await frame.evaluate(() => window.__firstLoad).catch(() => undefined) : undefined
    if (marks?.balance !== undefined && marks.rows !== undefined && frame) {
      const paints = await frame.evaluate(() => performance.getEntriesByType("paint").map((p) => ({ name: p.name, at: p.startTime })))
      const cpuProfile = options.cpuProfile && cdp ? ((await cdp.send("Profiler.stop")).profile as CpuProfile) : undefined
      return {
        page,
        ...(cpuProfile ? { cpuProfile } : {}),
        figures: {
          firstPaint: paints.find((p) => p.name === "first-paint")?.at,
          firstContentfulPaint: paints.find((p) => p.name === "first-contentful-paint")?.at,
          balance: marks.balance,
          rows: marks.rows,
          balanceText: marks.balanceText ?? "",
          fetched: marks.fetched ?? [],
        },
      }
    }
    if (Date.now() > deadline) {
      const text = frame ? await frame.evaluate(() => document.body?.innerText.slice(0, 300) ?? "").catch(() => "") : "(no app frame)"
      await page.close()
      throw new Error(`wallet main showed no balance and rows within ${timeout} ms; the frame said: ${text}; page errors: ${errors.join(" | ")}`)
    }
    // Woken by the page's message; the slow poll only notices a frame that never gets there.
    await Promise.race([recorded, new Promise((r) => setTimeout(r, 1000))])
  }
}

/** The static files (`/assets/...` and the document) of a load, by path, with their body bytes. */
export const staticFetches = (figures: LoadFigures, appUrl: string): ReadonlyArray<{ path: string; bytes: number; transfer: number; type: string }> =>
  figures.fetched
    .filter((e) => e.url.startsWith(appUrl) && !new URL(e.url).pathname.startsWith("/api/"))
    .map((e) => {
      const path = new URL(e.url).pathname
      return { path: e.type === "navigation" ? "/index.html" : path, bytes: e.encoded, transfer: e.transfer, type: e.type }
    })

/** The API answers of a load. */
export const apiFetches = (figures: LoadFigures, appUrl: string) =>
  figures.fetched
    .filter((e) => e.url.startsWith(`${appUrl}/api/`))
    .map((e) => ({ path: new URL(e.url).pathname, bytes: e.encoded, transfer: e.transfer, start: e.start, end: e.end }))

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
