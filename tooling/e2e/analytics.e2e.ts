import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * Analytics end to end (issue 16, decision 0350): the events of a journey reach the gateway once
 * each and in order (read back through the dev JSON endpoint), a new analytics session after 30
 * idle minutes (Playwright's fake clock), events held while offline and flushed on return, and a
 * hidden page flushing by beacon.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.close()
})

interface StoredEvent {
  readonly id: number
  readonly idempotencyKey: string
  readonly name: string
  readonly stream: string
  readonly traceId: string
  readonly userId: string | null
  readonly eventProperties: Record<string, unknown>
}

const userIdOf = async (kind: string) => {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  return String(users.find((u) => u.kind === kind)!.id)
}

/** The user's stored events, oldest first. */
const eventsOf = async (userId: string): Promise<ReadonlyArray<StoredEvent>> => {
  const reply = (await (await fetch(`${stack.server.url}/api/dev/analytics?limit=500&userId=${userId}`)).json()) as { events: Array<StoredEvent> }
  return reply.events.toReversed()
}

/** Waits until `predicate` holds for the user's stored events (polling the dev endpoint). */
const waitForEvents = async (userId: string, predicate: (events: ReadonlyArray<StoredEvent>) => boolean, what: string) => {
  for (let i = 0; i < 100; i++) {
    const events = await eventsOf(userId)
    if (predicate(events)) return events
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify((await eventsOf(userId)).map((e) => [e.name, e.eventProperties.route]))}`)
}

const views = (events: ReadonlyArray<StoredEvent>) => events.filter((e) => e.name === "screen_view").map((e) => e.eventProperties.route)
const back = (app: LaunchedApp) => app.app().evaluate(() => window.history.back())
/** Waits until the router has resolved and shown `pathname` (a navigation superseded before that was never shown). */
const shown = (app: LaunchedApp, pathname: string) =>
  app.app().waitForFunction((p) => document.documentElement.dataset.shownPath === p, pathname, { timeout: 20_000 })
/** Client-side navigation that waits for the screen to be shown. */
const visit = async (app: LaunchedApp, pathname: string) => {
  await app.goto(pathname)
  await shown(app, pathname.split("?")[0]!)
}

describe("analytics", () => {
  it("a journey's events arrive once each, in order: launch, main, an asset, the send flow, back", async () => {
    const userId = await userIdOf("balances")
    const before = (await eventsOf(userId)).length
    const app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    await app.app().locator('[data-asset="TON"]').first().waitFor({ timeout: 20_000 })
    await app.app().locator('[data-asset="TON"]').first().click()
    await shown(app, "/assets/TON")
    await visit(app, "/assets/send?assetCurrency=TON")
    await back(app)
    await shown(app, "/assets/TON")

    const events = (await waitForEvents(userId, (all) => views(all.slice(before)).length >= 4, "four screen views")).slice(before)
    expect(events[0]!.name).toBe("launch")
    expect(events[0]!.eventProperties).toMatchObject({ platform: "ios", initiate_method: "direct", screen_size: expect.stringMatching(/^\d+x\d+$/) })
    expect(typeof events[0]!.eventProperties.duration).toBe("number")
    expect(views(events)).toEqual(["home/main", "custody/asset", "custody/send", "custody/asset"])
    expect(new Set(events.map((e) => e.idempotencyKey)).size).toBe(events.length)
    expect(events.every((e) => e.stream === "custodial" && e.userId === userId)).toBe(true)
    expect(new Set(events.map((e) => e.traceId)).size).toBe(1)
    await app.page.close()
  })

  it("a new analytics session after 30 idle minutes (fake clock)", async () => {
    const app = await launch(stack, { user: "balances", before: (page) => page.clock.install() })
    const balances = await userIdOf("balances")
    await app.waitForPath("/main")
    const first = await waitForEvents(balances, (all) => all.some((e) => e.eventProperties.route === "home/main"), "main's view")
    const mainView = first.filter((e) => e.eventProperties.route === "home/main").at(-1)!
    await app.page.clock.fastForward("30:01")
    await app.goto("/settings")
    const later = await waitForEvents(
      balances,
      (all) => all.some((e) => e.id > mainView.id && e.name === "screen_view" && e.eventProperties.route === "settings/index"),
      "the settings view",
    )
    const settingsView = later.find((e) => e.id > mainView.id && e.eventProperties.route === "settings/index")!
    expect(settingsView.traceId).not.toBe(mainView.traceId)
    await app.page.close()
  })

  it("holds events while offline and sends them when back online", async () => {
    const userId = await userIdOf("balances")
    const start = (await eventsOf(userId)).at(-1)?.id ?? 0
    const app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    // The screens' chunks load first (a lazy screen cannot load offline); then back to main.
    await visit(app, "/settings")
    await visit(app, "/settings/language")
    await visit(app, "/main")
    const loaded = await waitForEvents(
      userId,
      (all) => all.at(-1)?.eventProperties.route === "home/main" && views(all.filter((e) => e.id > start)).includes("settings/language"),
      "the warm-up views",
    )
    const last = loaded.at(-1)!.id
    await app.page.context().setOffline(true)
    await visit(app, "/settings")
    await visit(app, "/settings/language")
    // Give the sender time to try (it must not: it is paused).
    await app.page.waitForTimeout(1500)
    expect(views((await eventsOf(userId)).filter((e) => e.id > last))).toEqual([])
    await app.page.context().setOffline(false)
    const after = await waitForEvents(userId, (all) => views(all.filter((e) => e.id > last)).length >= 2, "the offline views")
    expect(views(after.filter((e) => e.id > last))).toEqual(["settings/index", "settings/language"])
    await app.page.close()
  })

  it("a hidden page sends its queue by beacon", async () => {
    const userId = await userIdOf("balances")
    const app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    const loaded = await waitForEvents(userId, (all) => all.at(-1)?.eventProperties.route === "home/main", "main's view")
    const last = loaded.at(-1)!.id
    // Ordinary posts fail from now on (the events stay queued); a beacon is not a fetch and passes.
    const refused: Array<string> = []
    await app.page.route("**/api/analytics/events", (route) => {
      if (route.request().resourceType() === "fetch") {
        refused.push(route.request().resourceType())
        return route.abort()
      }
      return route.continue()
    })
    await visit(app, "/settings")
    await app.page.waitForTimeout(800)
    expect(refused.length).toBeGreaterThan(0)
    expect(views((await eventsOf(userId)).filter((e) => e.id > last))).toEqual([])
    await app.app().evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true })
      document.dispatchEvent(new Event("visibilitychange"))
    })
    const after = await waitForEvents(userId, (all) => views(all.filter((e) => e.id > last)).length >= 1, "the beacon")
    expect(views(after.filter((e) => e.id > last))).toEqual(["settings/index"])
    await app.page.close()
  })
})
