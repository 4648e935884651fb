import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"
import { back, IMPORT_EN, IMPORT_RU, importWords, press, screenshots, startDevnetStack, text, waitMain, type ImportLabels } from "./support/ton-space.ts"

// The TON space's assets on the in-process devnet: a wallet funded with TON, a jetton and an extra
// currency opens the TON page (chart, periods, PnL), the jetton page, and sends some of the extra currency.
let stack: Stack
let words: ReadonlyArray<string>
let address: string
let raw: string
let friend: { readonly address: string; readonly raw: string }

const DXC = 100
beforeAll(async () => {
  stack = await startDevnetStack()
  words = await newMnemonic()
  const me = identityOf((await keysOf(words)).publicKey, "v5r1", "mainnet")
  address = me.address
  raw = me.raw
  friend = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet")
  // 5 TON, 25 USD₮ and 12.345 DXC (5 decimals), all at the next block.
  await stack.devnet!.faucet({ address: raw, ton: 5_000_000_000n, jetton: "usdt", amount: 25_000_000n, extraCurrency: { id: DXC, amount: 1_234_500n } })
  // and a blacklisted jetton imitating USDT: a minor asset whose page explains the scam flag
  await stack.devnet!.faucet({ address: raw, jetton: "scam", amount: 7_000_000n })
})
afterAll(async () => {
  await stack?.close()
})

const { shot } = screenshots("ton-space-assets")
const extraBalanceOf = async (account: string) => {
  const body = (await (await fetch(`${stack.devnet!.url}/v2/accounts/${account}`)).json()) as {
    extra_balance?: Array<{ amount: string; preview: { id: number } }>
  }
  return body.extra_balance?.find((e) => e.preview.id === DXC)?.amount
}

/** Imports the test's words from the onboarding and lands on the wallet main with its balances. */
const importWallet = async (app: LaunchedApp, labels: ImportLabels = IMPORT_EN) => {
  await app.waitForPath("/scw")
  await importWords(app, words, labels)
  await app.waitForPath("/scw")
}

const chart = (app: LaunchedApp) => app.app().getByTestId("price-chart")
/** Picks a chart period and waits for its series (the segment's 200 ms highlight settles before a screenshot). */
const pickPeriod = async (app: LaunchedApp, label: string, period: string) => {
  await app.app().getByRole("radio", { name: label }).click()
  await expect.poll(async () => chart(app).getAttribute("data-period"), { timeout: 15_000 }).toBe(period)
  expect(await app.app().getByRole("radio", { name: label }).getAttribute("aria-checked")).toBe("true")
  await app.page.waitForTimeout(300)
}

/** The PnL view needs the tonspace_pnl feature flag (off on the server by default): on for this launch. */
const withPnlFlag = async (page: Page) => {
  await page.context().route("**/api/feature-flags", async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, json: { ...((await response.json()) as Record<string, boolean>), tonspace_pnl: true } })
  })
}

