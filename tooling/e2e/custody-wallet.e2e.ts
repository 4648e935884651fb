import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type LaunchOptions, type Stack } from "@wallet/harness/stack"

/**
 * The custodial wallet screens as a user meets them (issue 5): wallet main with its pinned and
 * low-balance assets and a frozen row, receiving TON from the devnet faucet (credited once), the
 * history with details, and the Russian language. Screenshots of each screen, light and dark.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ devnet: true })
  mkdirSync(screenshotDir, { recursive: true })
})
afterAll(async () => {
  await stack?.close()
})

const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `custody-wallet-${name}.png`) })
const text = (app: LaunchedApp) => app.app().locator("body").innerText()

/** Opens the app for a user and waits for wallet main with its balances. */
const openMain = async (options: LaunchOptions) => {
  const app = await launch(stack, options)
  await app.waitForPath("/main")
  await app.app().locator("[data-asset]").first().waitFor({ timeout: 20_000 })
  return app
}

/** Switches the fake client to another theme and waits for the app's colours to settle. */
const setTheme = async (app: LaunchedApp, theme: "light" | "dark") => {
  await app.telegram(`t.setTheme('${theme}')`)
  await app.app().waitForFunction((scheme) => document.documentElement.dataset.colorScheme === scheme, theme)
  await app.page.waitForTimeout(400)
}

/** Reloads the mini-app and waits until the new document runs (the old one lingers for a moment). */
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
}

/** Client-side navigation as the app does it (history push + popstate); pushed again if the router missed it. */
const go = async (app: LaunchedApp, url: string) => {
  const push = () =>
    app.app().evaluate((to) => {
      window.history.pushState({}, "", to)
      window.dispatchEvent(new PopStateEvent("popstate"))
    }, url)
  const target = new URL(url, "http://app").pathname
  await push()
  const arrived = await app
    .app()
    .waitForFunction((p) => window.location.pathname === p, target, { timeout: 5000 })
    .then(
      () => true,
      () => false,
    )
  if (!arrived) await push()
}

