import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { demoUserId } from "./support/ops.ts"

/**
 * Issue 22, the exchange as a user meets it: the "balances" demo user exchanges USDT to TON in pay mode
 * and in receive mode (both Ledger balances move by the quote, the history shows the rows), a quote that
 * runs out before the confirm (the server's fake clock moves) is replaced by a new price that confirms,
 * and buying TSLAx outside US market hours shows the trading-hours modal. The Ledger audit ends each.
 */
let stack: Stack
/** How far the test moved the server's clock (the stack's clock is the real one plus this). */
let advanced = 0
beforeAll(async () => {
  stack = await startStack({ clock: true, accessTokenTtlSeconds: 24 * 3600 })
})
afterAll(async () => {
  await stack?.close()
})

const USER = "balances" as const
const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `exchange-${name}.png`) })
const id = (app: LaunchedApp, testId: string) => app.app().getByTestId(testId)
const advance = (ms: number) => {
  stack.advanceClock(ms)
  advanced += ms
}

/** Types into the kit's amount field (select all, then the digits). */
const typeAmount = async (app: LaunchedApp, testId: string, value: string) => {
  const input = id(app, testId)
  await input.click()
  await input.press("ControlOrMeta+a")
  await input.pressSequentially(value)
}

/** Types into the currency search (it has focus when the screen opens). */
const typeSearch = async (app: LaunchedApp, value: string) => {
  const input = id(app, "exchange-search-input")
  await input.waitFor()
  await input.pressSequentially(value)
}