describe("TON space assets: TON and jetton pages, chart periods, PnL, an extra currency", () => {
  it("opens the TON page with a chart and switches periods, the PnL, the jetton page, and sends an extra currency", async () => {
    const app = await launch(stack, { user: "no_custody", before: withPnlFlag })
    await importWallet(app)
    expect(address).toMatch(/^UQ/)
    // The assets list: TON, the jetton (USD₮ as the product's USDT) and the extra currency.
    await expect.poll(async () => text(app), { timeout: 30_000, interval: 1_000 }).toContain("12.345 DXC")
    const main = await text(app)
    expect(main).toMatch(/5(\.\d+)? TON/)
    expect(main).toContain("25 USDT")
    expect(main).toContain("Extra currency #100")
    await shot(app, "main-light")

    // TON page: balance, fiat value, chart of the day, then week and all.
    await app
      .app()
      .getByRole("button", { name: /^Toncoin/ })
      .click()
    await app.waitForPath("/scw/assets/TON")
    await app.app().getByRole("heading", { name: "Toncoin" }).waitFor()
    // 5 TON from the faucet plus the excess of the jetton mint (about 0.01)
    expect(await app.app().getByTestId("asset-balance").innerText()).toMatch(/^5\.0\d* TON$/)
    await expect.poll(async () => text(app), { timeout: 15_000 }).toMatch(/≈ \$16\.\d\d/)
    await expect.poll(async () => chart(app).getAttribute("data-period"), { timeout: 15_000 }).toBe("day")
    const dayPoints = Number(await chart(app).getAttribute("data-points"))
    expect(dayPoints).toBeGreaterThan(10)
    expect(dayPoints).toBeLessThanOrEqual(64)
    expect(await chart(app).getAttribute("aria-label")).toMatch(/^Price chart, Day/)
    await shot(app, "ton-day-light")
    await pickPeriod(app, "Week", "week")
    await pickPeriod(app, "All", "all")
    await shot(app, "ton-all-light")
    // The TON history lists the faucet's transfer.
    await app
      .app()
      .getByRole("button", { name: /^Received/ })
      .first()
      .waitFor({ timeout: 15_000 })

    // PnL of TON: 5 TON in at the faucet's price; the result is shown in fiat.
    await app
      .app()
      .getByRole("button", { name: /^Profit and loss/ })
      .click()
    await app.waitForPath("/scw/pnl/TON")
    await app.app().getByTestId("pnl-unrealised").waitFor({ timeout: 20_000 })
    const pnl = await text(app)
    expect(pnl).toContain("Profit and loss: TON")
    expect(pnl).toMatch(/Holding\s+5(\.\d+)? TON/)
    expect(pnl).toMatch(/Cost basis\s+\$\d+\.\d\d/)
    await shot(app, "pnl-light")
    await back(app)
    await app.waitForPath("/scw/assets/TON")
    await back(app)
    await app.waitForPath("/scw")

    // The jetton page: balance in USDT, its chart, the mint in its history.
    await app
      .app()
      .getByRole("button", { name: /^Dollars/ })
      .click()
    await app.app().getByRole("heading", { name: "Dollars" }).waitFor()
    expect(await app.app().getByTestId("asset-balance").innerText()).toBe("25 USDT")
    await expect.poll(async () => text(app), { timeout: 15_000 }).toMatch(/≈ \$25\.00/)
    await chart(app).waitFor({ timeout: 15_000 })
    await app
      .app()
      .getByRole("button", { name: /^Received/ })
      .first()
      .waitFor({ timeout: 15_000 })
    await shot(app, "jetton-light")
    // Its PnL comes from the jetton history: 25 USDT minted at 1 USD, worth 25 USD now.
    await app
      .app()
      .getByRole("button", { name: /^Profit and loss/ })
      .click()
    await app.app().getByTestId("pnl-unrealised").waitFor({ timeout: 20_000 })
    const jettonPnl = await text(app)
    expect(jettonPnl).toContain("Profit and loss: USDT")
    expect(jettonPnl).toMatch(/Holding\s+25 USDT/)
    expect(jettonPnl).toMatch(/Cost basis\s+\$25\.00/)
    expect(await app.app().getByTestId("pnl-unrealised").innerText()).toBe("$0.00")
    await back(app)
    await app.app().getByRole("heading", { name: "Dollars" }).waitFor()
    await back(app)
    await app.waitForPath("/scw")

    // The scam jetton: listed under the minor assets, its page explains the flag, shows 0 and cannot be sent.
    await app.app().getByRole("button", { name: "Show 1 more" }).click()
    await app
      .app()
      .getByRole("button", { name: /^Tether USD/ })
      .click()
    await app.app().getByRole("heading", { name: "Tether USD" }).waitFor()
    await app.app().getByText("Scam token").waitFor()
    expect(await app.app().getByTestId("asset-balance").innerText()).toBe("0 USDT")
    expect(await app.app().getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true)
    expect(await text(app)).toContain("Value hidden for this token")
    expect(await app.app().getByTestId("price-chart").count()).toBe(0)
    await shot(app, "scam-light")
    await back(app)
    await app.waitForPath("/scw")
    await app.app().getByRole("button", { name: "Hide minor assets" }).click()

    // The extra currency: its page, then send 2.5 DXC to another wallet.
    await app.app().getByRole("button", { name: /^DXC/ }).click()
    await app.waitForPath(`/scw/assets/extra-currency/${DXC}`)
    await app.app().getByRole("heading", { name: "DXC (extra currency)" }).waitFor()
    expect(await app.app().getByTestId("asset-balance").innerText()).toBe("12.345 DXC")
    await app.app().getByText("+12.345 DXC").waitFor({ timeout: 15_000 })
    await shot(app, "extra-light")
    await app.app().getByRole("button", { name: "Send", exact: true }).click()
    await app.waitForPath("/scw/send")
    await app.app().getByRole("radio", { name: /^DXC/ }).waitFor()
    expect(await app.app().getByRole("radio", { name: /^DXC/ }).getAttribute("aria-checked")).toBe("true")
    await app.app().getByRole("textbox", { name: "Recipient" }).fill(friend.address)
    await app.app().getByRole("textbox", { name: "Amount" }).fill("2.5")
    await shot(app, "extra-send-light")
    await waitMain(app, "Continue")
    await press(app)
    await app.waitForPath("/scw/send-extra-currency-confirmation")
    await app
      .app()
      .getByText(/≈ 0\.\d+ TON/)
      .waitFor({ timeout: 20_000 })
    expect(await text(app)).toContain("2.5 DXC")
    await shot(app, "extra-confirm-light")
    await waitMain(app, "Confirm and send")
    await press(app)
    await app.waitForPath("/scw/send-success")
    // It lands on the devnet: the friend holds 2.5 DXC (250000 minor units), we keep 9.845.
    await expect.poll(() => extraBalanceOf(friend.raw), { timeout: 30_000, interval: 500 }).toBe("250000")
    expect(await extraBalanceOf(raw)).toBe("984500")
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")
    await expect.poll(async () => text(app), { timeout: 30_000, interval: 1_000 }).toContain("9.845 DXC")

    // From main the asset page opens at once on the shared query cache (decision 0320).
    await app
      .app()
      .getByRole("button", { name: /^Dollars/ })
      .click()
    await app.app().getByRole("heading", { name: "Dollars" }).waitFor()
    // Loading: chain data is not persisted, so after a reload on the asset page, while the jetton
    // balances are on their way, the page is a placeholder, then the asset.
    let releaseJettons: () => void = () => undefined
    const jettonsHeld = new Promise<void>((resolve) => (releaseJettons = resolve))
    await app.page.route("**/v2/accounts/*/jettons?*", async (route) => {
      await jettonsHeld
      await route.continue()
    })
    await app.app().evaluate(() => location.reload())
    await app.app().getByRole("main", { name: "Loading the asset" }).waitFor()
    expect(await app.app().getByRole("heading", { name: "Dollars" }).count()).toBe(0)
    await shot(app, "jetton-loading-light")
    releaseJettons()
    await app.app().getByRole("heading", { name: "Dollars" }).waitFor()
    await app.page.unroute("**/v2/accounts/*/jettons?*")

    // A chart that fails to load says so and retries.
    await app.page.route("**/v2/rates/chart?*", (route) => route.abort())
    await app.app().getByRole("radio", { name: "Year" }).click()
    await app.app().getByText("Could not load the chart.").waitFor({ timeout: 20_000 })
    await shot(app, "chart-error-light")
    await app.page.unroute("**/v2/rates/chart?*")
    await app.app().getByRole("button", { name: "Retry" }).click()
    await expect.poll(async () => chart(app).getAttribute("data-period"), { timeout: 15_000 }).toBe("year")
  }, 240_000)

  it("renders the asset pages in the dark theme and in Russian", async () => {
    const app = await launch(stack, { user: "no_custody", theme: "dark", language: "ru", before: withPnlFlag })
    await importWallet(app, IMPORT_RU).catch(async (error: unknown) => {
      await shot(app, "import-dark-failed")
      throw error
    })
    await expect.poll(async () => text(app), { timeout: 30_000, interval: 1_000 }).toContain("DXC")
    await shot(app, "main-dark")
    await app
      .app()
      .getByRole("button", { name: /^Toncoin/ })
      .click()
    await app.waitForPath("/scw/assets/TON")
    await expect.poll(async () => chart(app).getAttribute("data-period"), { timeout: 15_000 }).toBe("day")
    await pickPeriod(app, "Месяц", "month")
    await shot(app, "ton-month-dark")
    await app
      .app()
      .getByRole("button", { name: /^Прибыль и убыток/ })
      .click()
    await app.waitForPath("/scw/pnl/TON")
    await app.app().getByTestId("pnl-unrealised").waitFor({ timeout: 20_000 })
    await shot(app, "pnl-dark")
    await back(app)
    await app.waitForPath("/scw/assets/TON")
    await back(app)
    await app.waitForPath("/scw")
    await app.app().getByRole("button", { name: /^DXC/ }).click()
    await app.waitForPath(`/scw/assets/extra-currency/${DXC}`)
    await app.app().getByTestId("asset-balance").waitFor()
    await shot(app, "extra-dark")
    await back(app)
    await app.waitForPath("/scw")
    await app
      .app()
      .getByRole("button", { name: /^Dollars|^Доллары/ })
      .click()
    await app.app().getByTestId("asset-balance").waitFor()
    await chart(app).waitFor({ timeout: 15_000 })
    await shot(app, "jetton-dark")
  }, 180_000)
})