describe("wallet main", () => {
  it("shows the total, the pinned assets, the low-balance toggle and a frozen row with its explanation", async () => {
    const app = await openMain({ user: "balances" })
    const total = await app.app().getByTestId("total-balance").innerText()
    expect(total).toMatch(/^\$[\d,]+\.\d\d$/)
    const pinned = await app
      .app()
      .locator("[data-asset]")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-asset")))
    // The default set first, then BTC/ETH/XAUT (held or pinned without balance); no stock or ETF.
    expect(pinned.slice(0, 2)).toEqual(["TON", "USDT"])
    expect(pinned).toEqual(expect.arrayContaining(["BTC", "ETH", "XAUT"]))
    expect(pinned.some((code) => code === "TSLAx" || code === "SPYx")).toBe(false)
    // USDT in USD has no rate line; TON has its price and 24h change.
    expect(await app.app().locator('[data-asset="USDT"]').innerText()).not.toMatch(/%/)
    expect(await app.app().locator('[data-asset="TON"]').innerText()).toMatch(/[+-]?\d+\.\d\d%/)
    await shot(app, "main-light")

    // The toggle shows the low-balance assets and remembers it for the session.
    const toggle = app.app().getByRole("button", { name: "More crypto" })
    await toggle.click()
    await app.app().getByRole("button", { name: "Hide low balance" }).waitFor()
    const expanded = await app.app().locator("[data-asset]").count()
    expect(expanded).toBeGreaterThan(pinned.length)
    expect(await app.app().evaluate(() => sessionStorage.getItem("wallet:main:hidden-assets-expanded"))).toBe("1")
    await shot(app, "main-expanded-light")
    await app.app().getByRole("button", { name: "Hide low balance" }).click()
    expect(await app.app().locator("[data-asset]").count()).toBe(pinned.length)

    // A frozen row sits under its asset; tapping it opens the reason's text.
    const frozen = app.app().locator("[data-frozen]").first()
    await frozen.waitFor()
    const reason = await frozen.getAttribute("data-frozen")
    expect(["FR_1", "FR_3", "FR_4"]).toContain(reason)
    await frozen.click()
    await app.page.waitForFunction(() => window.fakeTelegram?.popup !== null)
    const popup = await app.telegram<{ title: string; message: string }>("t.popup")
    expect(popup.message.length).toBeGreaterThan(40)
    await shot(app, "frozen-popup")
    await app.telegram("t.answerPopup('ok')")

    await setTheme(app, "dark")
    await shot(app, "main-dark")
    await app.page.close()
  })

  it("opens an asset page with its chart and a public asset page", async () => {
    const app = await openMain({ user: "balances", theme: "dark" })
    await app.app().locator('[data-asset="TON"]').click()
    await app.waitForPath("/assets/TON")
    await app.app().getByTestId("asset-balance").waitFor()
    await app.app().getByTestId("price-chart").waitFor()
    await app.app().getByRole("radio", { name: "1W" }).click()
    await app.app().getByTestId("price-chart").waitFor()
    await shot(app, "asset-dark")
    // The asset's history: only its currency.
    await app.app().getByRole("button", { name: "All transactions" }).click()
    await app.waitForPath("/transactions/list")
    // The asset page lists its recent transactions as [data-transaction] rows too, and stays on
    // screen while the history route resolves: count rows only once the history screen is there
    // (the rows counted were the asset page's, then none while the history loaded).
    await app.app().getByText("TON history", { exact: true }).waitFor()
    await app.app().locator("[data-transaction]").first().waitFor()
    const amounts = await app.app().locator("[data-transaction]").allInnerTexts()
    expect(amounts.length).toBeGreaterThan(0)
    expect(amounts.every((row) => / TON\b/.test(row))).toBe(true)
    await shot(app, "history-ton-dark")
    await go(app, "/assets-public/SOL")
    await app.waitForPath("/assets-public/SOL")
    await app.app().getByTestId("asset-price").waitFor()
    await shot(app, "asset-public-dark")
    await setTheme(app, "light")
    await shot(app, "asset-public-light")
    await app.page.close()
  })
})

describe("start-time prefetch (spec 1 §9: 1000 ms after load)", () => {
  it("Receive lists the assets from the accounts main already holds, with no new accounts request", async () => {
    const app = await openMain({ user: "balances" })
    // Well past the prefetch's start (1000 ms after load).
    await app.page.waitForTimeout(2500)
    const accountsCalls: Array<string> = []
    app.page.on("request", (request) => void (request.url().includes("/api/custody/accounts") && accountsCalls.push(request.url())))
    await app.app().getByRole("button", { name: "Receive" }).click()
    await app.waitForPath("/choose-asset/receive")
    await app
      .app()
      .getByRole("button", { name: /Toncoin/ })
      .waitFor()
    expect(accountsCalls).toEqual([])
    await app.page.close()
  })
})

