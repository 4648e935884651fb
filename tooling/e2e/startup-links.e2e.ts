import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * Decision 0380: a sample of spec 1 §2 start params from a cold start (the fake Telegram launch
 * page passes the start param; the full list is the table test in host/regions), the route history
 * restored on a restart, the auth check on re-activation, and wallet main's high-demand and
 * technical-issue variants.
 */
let stack: Stack
beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true })
  stack = await startStack()
})
afterAll(async () => {
  await stack?.close()
})

const ADDRESS = "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG"

/** Waits until the app shows `pathname` (the screen rendered, not only the URL changed). */
const shown = (app: LaunchedApp, pathname: string) =>
  app.app().waitForFunction((p) => document.documentElement.dataset.shownPath === p, pathname, { timeout: 20_000 })

/** The mini-app restarted at its launch URL in the same Telegram session (the client reopened it). */
const restart = async (app: LaunchedApp) => {
  await app.app().evaluate(() => {
    ;(window as unknown as { beforeRestart?: boolean }).beforeRestart = true
    window.location.assign("/")
  })
  await app
    .app()
    .waitForFunction(() => (window as unknown as { beforeRestart?: boolean }).beforeRestart === undefined && document.readyState !== "loading", undefined, {
      timeout: 20_000,
    })
}

describe("start-param links from a cold start", () => {
  it("turn_on_passcode opens the passcode settings", async () => {
    const app = await launch(stack, { user: "balances", startParam: "turn_on_passcode" })
    await app.waitForPath("/passcode/settings")
    await app.page.close()
  })

  it("a public-asset link takes priority over onboarding for a new user", async () => {
    const app = await launch(stack, { user: "new", startParam: "public_asset_BTC" })
    await app.waitForPath("/assets-public/BTC")
    await app.page.close()
  })

  it("an asset link opens the asset page", async () => {
    const app = await launch(stack, { user: "balances", startParam: "assets_USDT" })
    await app.waitForPath("/assets/USDT")
    await app.page.close()
  })

  it("TON space links open their screens", async () => {
    const app = await launch(stack, { user: "balances", startParam: "tonwallet_onboarding" })
    await app.waitForPath("/scw/onboarding")
    await app.page.close()
    const collectible = await launch(stack, { user: "balances", startParam: `collectible_${ADDRESS}` })
    await collectible.app().waitForFunction((p) => window.location.pathname.startsWith(p), "/scw", { timeout: 20_000 })
    await collectible.page.close()
  })

  it("an unknown param opens main and logs a not_found event", async () => {
    const app = await launch(stack, { user: "balances", startParam: "no_such_link" })
    await app.waitForPath("/main")
    const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
    const userId = users.find((u) => u.kind === "balances")!.id
    let logged = false
    for (let i = 0; i < 100 && !logged; i++) {
      const reply = (await (await fetch(`${stack.server.url}/api/dev/analytics?limit=200&userId=${userId}`)).json()) as {
        events: Array<{ name: string; eventProperties: Record<string, unknown> }>
      }
      logged = reply.events.some((e) => e.name === "not_found" && e.eventProperties.start_param === "no_such_link")
      if (!logged) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(logged).toBe(true)
    await app.page.close()
  })
})

describe("startup rules", () => {
  it("route_history_restored_on_start: a restart at the launch URL reopens the last route, not the start param", async () => {
    const app = await launch(stack, { user: "balances", startParam: "turn_on_passcode" })
    await shown(app, "/passcode/settings")
    // Telegram's settings button: an in-app navigation (the router's push).
    await app.telegram("t.pressSettings()")
    await shown(app, "/settings")
    await restart(app)
    await shown(app, "/settings")
    // The earlier entry is behind the back button.
    await app.telegram("t.pressBack()")
    await shown(app, "/passcode/settings")
    await app.page.close()
  })

  it("session_revoked_on_reactivation: the activation event re-checks the session and shows the expired dialog", async () => {
    const app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    // Revoke the app's session on the server: rotate its refresh token once, log out with the new token.
    const saved = JSON.parse((await app.app().evaluate(() => sessionStorage.getItem("wallet:session"))) ?? "null") as {
      sessionId: string
      refreshToken: string
    }
    expect(saved).not.toBeNull()
    const refreshed = await fetch(`${stack.server.url}/api/auth/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_id: saved.sessionId, refresh_token: saved.refreshToken }),
    })
    expect(refreshed.status).toBe(200)
    const { access_token } = (await refreshed.json()) as { access_token: string }
    const logout = await fetch(`${stack.server.url}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${access_token}` } })
    expect(logout.status).toBe(204)
    expect(await app.telegram("t.popup")).toBeNull()
    await app.telegram("t.emit('activated')")
    await app.page.waitForFunction(() => window.fakeTelegram?.popup?.title === "Session expired", undefined, { timeout: 20_000 })
    await app.page.close()
  })
})

/** The custody accounts (the wallet guard's call) answer 503 from now on. */
const failAccounts = (page: LaunchedApp["page"]) =>
  page.route(
    (url) => url.pathname.endsWith("/api/custody/accounts"),
    (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ _tag: "Unavailable", code: "unavailable", message: "busy" }) }),
  )

describe("wallet main when the wallet guard fails (spec 1 §2 error screen)", () => {
  it("wallet_guard_failure_shows_high_demand: a 503 for the accounts with nothing cached", async () => {
    const app = await launch(stack, { user: "balances", before: async (page) => void (await failAccounts(page)) })
    await app.waitForPath("/main")
    const notice = app.app().getByTestId("high-demand")
    await notice.waitFor({ timeout: 30_000 })
    expect(await notice.textContent()).toContain("High demand right now")
    await app.page.screenshot({ path: join(screenshotDir, "startup-high-demand.png") })
    await app.page.close()
  })

  it("technical_issue_shows_last_balance: a 503 with a cached balance shows it as of the last login", async () => {
    const app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    await app.app().locator("[data-asset]").first().waitFor({ timeout: 20_000 })
    const total = app.app().getByTestId("total-balance")
    const before = await total.innerText()
    expect(before).toMatch(/\d/)
    // The persister writes the cache after a short throttle; then the server starts failing.
    await app
      .app()
      .waitForFunction(() =>
        Object.keys(localStorage).some((k) => k.startsWith("wallet:query-cache:") && localStorage.getItem(k)!.includes("availableBalanceTotalFiatAmount")),
      )
    await failAccounts(app.page)
    await app.app().evaluate(() => window.location.reload())
    const notice = app.app().getByTestId("technical-issue")
    await notice.waitFor({ timeout: 30_000 })
    expect(await app.app().getByTestId("balance-as-of").innerText()).toBe("as of your last login")
    expect(await total.innerText()).toBe(before)
    expect(await notice.innerText()).toContain("Some technical issue")
    await app.page.screenshot({ path: join(screenshotDir, "startup-technical-issue.png") })
    await app.page.close()
  })
})