/** Minor units as the API writes them ("394.759226", no trailing zeros). */
const decimal = (units: bigint, decimals: number) => {
  const whole = units / 10n ** BigInt(decimals)
  const fraction = (units % 10n ** BigInt(decimals)).toString().padStart(decimals, "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

const ledgerBalance = async (owner: string, currency: string): Promise<bigint> => {
  const rows = (await stack.server.sql("select balance::text as balance from ledger_accounts where owner = $1 and currency = $2", [owner, currency])) as Array<{
    balance: string
  }>
  return rows[0] === undefined ? 0n : BigInt(rows[0].balance)
}
const quoteRow = async (uid: string) =>
  (
    (await stack.server.sql(
      `select status, pay_total::text as pay, receive_amount::text as receive,
              (select count(*)::int from ledger_transactions where idempotency_key = 'exchange:quote:' || uid) as movements
         from exchange_quotes where uid = $1`,
      [uid],
    )) as Array<{ status: string; pay: string; receive: string; movements: number }>
  )[0]!

/** From /exchange with an amount typed: Continue, confirm on the confirmation screen, wait for the success sheet; the executed uid. */
const confirmFlow = async (app: LaunchedApp, name?: string) => {
  await id(app, "exchange-continue").click()
  await app.waitForPath("/exchange/confirmation")
  await id(app, "exchange-countdown").waitFor()
  if (name !== undefined) await shot(app, `${name}-confirmation`)
  const uid = (await id(app, "exchange-confirmation").getAttribute("data-uid"))!
  await id(app, "exchange-confirm").click()
  await id(app, "exchange-success-text").waitFor({ timeout: 20_000 })
  if (name !== undefined) await shot(app, `${name}-success`)
  return uid
}

/** Waits until the typed side's quote filled the other input. */
const quoted = async (app: LaunchedApp, testId: string) => {
  await expect.poll(async () => (await id(app, testId).inputValue()).length, { timeout: 20_000 }).toBeGreaterThan(0)
  await expect.poll(async () => await id(app, "exchange-continue").isEnabled(), { timeout: 20_000 }).toBe(true)
}

describe("exchange (issue 22)", () => {
  it("exchanges USDT to TON in pay mode and in receive mode: both balances move by the quote, the history shows the rows", async () => {
    const userId = await demoUserId(stack, USER)
    const owner = `user:${userId}`
    const app = await launch(stack, { user: USER })
    try {
      await app.waitForPath("/main")
      const usdt0 = await ledgerBalance(owner, "USDT")
      const ton0 = await ledgerBalance(owner, "TON")

      // Pay mode: 10 USDT, the TON side computed from the quote.
      await app.goto("/exchange?payCurrency=USDT&receiveCurrency=TON")
      await typeAmount(app, "exchange-pay-input", "10")
      await quoted(app, "exchange-receive-input")
      expect(await id(app, "exchange").getAttribute("data-mode")).toBe("pay")
      await shot(app, "pay-light")
      const payUid = await confirmFlow(app, "pay")
      const paid = await quoteRow(payUid)
      expect(paid).toMatchObject({ status: "EXECUTED", pay: "10000000", movements: 1 })
      expect(await ledgerBalance(owner, "USDT")).toBe(usdt0 - 10_000_000n)
      expect(await ledgerBalance(owner, "TON")).toBe(ton0 + BigInt(paid.receive))
      // Done goes to the received asset, which shows the new TON balance.
      await id(app, "exchange-success-done").click()
      await app.waitForPath("/assets/TON")
      const shownTon = async () => Number((await id(app, "asset-balance").innerText()).replace(/[^\d.]/g, ""))
      await expect.poll(shownTon, { timeout: 20_000 }).toBeCloseTo(Number(ton0 + BigInt(paid.receive)) / 1e9, 5)

      // Receive mode: exactly 1 TON, the USDT side computed; the form shows the USDT balance left.
      await app.goto("/exchange?payCurrency=USDT&receiveCurrency=TON")
      await expect.poll(() => id(app, "exchange-pay-note").innerText(), { timeout: 20_000 }).toBe(`Balance: ${decimal(usdt0 - 10_000_000n, 6)} USDT`)
      await typeAmount(app, "exchange-receive-input", "1")
      await quoted(app, "exchange-pay-input")
      expect(await id(app, "exchange").getAttribute("data-mode")).toBe("receive")
      const receiveUid = await confirmFlow(app)
      const received = await quoteRow(receiveUid)
      expect(received).toMatchObject({ status: "EXECUTED", receive: "1000000000", movements: 1 })
      expect(await ledgerBalance(owner, "TON")).toBe(ton0 + BigInt(paid.receive) + 1_000_000_000n)
      expect(await ledgerBalance(owner, "USDT")).toBe(usdt0 - 10_000_000n - BigInt(received.pay))

      // The history: one Exchange row per exchange with both sides, what came in and what was paid.
      await app.goto("/transactions")
      await app.app().locator("[data-transaction]").first().waitFor({ timeout: 20_000 })
      const rows = app.app().locator("[data-transaction]", { hasText: "Exchange" })
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2)
      const newest = await rows.first().innerText()
      expect(newest).toContain("USDT \u2192 TON")
      expect(newest).toContain("+1 TON")
      expect(newest).toContain(`\u2212${decimal(BigInt(received.pay), 6)} USDT`)
      expect(await app.app().locator("[data-transaction]", { hasText: "10 USDT" }).count()).toBeGreaterThanOrEqual(1)
      await shot(app, "history-light")
      // The TON asset's own history lists the exchanges that paid TON out to the user.
      await app.goto("/transactions/list?assetCurrency=TON")
      await expect.poll(() => app.app().locator("[data-transaction]", { hasText: "Exchange" }).count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2)

      // The currency search (receive side) and the swap of sides.
      await app.goto("/exchange?payCurrency=USDT&receiveCurrency=TON")
      await id(app, "exchange-receive-currency").click()
      await app.waitForPath("/exchange/search")
      await typeSearch(app, "bitc")
      expect(await app.app().locator("[data-testid^='exchange-search-']", { hasText: "Bitcoin" }).count()).toBe(1)
      await shot(app, "search-light")
      await id(app, "exchange-search-BTC").click()
      await app.waitForPath("/exchange")
      await expect.poll(() => id(app, "exchange-receive-currency").innerText()).toBe("BTC")
      await id(app, "exchange-swap").click()
      await expect.poll(() => id(app, "exchange-pay-currency").innerText()).toBe("BTC")
      expect(await id(app, "exchange-receive-currency").innerText()).toBe("USDT")

      // Dark theme of the form.
      await app.telegram("t.setTheme('dark')")
      await app.app().waitForFunction(() => document.documentElement.dataset.colorScheme === "dark")
      await app.goto("/exchange?payCurrency=USDT&receiveCurrency=TON")
      await typeAmount(app, "exchange-pay-input", "25")
      await quoted(app, "exchange-receive-input")
      await shot(app, "pay-dark")
      const audit = await stack.server.ledgerAudit()
      expect(audit.violations).toEqual([])
    } finally {
      await app.page.close()
    }
  })

  it("a quote that runs out before the confirm: nothing moves, the new price shows and confirms (Russian)", async () => {
    const userId = await demoUserId(stack, USER)
    const owner = `user:${userId}`
    // The `exchange` start param opens the exchange.
    const app = await launch(stack, { user: USER, language: "ru", startParam: "exchange" })
    try {
      await app.waitForPath("/exchange")
      await app.goto("/exchange?payCurrency=USDT&receiveCurrency=TON")
      await typeAmount(app, "exchange-pay-input", "5")
      await quoted(app, "exchange-receive-input")
      await shot(app, "pay-ru")
      await id(app, "exchange-continue").click()
      await app.waitForPath("/exchange/confirmation")
      await id(app, "exchange-countdown").waitFor()
      const first = (await id(app, "exchange-confirmation").getAttribute("data-uid"))!
      const usdt = await ledgerBalance(owner, "USDT")
      // The server's clock passes the quote's 15 s; the screen still counts down its own.
      advance(20_000)
      await id(app, "exchange-confirm").click()
      await id(app, "exchange-price-updated").waitFor({ timeout: 20_000 })
      await shot(app, "price-updated-ru")
      const second = (await id(app, "exchange-confirmation").getAttribute("data-uid"))!
      expect(second).not.toBe(first)
      expect(await quoteRow(first)).toMatchObject({ status: "EXPIRED", movements: 0 })
      expect(await ledgerBalance(owner, "USDT")).toBe(usdt)
      await id(app, "exchange-confirm").click()
      await id(app, "exchange-success-text").waitFor({ timeout: 20_000 })
      expect(await quoteRow(second)).toMatchObject({ status: "EXECUTED", movements: 1 })
      expect(await ledgerBalance(owner, "USDT")).toBe(usdt - 5_000_000n)
      expect((await stack.server.ledgerAudit()).ok).toBe(true)
    } finally {
      await app.page.close()
    }
  })

  it("buying TSLAx outside US market hours shows the trading-hours modal", async () => {
    // Move the server's clock to a closed time if the market is open now (Monday-Friday 9:30-16:00 in New York):
    // seven hours on from any open minute is past that day's close.
    const newYork = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
    const parts = Object.fromEntries(newYork.formatToParts(new Date(Date.now() + advanced)).map((part) => [part.type, part.value]))
    const minute = Number(parts.hour) * 60 + Number(parts.minute)
    if (parts.weekday !== "Sat" && parts.weekday !== "Sun" && minute >= 9 * 60 + 30 && minute < 16 * 60) advance(7 * 3_600_000)
    const app = await launch(stack, { user: USER })
    try {
      await app.waitForPath("/main")
      // The stock's own page: Buy and Sell (no Receive, no Exchange); while closed, Buy names the next opening.
      await app.goto("/assets/TSLAx")
      const actions = app.app().getByRole("navigation", { name: "Asset actions" })
      await actions.getByRole("button", { name: "Sell" }).waitFor({ timeout: 20_000 })
      expect(await actions.getByRole("button", { name: "Receive" }).count()).toBe(0)
      const buy = actions.getByRole("button", { name: "Buy" })
      expect(await buy.getAttribute("aria-disabled")).toBe("true")
      // aria-disabled, yet pressable: the press explains why (Playwright's click waits for "enabled").
      await buy.dispatchEvent("click")
      await expect.poll(() => app.telegram<boolean>("t.popup !== null"), { timeout: 10_000 }).toBe(true)
      const popup = await app.telegram<{ title: string; message: string }>("t.popup")
      expect(popup.title).toBe("Coming soon")
      expect(popup.message).toMatch(/^Buy will be available on /)
      await app.telegram('t.answerPopup("ok")')
      await app.goto("/exchange?receiveCurrency=TSLAx&tradingMode=buy")
      await id(app, "exchange-trading-hours").waitFor({ timeout: 20_000 })
      expect(await id(app, "exchange-trading-hours-next").innerText()).toMatch(/\d/)
      expect(await id(app, "exchange-continue").isDisabled()).toBe(true)
      await shot(app, "trading-hours-light")
      await id(app, "exchange-trading-hours-ok").click()
      await id(app, "exchange-trading-hours").waitFor({ state: "detached" })
    } finally {
      await app.page.close()
    }
  })
})
