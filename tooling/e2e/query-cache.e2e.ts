import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Route } from "playwright-core"
import { launch, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * The persisted query cache (issue 13, decision 0320): a warm reload shows wallet main's balances
 * from the cache while the custody answers are held back; a 13-hour-old cache and a cache of another
 * buster are dropped (the balance waits for the network).
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ devnet: true })
})
afterAll(async () => {
  await stack?.close()
})

const CACHE_PREFIX = "wallet:query-cache:"

/** Holds every /api/custody/ answer until `release`; `arrived` resolves with the first held request. */
const holdCustody = async (app: LaunchedApp) => {
  const held: Array<Route> = []
  let arrive: () => void = () => undefined
  const arrived = new Promise<void>((resolve) => (arrive = resolve))
  await app.page.route("**/api/custody/**", (route) => {
    held.push(route)
    arrive()
  })
  return {
    arrived,
    release: async () => {
      await app.page.unroute("**/api/custody/**")
      for (const route of held.splice(0)) await route.continue().catch(() => undefined)
    },
  }
}

const reload = async (app: LaunchedApp) => {
  await app.app().evaluate(() => {
    ;(window as unknown as { beforeReload?: boolean }).beforeReload = true
    window.location.reload()
  })
  await app
    .app()
    .waitForFunction(() => (window as unknown as { beforeReload?: boolean }).beforeReload === undefined && document.readyState !== "loading", undefined, {
      timeout: 20_000,
    })
}

const totalText = (app: LaunchedApp) => app.app().locator('[data-testid="total-balance"]').innerText()

/** Opens main for the user with balances and waits until the cache holds the balances. */
const openWarm = async () => {
  const app = await launch(stack, { user: "balances" })
  await app.waitForPath("/main")
  await app.app().locator("[data-asset]").first().waitFor({ timeout: 20_000 })
  const total = await totalText(app)
  expect(total).toMatch(/\d/)
  await app
    .app()
    .waitForFunction(
      (prefix) => Object.keys(localStorage).some((k) => k.startsWith(prefix) && localStorage.getItem(k)!.includes("availableBalanceTotalFiatAmount")),
      CACHE_PREFIX,
    )
  return { app, total }
}

/**
 * Rewrites the stored cache entry and the HTML's total snapshot (time or buster) as an older visit, or an
 * older version, would have left them: when the page is left, after the app's own last write of the cache.
 */
const editStored = (app: LaunchedApp, edit: { readonly ageMs?: number; readonly buster?: string }) =>
  app.app().evaluate(
    ({ prefix, paintPrefix, ageMs, buster }) => {
      const age = () => {
        const key = Object.keys(localStorage).find((k) => k.startsWith(prefix))!
        const stored = JSON.parse(localStorage.getItem(key)!) as { timestamp: number; buster: string }
        if (ageMs !== undefined) stored.timestamp = Date.now() - ageMs
        if (buster !== undefined) stored.buster = buster
        localStorage.setItem(key, JSON.stringify(stored))
        const paintKey = Object.keys(localStorage).find((k) => k.startsWith(paintPrefix))
        if (!paintKey) return
        const paint = JSON.parse(localStorage.getItem(paintKey)!) as { t: number; b: string }
        if (ageMs !== undefined) paint.t = Date.now() - ageMs
        if (buster !== undefined) paint.b = buster
        localStorage.setItem(paintKey, JSON.stringify(paint))
      }
      // After the app's own writes on leaving: its listeners came first (the page hides after pagehide).
      window.addEventListener("pagehide", age)
      document.addEventListener("visibilitychange", age)
    },
    { prefix: CACHE_PREFIX, paintPrefix: "wallet:boot-paint:", ageMs: edit.ageMs, buster: edit.buster },
  )

describe("persisted query cache", () => {
  it("a warm reload shows the balances from the persisted cache while the network is held back", async () => {
    const { app, total } = await openWarm()
    const gate = await holdCustody(app)
    await reload(app)
    await gate.arrived
    // The custody answers are still held: the total on screen can only come from the cache.
    await app.app().locator('[data-testid="total-balance"]', { hasText: total }).waitFor({ timeout: 20_000 })
    await app.app().locator("[data-asset]").first().waitFor({ timeout: 20_000 })
    await gate.release()
    await app.page.close()
  })

  for (const [name, edit] of [
    ["a 13-hour-old cache is dropped", { ageMs: 13 * 3_600_000 }],
    ["a cache with another buster is dropped", { buster: "5.0.9" }],
  ] as const) {
    it(name, async () => {
      const { app } = await openWarm()
      await editStored(app, edit)
      const gate = await holdCustody(app)
      await reload(app)
      await gate.arrived
      // The accounts request is out and held: the balance is a skeleton, the old cache is gone.
      expect(await totalText(app)).not.toMatch(/\d/)
      expect(await app.app().locator("[data-asset]").count()).toBe(0)
      await gate.release()
      // Rates move between answers: any total from the network will do.
      await app.app().locator('[data-testid="total-balance"]', { hasText: /\d/ }).waitFor({ timeout: 20_000 })
      await app.page.close()
    })
  }
})
