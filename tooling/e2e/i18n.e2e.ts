import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * i18n on i18next (issue 13, decision 0310): Russian plural forms on a screen that counts days, the
 * one-off language suggestion for a Hindi Telegram user, and English when a language pack fails.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack()
  mkdirSync(screenshotDir, { recursive: true })
})
afterAll(async () => {
  await stack?.close()
})

const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `i18n-${name}.png`) })
const go = (app: LaunchedApp, url: string) =>
  app.app().evaluate((to) => {
    window.history.pushState({}, "", to)
    window.dispatchEvent(new PopStateEvent("popstate"))
  }, url)
const popup = (app: LaunchedApp) =>
  app.page
    .waitForFunction(() => window.fakeTelegram?.popup !== null && window.fakeTelegram?.popup !== undefined)
    .then(() => app.telegram<{ title: string; message: string; buttons: Array<{ id: string; text?: string }> }>("t.popup"))

const DAY = 24 * 60 * 60 * 1000
/** An incoming transfer created so that `left` days remain of its 14 (an hour into the last day). */
const incoming = (id: number, left: number) => {
  const created = new Date(Date.now() - (14 - left) * DAY - 60 * 60 * 1000)
  return {
    id: String(id),
    currency: "USDT",
    amount: `${id}.5`,
    comment: null,
    sender_id: 900 + id,
    sender_username: null,
    sender_name: `Sender ${id}`,
    sender_photo_url: null,
    receiver_id: 1,
    receiver_username: null,
    receiver_name: "Nora New",
    receiver_photo_url: null,
    created_at: created.toISOString(),
    expires_at: new Date(created.getTime() + 14 * DAY).toISOString(),
    resolved_at: null,
    crypto_tx_id: null,
    tg_transfer_status: "new",
    status: "pending",
    role: "receiver",
  }
}

describe("i18n", () => {
  it("in Russian, 1 / 2 / 5 days left take the forms день / дня / дней", async () => {
    const before = async (page: Page) => {
      await page
        .context()
        .route(/\/api\/custody\/transfers\?tg_transfer_status=new$/, (route) =>
          route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ items: [incoming(1, 1), incoming(2, 2), incoming(3, 5)] }) }),
        )
    }
    // The receiver is the new demo user: onboarding first (in Russian), then the incoming transfers.
    const app = await launch(stack, { user: "new", language: "ru", before })
    await app.waitForPath("/wallet-onboarding")
    for (const heading of ["Ваша криптовалюта в Telegram", "Переводы друзьям", "Всё под контролем"]) {
      await app.app().getByRole("heading", { name: heading }).waitFor()
      await app.page.waitForFunction(() => window.fakeTelegram?.mainButton.is_visible === true)
      await app.telegram("t.pressMain()")
    }
    await app.waitForPath("/wallet-onboarding/incentive")
    await app.page.waitForFunction(() => window.fakeTelegram?.secondaryButton.is_visible === true)
    await app.telegram("t.pressSecondary()")
    await app.waitForPath("/main")
    await go(app, "/transfers")
    await app.app().getByText("Осталось 5 дней, чтобы принять").waitFor()
    const text = await app.app().locator("body").innerText()
    expect(text).toContain("Остался 1 день, чтобы принять")
    expect(text).toContain("Осталось 2 дня, чтобы принять")
    expect(text).toContain("Осталось 5 дней, чтобы принять")
    await shot(app, "ru-days")
    await app.page.close()
  })

  it("a Hindi Telegram user gets the language suggestion once, and the app switches at once", async () => {
    const app = await launch(stack, { user: "balances", language: "hi" })
    await app.waitForPath("/main")
    // The first screen opens in English; the dialog asks in Hindi.
    await app.app().getByText("Total balance").waitFor()
    const asked = await popup(app)
    expect(asked.title).toBe("Wallet को हिन्दी में इस्तेमाल करें?")
    expect(asked.buttons.map((b) => b.id)).toEqual(["suggested", "en", "other"])
    expect(asked.buttons.map((b) => b.text)).toEqual(["हिन्दी", "English", "दूसरी भाषा"])
    await shot(app, "hi-suggestion")
    await app.telegram("t.answerPopup('suggested')")
    // Applied at once: the same screen re-renders in Hindi, without a reload.
    await app.app().getByText("कुल बैलेंस").waitFor()
    expect(await app.app().evaluate(() => document.documentElement.lang)).toBe("hi")
    await shot(app, "hi-main")

    // Remembered in the view settings (decision 0360: display_change_language_alert saved as false,
    // kept in the persisted query cache too): a reopen starts in Hindi and never asks again.
    await app
      .app()
      .waitForFunction(() =>
        Object.keys(localStorage).some(
          (k) => k.startsWith("wallet:query-cache:") && localStorage.getItem(k)!.includes('"display_change_language_alert":false'),
        ),
      )
    await app.page.reload()
    await app.page.waitForFunction(() => window.fakeTelegram?.ready === true)
    await app.app().getByText("कुल बैलेंस").waitFor()
    // The hints ran (the tab bar's Hindi strings are in) and no popup came up.
    await app.app().getByRole("navigation").getByText("वॉलेट").waitFor()
    expect(await app.telegram("t.popup")).toBeNull()
    await app.page.close()
  })

  it("a Russian language pack that fails to load falls back to English", async () => {
    const blocked: string[] = []
    const before = async (page: Page) => {
      // The namespaces' own Russian chunks and the first balance's (decision 0012: `first-ru`).
      await page.context().route(/\/assets\/(first-)?ru-[\w-]+\.js$/, (route) => {
        blocked.push(route.request().url())
        return route.abort("failed")
      })
    }
    const app = await launch(stack, { user: "balances", language: "ru", before })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()
    expect(blocked.length).toBeGreaterThan(0)
    expect(await app.app().locator("body").innerText()).not.toContain("home:")
    await shot(app, "ru-pack-failed")
    await app.page.close()
  })
})
