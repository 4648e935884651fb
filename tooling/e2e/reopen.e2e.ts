import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { BrowserContext, Frame, Page, Route } from "playwright-core"
import { launch, startStack, type Stack } from "@wallet/harness/stack"

/**
 * Issue 17 (decision 0008): a reopen, i.e. a NEW tab or webview on the same device (a new page in the
 * same browser context: localStorage shared, sessionStorage its own), resumes the stored session
 * without POST /api/auth/init and shows wallet main's balances from the persisted cache at once,
 * marked as refreshing, while every /api request is held back; released, the mark goes away. Another
 * Telegram user on the same device sees none of the first user's balances.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ devnet: true })
})
afterAll(async () => {
  await stack?.close()
})

const CACHE_PREFIX = "wallet:query-cache:"

/** Opens wallet main as "balances" and waits for the balance, the rows and the cache and session writes. */
const openWarm = async () => {
  const app = await launch(stack, { user: "balances" })
  await app.waitForPath("/main")
  await app.app().locator("[data-asset]").first().waitFor({ timeout: 30_000 })
  const total = await app.app().locator('[data-testid="total-balance"]').innerText()
  expect(total).toMatch(/\d/)
  await app
    .app()
    .waitForFunction(
      (prefix) =>
        Object.keys(localStorage).some((k) => k.startsWith(prefix) && localStorage.getItem(k)!.includes("availableBalanceTotalFiatAmount")) &&
        localStorage.getItem("wallet:session") !== null,
      CACHE_PREFIX,
      { timeout: 20_000 },
    )
  return { app, total }
}

/** Holds every /api request of `page` (the launch page's own /api/dev calls go through) until `release`. */
const holdApi = async (page: Page) => {
  const held: Array<Route> = []
  const matches = (url: URL) => url.pathname.startsWith("/api/") && !url.pathname.startsWith("/api/dev/")
  const handler = (route: Route) => void held.push(route)
  await page.route(matches, handler)
  return {
    release: async () => {
      await page.unroute(matches, handler)
      for (const route of held.splice(0)) await route.continue().catch(() => undefined)
    },
  }
}

/** Walks through wallet onboarding with Telegram's main and secondary buttons ("later" on the incentive) to wallet main. */
const finishOnboarding = async (page: Page, app: () => Frame) => {
  for (let step = 0; step < 10; step++) {
    if ((await app().evaluate(() => window.location.pathname)) === "/main") return
    const before = await app().locator("body").innerText()
    const pressed = await page.waitForFunction(
      () => {
        const t = window.fakeTelegram
        if (t?.secondaryButton?.is_visible && t.secondaryButton.is_active) return "secondary"
        if (t?.mainButton?.is_visible && t.mainButton.is_active && !t.mainButton.is_progress_visible) return "main"
        return false
      },
      undefined,
      { timeout: 20_000 },
    )
    await page.evaluate(`window.fakeTelegram.${(await pressed.jsonValue()) === "secondary" ? "pressSecondary" : "pressMain"}()`)
    await app().waitForFunction((text) => window.location.pathname === "/main" || document.body.innerText !== text, before, { timeout: 20_000 })
  }
  throw new Error("onboarding did not end on wallet main")
}

/**
 * A new launch of demo user `kind` in a NEW page of `context` (the launch page signs fresh initData),
 * with the app's /api requests held back and recorded from the start.
 */
const reopen = async (context: BrowserContext, kind: string) => {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  const user = users.find((u) => u.kind === kind)!
  const page = await context.newPage()
  const requests: Array<string> = []
  page.on("request", (request) => void requests.push(new URL(request.url()).pathname))
  const gate = await holdApi(page)
  const query = new URLSearchParams({ autostart: "1", user: String(user.id), platform: "ios", theme: "light", lang: "en" })
  await page.goto(`${stack.appUrl}/launch.html?${query}`)
  await page.waitForFunction(() => window.fakeTelegram?.ready === true, undefined, { timeout: 30_000 })
  const app = (): Frame => {
    const frame = page.frames().find((f) => f !== page.mainFrame())
    if (!frame) throw new Error("the mini-app frame is missing")
    return frame
  }
  return { page, app, requests, gate }
}