describe("receive and history", () => {
  it("receives TON from the devnet faucet once, and shows it in the balance and the history", async () => {
    const app = await openMain({ user: "balances" })
    const tonBefore = await app.app().locator('[data-asset="TON"]').innerText()
    await app.app().getByRole("button", { name: "Receive" }).click()
    await app.waitForPath("/choose-asset/receive")
    await app
      .app()
      .getByRole("button", { name: /Toncoin/ })
      .waitFor()
    await shot(app, "choose-asset-light")
    await app
      .app()
      .getByRole("button", { name: /Toncoin/ })
      .click()
    await app.waitForPath("/receive")
    const started = Date.now()
    const address = await app.app().getByTestId("deposit-address").innerText({ timeout: 30_000 })
    console.info(`deposit address after ${Date.now() - started} ms`)
    expect(address).toMatch(/^[UEk0][Qf:][\w-]{46}$|^0:[0-9a-f]{64}$/)
    await app.app().getByTestId("receive-qr").waitFor()
    await shot(app, "receive-light")

    await stack.devnet!.faucet({ address, ton: 2_500_000_000n })
    // The watcher credits the deposit once it is final: the asset page shows it.
    await go(app, "/assets/TON")
    await app.waitForPath("/assets/TON")
    const before = Number(/([\d,.]+) TON/.exec(tonBefore)![1]!.replace(/,/g, ""))
    const expected = before + 2.5
    const balanceOf = async () => Number((await app.app().getByTestId("asset-balance").innerText()).replace(/[^\d.]/g, ""))
    await expect
      .poll(
        async () => {
          await reload(app)
          await app.app().getByTestId("asset-balance").waitFor({ timeout: 20_000 })
          return balanceOf()
        },
        { timeout: 60_000, interval: 1500 },
      )
      .toBeCloseTo(expected, 6)

    console.info(`credited after ${Date.now() - started} ms`)
    // Several more blocks later, after a reload, it is still credited exactly once.
    await app.page.waitForTimeout(2500)
    await reload(app)
    await app.app().getByTestId("asset-balance").waitFor({ timeout: 20_000 })
    expect(await balanceOf()).toBeCloseTo(expected, 6)
    // Wallet main (no asset polling) shows the same balance once it is back on screen.
    await go(app, "/main")
    await app.waitForPath("/main")
    const mainTon = async () => Number(/([\d,.]+) TON/.exec(await app.app().locator('[data-asset="TON"]').innerText())?.[1]?.replace(/,/g, "") ?? Number.NaN)
    await expect.poll(mainTon, { timeout: 20_000 }).toBeCloseTo(expected, 6)

    await go(app, "/transactions")
    await app.waitForPath("/transactions")
    await app.app().locator("[data-transaction]").first().waitFor()
    const deposits = app.app().locator("[data-transaction]", { hasText: "+2.5 TON" })
    expect(await deposits.count()).toBe(1)
    // Newest first: the deposit opens the list.
    expect(await app.app().locator("[data-transaction]").first().innerText()).toContain("+2.5 TON")
    await shot(app, "history-light")

    await deposits.first().click()
    await app.app().getByTestId("details-amount").waitFor()
    expect(await app.app().getByTestId("details-amount").innerText()).toContain("+2.5 TON")
    expect(await text(app)).toContain("Deposit")
    expect(await app.app().getByTestId("details-status").innerText()).toBe("Completed")
    await shot(app, "details-light")
    await setTheme(app, "dark")
    await shot(app, "details-dark")
    await go(app, "/transactions")
    await app.app().locator("[data-transaction]").first().waitFor()
    await shot(app, "history-dark")
    await go(app, "/receive?assetCurrency=TON&assetNetwork=ton")
    await app.app().getByTestId("deposit-address").waitFor({ timeout: 30_000 })
    expect(await app.app().getByTestId("deposit-address").innerText()).toBe(address)
    await app.app().getByTestId("receive-qr").waitFor()
    await shot(app, "receive-dark")
    await go(app, "/choose-asset/receive")
    await app
      .app()
      .getByRole("button", { name: /Dollars/ })
      .waitFor()
    await shot(app, "choose-asset-dark")
    await app
      .app()
      .getByRole("button", { name: /Dollars/ })
      .click()
    await app.waitForPath("/choose-network/receive/USDT")
    await app
      .app()
      .getByRole("button", { name: /Tron \(TRC20\)/ })
      .waitFor()
    await shot(app, "choose-network-dark")
    // USDT on Tron: a simulated network's address, got or created the same way.
    await app
      .app()
      .getByRole("button", { name: /Tron \(TRC20\)/ })
      .click()
    await app.waitForPath("/receive")
    expect(await app.app().getByTestId("deposit-address").innerText({ timeout: 30_000 })).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    await app.app().getByTestId("receive-qr").waitFor()
    await shot(app, "receive-usdt-tron-dark")
    await app.page.close()
  }, 150_000)
})

