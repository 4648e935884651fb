import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * View settings drive the screens (issue 16, decision 0360 "View settings acted on"): a demo user
 * sees the terms banner on wallet main, closes it, and it stays closed after a reload and on a fresh
 * device (the server saved it); the low-balance assets' expansion (`expand_cryptocurrency`) survives
 * a fresh start the same way. Screenshots of main with the banners, light and dark.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ devnet: true })
  mkdirSync(screenshotDir, { recursive: true })
})
afterAll(async () => {
  await stack?.close()
})

const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `view-settings-${name}.png`), fullPage: true })

const openMain = async () => {
  const app = await launch(stack, { user: "balances" })
  await app.waitForPath("/main")
  await app.app().locator("[data-asset]").first().waitFor({ timeout: 20_000 })
  return app
}

const setTheme = async (app: LaunchedApp, theme: "light" | "dark") => {
  await app.telegram(`t.setTheme('${theme}')`)
  await app.app().waitForFunction((scheme) => document.documentElement.dataset.colorScheme === scheme, theme)
  await app.page.waitForTimeout(400)
}

/** The answer of the next view-settings save (POST /api/view-settings): the settings the server now holds. */
const savedOnServer = async (app: LaunchedApp): Promise<{ userFlags: Record<string, boolean>; banners: Record<string, boolean> }> => {
  const response = await app.page.waitForResponse((r) => r.url().endsWith("/api/view-settings") && r.request().method() === "POST", { timeout: 20_000 })
  expect(response.status()).toBe(200)
  return ((await response.json()) as { data: { userFlags: Record<string, boolean>; banners: Record<string, boolean> } }).data
}

/** Waits until the view settings read at start hold `fragment` (the persisted query cache keeps the answer). */
const viewSettingsHold = (app: LaunchedApp, fragment: string) =>
  app
    .app()
    .waitForFunction(
      (text) => Object.keys(localStorage).some((k) => k.startsWith("wallet:query-cache:") && localStorage.getItem(k)!.includes(text)),
      fragment,
      { timeout: 20_000 },
    )

const reload = async (app: LaunchedApp) => {
  await app.app().evaluate(() => {
    ;(window as unknown as { beforeReload?: boolean }).beforeReload = true
    window.location.reload()
  })
  await app
    .app()
    .waitForFunction(() => (window as unknown as { beforeReload?: boolean }).beforeReload === undefined && document.readyState === "complete", undefined, {
      timeout: 20_000,
    })
  await app.app().locator("[data-asset]").first().waitFor({ timeout: 20_000 })
}

describe("view settings drive wallet main", () => {
  it("the terms banner shows until closed, and stays closed after a reload and on a fresh device", async () => {
    const app = await openMain()
    const banner = app.app().getByTestId("terms-banner")
    await banner.waitFor({ timeout: 20_000 })
    expect(await banner.innerText()).toContain("Terms of service updated")
    // The sections sit under the asset list: scrolled into view for the screenshots.
    await banner.scrollIntoViewIfNeeded()
    await shot(app, "main-banners-light")
    await setTheme(app, "dark")
    await banner.scrollIntoViewIfNeeded()
    await shot(app, "main-banners-dark")
    await setTheme(app, "light")

    // Closed from the keyboard: the close button is a labelled button.
    const saving = savedOnServer(app)
    await banner.getByRole("button", { name: "Close" }).focus()
    await app.page.keyboard.press("Enter")
    await banner.waitFor({ state: "detached" })
    expect((await saving).banners.display_terms_banner).toBe(false)

    await reload(app)
    // Main's sections have rendered (the passcode section or the list), the terms banner is not among them.
    expect(await app.app().getByTestId("terms-banner").count()).toBe(0)
    await app.page.close()

    // A fresh device (no local storage, no persisted cache): only the server can know it was closed.
    const fresh = await openMain()
    // The settings were read (they say closed) and main shows no terms banner.
    await viewSettingsHold(fresh, '"display_terms_banner":false')
    expect(await fresh.app().getByTestId("terms-banner").count()).toBe(0)
    const saved = await fresh
      .app()
      .evaluate(() => localStorage.getItem(Object.keys(localStorage).find((k) => k.startsWith("wallet:view-settings-local:")) ?? ""))
    expect(saved).toBeNull()
    await fresh.page.close()
  })

  it("the asset list expansion (expand_cryptocurrency) survives a reload and a fresh start", async () => {
    const app = await openMain()
    const saving = savedOnServer(app)
    await app.app().getByRole("button", { name: "More crypto" }).click()
    await app.app().getByRole("button", { name: "Hide low balance" }).waitFor()
    const expanded = await app.app().locator("[data-asset]").count()
    expect((await saving).userFlags.expand_cryptocurrency).toBe(true)
    await reload(app)
    await app.app().getByRole("button", { name: "Hide low balance" }).waitFor({ timeout: 20_000 })
    await app.page.close()

    const fresh = await openMain()
    await fresh.app().getByRole("button", { name: "Hide low balance" }).waitFor({ timeout: 20_000 })
    expect(await fresh.app().locator("[data-asset]").count()).toBe(expanded)
    // Collapsing saves false the same way.
    const collapsing = savedOnServer(fresh)
    await fresh.app().getByRole("button", { name: "Hide low balance" }).click()
    await fresh.app().getByRole("button", { name: "More crypto" }).waitFor()
    expect((await collapsing).userFlags.expand_cryptocurrency).toBe(false)
    await fresh.page.close()
    const again = await openMain()
    await again.app().getByRole("button", { name: "More crypto" }).waitFor({ timeout: 20_000 })
    await again.page.close()
  })
})