describe("issue 17: reopen from the persisted cache", () => {
  it("reopen_shows_cached_balances: a new tab shows the total and the rows from the cache, marked refreshing, with no sign-in request", async () => {
    const { app: first, total } = await openWarm()
    const context = first.page.context()
    await first.app().evaluate(() => sessionStorage.setItem("reopen:first-tab", "1"))
    // A new page in the same context shares localStorage, not sessionStorage: check it is a new tab indeed.
    const second = await reopen(context, "balances")
    expect(await second.app().evaluate(() => sessionStorage.getItem("reopen:first-tab"))).toBeNull()
    await second.app().waitForFunction(() => window.location.pathname === "/main", undefined, { timeout: 30_000 })
    // Every /api request is held: the total and the rows can only come from the persisted cache.
    await second.app().locator('[data-testid="total-balance"]', { hasText: total }).waitFor({ timeout: 30_000 })
    await second.app().locator("[data-asset]").first().waitFor({ timeout: 10_000 })
    const mark = second.app().getByTestId("balance-refreshing")
    await mark.waitFor({ timeout: 10_000 })
    expect(await mark.textContent()).toContain("Updating…")
    // The access token stored by the first tab was still valid: no init and no refresh went out.
    expect(second.requests).not.toContain("/api/auth/init")
    expect(second.requests).not.toContain("/api/auth/refresh")
    // A stored session: the HTML sent nothing for the app to take over.
    await second.gate.release()
    await second.app().waitForFunction(() => document.documentElement.dataset.bootAdopted === "0", undefined, { timeout: 30_000 })
    // The new tab's own copy of the session is written (a reload of it resumes too).
    await second.app().waitForFunction(() => sessionStorage.getItem("wallet:session") !== null, undefined, { timeout: 10_000 })
    await mark.waitFor({ state: "detached", timeout: 30_000 })
    await second.app().locator('[data-testid="total-balance"]', { hasText: /\d/ }).waitFor({ timeout: 10_000 })
    await second.page.close()
    await first.page.close()
  })

  it("reopen_other_user_sees_no_cached_balance: another demo user on the same device signs in and sees none of the first one's balances", async () => {
    const { app: first, total } = await openWarm()
    const cacheKeys = (frame: Frame) => frame.evaluate((prefix) => Object.keys(localStorage).filter((k) => k.startsWith(prefix)), CACHE_PREFIX)
    const firstKeys = await cacheKeys(first.app())
    expect(firstKeys.length).toBe(1)
    const context = first.page.context()
    const other = await reopen(context, "new")
    // Another Telegram user: the stored session is not used, init goes out (held like the rest).
    await expect.poll(() => other.requests.includes("/api/auth/init"), { timeout: 30_000 }).toBe(true)
    // The held init answers: the first user's balances are gone from the device and never show.
    await other.gate.release()
    await other.app().waitForFunction(() => window.location.pathname === "/wallet-onboarding", undefined, { timeout: 30_000 })
    // Wallet main's accounts are held from now on: a total on screen could only come from a cache.
    const held: Array<Route> = []
    await other.page.route("**/api/custody/**", (route) => void held.push(route))
    await finishOnboarding(other.page, other.app)
    await expect.poll(() => held.some((route) => route.request().url().includes("/api/custody/accounts")), { timeout: 20_000 }).toBe(true)
    await other.app().locator('[data-testid="total-balance"]').waitFor({ state: "attached", timeout: 20_000 })
    expect(await other.app().locator('[data-testid="total-balance"]').innerText()).not.toContain(total)
    expect(await other.app().locator('[data-testid="total-balance"]').innerText()).not.toMatch(/\d/)
    expect(await other.app().locator("[data-asset]").count()).toBe(0)
    // The first user's persisted cache is gone from the device; the session copy there is the new user's.
    expect((await cacheKeys(other.app())).filter((key) => firstKeys.includes(key))).toEqual([])
    const session = JSON.parse((await other.app().evaluate(() => localStorage.getItem("wallet:session"))) ?? "null") as { telegramUserId: number } | null
    const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
    expect(session?.telegramUserId).toBe(users.find((u) => u.kind === "new")!.id)
    await other.page.unroute("**/api/custody/**")
    for (const route of held.splice(0)) await route.continue().catch(() => undefined)
    await other.page.close()
    await first.page.close()
  })
})

describe("issue 17: a cold start signs in from the HTML (decision 0010)", () => {
  it("cold_start_adopts_boot_requests: the HTML's sign-in and wallet main's first requests are the ones the app uses, each sent once", async () => {
    const requests: Array<string> = []
    const app = await launch(stack, {
      user: "balances",
      before: async (page) => void page.on("request", (request) => void requests.push(`${request.method()} ${new URL(request.url()).pathname}`)),
    })
    await app.waitForPath("/main")
    await app.app().locator("[data-asset]").first().waitFor({ timeout: 30_000 })
    expect(await app.app().locator('[data-testid="total-balance"]').innerText()).toMatch(/\d/)
    // The boot script sends each of these on every cold start; had the app not adopted them, it
    // would have sent its own and each would show twice.
    const count = (request: string) => requests.filter((r) => r === request).length
    expect(count("POST /api/auth/init")).toBe(1)
    expect(count("GET /api/custody/accounts")).toBe(1)
    expect(count("GET /api/custody/frozen-balances")).toBe(1)
    expect(count("GET /api/view-settings")).toBe(1)
    // ...and they came from the HTML: the app took over all four (sign-in, accounts, frozen, view settings).
    await app.app().waitForFunction(() => document.documentElement.dataset.bootAdopted !== undefined, undefined, { timeout: 10_000 })
    expect(await app.app().evaluate(() => document.documentElement.dataset.bootAdopted)).toBe("4")
    // The session the HTML's sign-in opened is the app's: stored for the next start.
    await app.app().waitForFunction(() => localStorage.getItem("wallet:session") !== null, undefined, { timeout: 10_000 })
    await app.page.close()
  })
})