describe("deep links", () => {
  it("the receive start param asks for the asset to receive", async () => {
    const app = await launch(stack, { user: "balances", startParam: "receive" })
    await app.waitForPath("/choose-asset/receive")
    await app
      .app()
      .getByRole("button", { name: /Toncoin/ })
      .waitFor()
    // The history landing sends an existing user to the history.
    await go(app, "/transactions/start-param-landing")
    await app.waitForPath("/transactions")
    await app.app().locator("[data-transaction]").first().waitFor()
    await app.page.close()
  })
})

describe("a new user", () => {
  it("walks through the onboarding steps and the incentive, then sees the default assets with no balance", async () => {
    const app = await launch(stack, { user: "new" })
    await app.waitForPath("/wallet-onboarding")
    await app.app().getByRole("heading", { name: "Your crypto in Telegram" }).waitFor()
    await shot(app, "onboarding-intro-light")
    await app.telegram("t.pressMain()")
    await app.waitForPath("/wallet-onboarding/steps")
    await app.app().getByRole("heading", { name: "Send to friends" }).waitFor()
    await shot(app, "onboarding-steps-light")
    await app.telegram("t.pressMain()")
    await app.app().getByRole("heading", { name: "Stay in control" }).waitFor()
    await setTheme(app, "dark")
    await shot(app, "onboarding-steps-dark")
    await setTheme(app, "light")
    await app.telegram("t.pressMain()")
    await app.waitForPath("/wallet-onboarding/incentive")
    await app.app().getByRole("heading", { name: "Make your first deposit" }).waitFor()
    await shot(app, "onboarding-incentive-light")
    await setTheme(app, "dark")
    await shot(app, "onboarding-incentive-dark")
    await app.telegram("t.pressSecondary()")
    await app.waitForPath("/main")
    await app.app().locator("[data-asset]").first().waitFor()
    const pinned = await app
      .app()
      .locator("[data-asset]")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-asset")))
    expect(pinned).toEqual(["TON", "USDT", "BTC", "ETH", "XAUT"])
    expect(await app.app().getByTestId("total-balance").innerText()).toBe("$0.00")
    await app.app().getByRole("button", { name: "More crypto" }).waitFor()
    await shot(app, "main-new-dark")
    await go(app, "/transactions")
    await app.app().getByText("No transactions yet").waitFor()
    await shot(app, "history-empty-dark")
    await setTheme(app, "light")
    await go(app, "/assets-public/TON")
    await app.app().getByTestId("asset-price").waitFor()
    await go(app, "/assets/USDT")
    await app.app().getByTestId("asset-balance").waitFor()
    await shot(app, "asset-empty-light")
    await go(app, "/choose-network/receive/USDT")
    await app
      .app()
      .getByRole("button", { name: /Solana \(SOL\)/ })
      .waitFor()
    await shot(app, "choose-network-light")
    await app.page.close()
  })
})

describe("language", () => {
  it("shows main and the history in Russian", async () => {
    const app = await openMain({ user: "balances", language: "ru" })
    const main = await text(app)
    for (const phrase of ["общий баланс", "активы", "получить", "история", "доллары"]) expect(main.toLowerCase()).toContain(phrase)
    expect(main).not.toContain("Total balance")
    await shot(app, "main-ru-light")
    await app
      .app()
      .getByRole("tab", { name: "История" })
      .or(app.app().getByRole("button", { name: "История" }))
      .first()
      .click()
    await app.waitForPath("/transactions")
    await app.app().locator("[data-transaction]").first().waitFor()
    const history = await text(app)
    expect(history.toLowerCase()).toContain("история")
    expect(history).not.toMatch(/\b(Received|Sent|Completed|Pending)\b/)
    await shot(app, "history-ru-light")
    await app.page.close()
  })
})
