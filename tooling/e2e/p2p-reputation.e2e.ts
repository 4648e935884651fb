import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * Issue 21 reputation on the seeded demo market: Rhea buys USDT from Lena, both rate the trade, and the
 * record shows on the offer list, the offer's trader sheet, the order and the profile (light, dark, ru).
 * The server's clock is a fake one the test moves, so the average times are known.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ clock: true, accessTokenTtlSeconds: 24 * 3600 })
})
afterAll(async () => {
  await stack?.close()
})

const SELLER = "kyc_level2" as const
const BUYER = "kyc_review" as const
const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `p2p-reputation-${name}.png`), fullPage: true })
const id = (app: LaunchedApp, testId: string) => app.app().getByTestId(testId)
const text = (app: LaunchedApp, testId: string) => id(app, testId).innerText()

/** Opens /p2p, passes the onboarding once, and waits for the home. */
const openMarket = async (app: LaunchedApp) => {
  await app.waitForPath("/main")
  await app.goto("/p2p")
  const start = id(app, "p2p-start")
  const buy = id(app, "p2p-buy")
  await Promise.race([start.waitFor(), buy.waitFor()])
  if (await start.isVisible()) await start.click()
  await buy.waitFor()
}

const typeAmount = async (app: LaunchedApp, testId: string, value: string) => {
  const input = id(app, testId)
  await input.click()
  await input.press("ControlOrMeta+a")
  await input.pressSequentially(value)
}

describe("P2P reputation (issue 21)", () => {
  it("a trade and both ratings show on the list, the trader sheet, the order and the profile", async () => {
    const buyer = await launch(stack, { user: BUYER })
    const seller = await launch(stack, { user: SELLER, theme: "dark" })
    try {
      await openMarket(buyer)
      await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
      const card = buyer.app().locator('[data-testid^="p2p-offer-take-"]').first()
      const offerId = Number((await card.getAttribute("data-testid"))!.replace("p2p-offer-take-", ""))
      // Lena has no closed order yet.
      expect(await id(buyer, `p2p-offer-${offerId}`).innerText()).toContain("0 orders")
      await card.click()
      await buyer.waitForPath(`/p2p/offers/${offerId}`)
      await id(buyer, "p2p-trader").click()
      await expect.poll(() => text(buyer, "p2p-rep-all-rate")).toBe("No orders yet")
      await shot(buyer, "sheet-empty")
      await buyer.app().getByRole("button", { name: "Close" }).click()

      // Rhea buys 20 USDT; pays 2 minutes after the take; Lena releases 3 minutes later.
      await typeAmount(buyer, "p2p-take-amount", "1910")
      await buyer.app().getByRole("radio", { name: "SBP" }).check()
      await id(buyer, "p2p-take-submit").click()
      await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      const orderId = Number(/\/p2p\/orders\/(\d+)/.exec(await buyer.path())![1])
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("ACCEPTED")
      // No rating before the trade is done.
      expect(await id(buyer, "p2p-feedback").count()).toBe(0)
      stack.advanceClock(2 * 60_000)
      await id(buyer, "p2p-order-paid").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}/confirm-sent-payment`)
      await id(buyer, "p2p-confirm-sent-check").check()
      await id(buyer, "p2p-confirm-sent").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("PAID")

      stack.advanceClock(3 * 60_000)
      await seller.goto(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(seller, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("PAID")
      await id(seller, "p2p-order-received").click()
      await seller.waitForPath(`/p2p/orders/${orderId}/confirm-received-payment`)
      await id(seller, "p2p-confirm-received-check").check()
      await id(seller, "p2p-confirm-received").click()
      await seller.waitForPath(`/p2p/orders/${orderId}/success`)

      // The buyer's order page moves on to its success page, with the rating form.
      await buyer.waitForPath(`/p2p/orders/${orderId}/success`)
      await id(buyer, "p2p-feedback-form").waitFor()
      // Nothing is sent before a choice.
      expect(await id(buyer, "p2p-feedback-send").isDisabled()).toBe(true)
      await id(buyer, "p2p-feedback-positive").click()
      await id(buyer, "p2p-feedback-comment").fill("Quick and polite")
      await shot(buyer, "success-form")
      await id(buyer, "p2p-feedback-send").click()
      await id(buyer, "p2p-feedback-sent").waitFor()
      expect(await id(buyer, "p2p-feedback-mine").getAttribute("data-positive")).toBe("true")
      expect(await text(buyer, "p2p-feedback-mine")).toContain("Quick and polite")
      expect(await text(buyer, "p2p-feedback-theirs")).toContain("Not rated yet")
      await shot(buyer, "success-rated")

      // Lena (dark) rates Rhea on the completed order's page and sees Rhea's rating of her.
      await seller.goto(`/p2p/orders/${orderId}`)
      await id(seller, "p2p-feedback-form").waitFor()
      await expect.poll(() => text(seller, "p2p-feedback-theirs")).toContain("Quick and polite")
      await id(seller, "p2p-feedback-positive").click()
      await id(seller, "p2p-feedback-send").click()
      await id(seller, "p2p-feedback-mine").waitFor()
      await shot(seller, "order-dark")
      // The counterparty block opens the buyer's record: 1 order, paid after ~ 2 min.
      await id(seller, "p2p-trader").click()
      await expect.poll(() => text(seller, "p2p-rep-payment")).toBe("~ 2 min")
      expect(await text(seller, "p2p-rep-all-completed")).toBe("1")
      await shot(seller, "sheet-dark")
      await seller.app().getByRole("button", { name: "Close" }).click()

      // Lena's own profile: 30 days and all time, released after ~ 3 min, 100 % positive of 1.
      await seller.goto("/p2p/user")
      await expect.poll(() => text(seller, "p2p-rep-30d-completed")).toBe("1")
      expect(await text(seller, "p2p-rep-30d-rate")).toBe("100%")
      expect(await text(seller, "p2p-rep-all-completed")).toBe("1")
      expect(await text(seller, "p2p-rep-release")).toBe("~ 3 min")
      expect(await text(seller, "p2p-rep-feedback")).toBe("100% · 1 rating")
      expect(await id(seller, "p2p-rep-recent").first().innerText()).toContain("Quick and polite")
      await shot(seller, "profile-dark")
    } finally {
      await seller.page.close()
      await buyer.page.close()
    }
  }, 180_000)

  it("the record reads in Russian on the offer list and the trader sheet", async () => {
    const buyer = await launch(stack, { user: BUYER, language: "ru" })
    try {
      await openMarket(buyer)
      await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
      const card = buyer.app().locator('[data-testid^="p2p-offer-take-"]').first()
      const offerId = Number((await card.getAttribute("data-testid"))!.replace("p2p-offer-take-", ""))
      // Lena after the first test's trade: 1 order, 100 %, 100 % positive (the thumb's words are for screen readers).
      const line = buyer.app().locator(`[data-testid="p2p-offer-${offerId}"] [data-testid^="p2p-trader-line-"]`)
      const lineText = async () => (await line.innerText()).replace(/\s+/g, " ")
      await expect.poll(lineText).toContain("1 сделка · 100% · 100%")
      expect(await lineText()).toContain("100% положительных отзывов")
      await shot(buyer, "list-ru")
      await card.click()
      await id(buyer, "p2p-trader").click()
      await expect.poll(() => text(buyer, "p2p-rep-feedback")).toBe("100% · 1 отзыв")
      expect(await text(buyer, "p2p-rep-release")).toBe("~ 3 мин")
      await shot(buyer, "sheet-ru")
    } finally {
      await buyer.page.close()
    }
  }, 120_000)
})
