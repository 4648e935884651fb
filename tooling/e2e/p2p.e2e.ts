import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { demoUserId, openOperatorConsole, PNG } from "./support/ops.ts"

/**
 * Issue 20, the P2P market with two demo users: Lena (level 2, funded by the dev market) sells, Rhea
 * (level 1) buys. The server's clock is a fake one the test moves to run a payment window out.
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
const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `p2p-${name}.png`) })
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

/** Types into the kit's amount field (select all, then the digits). */
const typeAmount = async (app: LaunchedApp, testId: string, value: string) => {
  const input = id(app, testId)
  await input.click()
  await input.press("ControlOrMeta+a")
  await input.pressSequentially(value)
}

/** A Ledger account's spendable balance (minor units), read from the stack's database. */
const ledgerBalance = async (owner: string, currency: string): Promise<bigint> => {
  const rows = (await stack.server.sql("select balance::text as balance from ledger_accounts where owner = $1 and currency = $2", [owner, currency])) as Array<{
    balance: string
  }>
  return rows[0] === undefined ? 0n : BigInt(rows[0].balance)
}
const TON = 1_000_000_000n

const orderIdOf = async (app: LaunchedApp) => Number(/\/p2p\/orders\/(\d+)/.exec(await app.path())![1])

describe("P2P market (issue 20)", () => {
  it("a seller publishes an offer (its crypto held), a buyer takes part, pays, the seller releases", async () => {
    const seller = await launch(stack, { user: SELLER })
    const buyer = await launch(stack, { user: BUYER })
    try {
      const sellerId = await demoUserId(stack, SELLER)
      const buyerId = await demoUserId(stack, BUYER)
      const sellerTon = await ledgerBalance(`user:${sellerId}`, "TON")
      const buyerTon = await ledgerBalance(`user:${buyerId}`, "TON")
      await openMarket(seller)
      await seller.goto("/p2p/offers/create?offerType=SALE")
      expect(await text(seller, "p2p-offer-step")).toContain("1")
      await id(seller, "p2p-offer-crypto-TON").click()
      await id(seller, "p2p-offer-fiat").selectOption("RUB")
      await typeAmount(seller, "p2p-offer-price", "300")
      await shot(seller, "create-step1")
      await id(seller, "p2p-offer-next").click()
      await typeAmount(seller, "p2p-offer-volume", "10")
      await typeAmount(seller, "p2p-offer-min", "500")
      await typeAmount(seller, "p2p-offer-max", "3000")
      await seller.app().locator('[data-testid^="p2p-offer-details-"]').first().click()
      // 10 TON and the 0.9 % maker fee on it are held while the ad is active.
      expect(await text(seller, "p2p-offer-hold")).toContain("10.09")
      await shot(seller, "create-step2")
      await id(seller, "p2p-offer-next").click()
      await id(seller, "p2p-offer-window-15").click()
      await shot(seller, "create-step3")
      await id(seller, "p2p-offer-preview").click()
      await id(seller, "p2p-offer-publish").click()
      await seller.app().waitForFunction(() => /\/p2p\/offers\/\d+\/success/.test(window.location.pathname))
      const offerId = Number(/\/p2p\/offers\/(\d+)/.exec(await seller.path())![1])
      await shot(seller, "published")
      await seller.goto("/p2p/user")
      await id(seller, `p2p-my-offer-${offerId}`).waitFor()
      // Held: 10 TON and the 0.9 % maker fee left the seller's balance for the offer's escrow.
      expect(await ledgerBalance(`user:${sellerId}`, "TON")).toBe(sellerTon - 10_090_000_000n)
      expect(await ledgerBalance(`p2p:offer:${offerId}`, "TON")).toBe(10_090_000_000n)

      // The buyer finds it and takes 5 TON for 1,500 RUB.
      await openMarket(buyer)
      await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=TON")
      await id(buyer, `p2p-offer-${offerId}`).waitFor()
      await shot(buyer, "list")
      await id(buyer, `p2p-offer-take-${offerId}`).click()
      await buyer.waitForPath(`/p2p/offers/${offerId}`)
      await typeAmount(buyer, "p2p-take-amount", "1500")
      await buyer.app().getByRole("radio", { name: "SBP" }).check()
      expect(await text(buyer, "p2p-take-receive")).toContain("5")
      await shot(buyer, "take")
      await id(buyer, "p2p-take-submit").click()
      await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      const orderId = await orderIdOf(buyer)
      // Without auto-accept the seller accepts the request first.
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("REQUESTED")
      await shot(buyer, "order-requested")
      await seller.goto(`/p2p/orders/${orderId}`)
      await id(seller, "p2p-order-accept").click()
      await expect.poll(() => id(seller, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("ACCEPTED")
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("ACCEPTED")
      expect(await text(buyer, "p2p-order-fiat")).toContain("1,500")
      // The seller's SBP details show to the buyer.
      expect(await text(buyer, "p2p-order-field-phone")).toContain("+79161234567")
      await shot(buyer, "order-accepted")

      await id(buyer, "p2p-order-paid").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}/confirm-sent-payment`)
      await id(buyer, "p2p-confirm-sent-check").check()
      await shot(buyer, "confirm-sent")
      await id(buyer, "p2p-confirm-sent").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("PAID")

      // The seller releases from the order page (opened from the bot's link).
      await seller.goto(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(seller, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("PAID")
      await shot(seller, "order-paid")
      await id(seller, "p2p-order-received").click()
      await seller.waitForPath(`/p2p/orders/${orderId}/confirm-received-payment`)
      await id(seller, "p2p-confirm-received-check").check()
      await id(seller, "p2p-confirm-received").click()
      await seller.waitForPath(`/p2p/orders/${orderId}/success`)
      await shot(seller, "order-success")

      // Balances: the buyer got 5 TON (no taker fee); the ad keeps 5 TON and its fee room; the seller's own balance did not move again.
      expect(await ledgerBalance(`user:${buyerId}`, "TON")).toBe(buyerTon + 5n * TON)
      expect(await ledgerBalance(`p2p:offer:${offerId}`, "TON")).toBe(5_045_000_000n)
      expect(await ledgerBalance(`user:${sellerId}`, "TON")).toBe(sellerTon - 10_090_000_000n)
      await seller.goto("/p2p/user")
      await expect.poll(() => id(seller, `p2p-my-offer-${offerId}`).innerText()).toContain("5 TON")
      // Both see the completed order in their history.
      await seller.goto("/p2p?filter=completed")
      await id(seller, `p2p-order-row-${orderId}`).waitFor()
      await buyer.goto("/p2p?filter=completed")
      await id(buyer, `p2p-order-row-${orderId}`).waitFor()
      await shot(buyer, "history-completed")
    } finally {
      await seller.page.close()
      await buyer.page.close()
    }
  }, 180_000)

  it("an unpaid order expires when its payment window runs out (fake clock) and its volume returns to the offer", async () => {
    const buyer = await launch(stack, { user: BUYER })
    try {
      await openMarket(buyer)
      await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
      const card = buyer.app().locator('[data-testid^="p2p-offer-take-"]').first()
      const offerId = Number((await card.getAttribute("data-testid"))!.replace("p2p-offer-take-", ""))
      await card.click()
      await buyer.waitForPath(`/p2p/offers/${offerId}`)
      const before = await text(buyer, "p2p-offer-available")
      await typeAmount(buyer, "p2p-take-amount", "1910")
      await buyer.app().getByRole("radio", { name: "SBP" }).check()
      await id(buyer, "p2p-take-submit").click()
      await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      const orderId = await orderIdOf(buyer)
      // The demo offer accepts at once: 15 minutes to pay.
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("ACCEPTED")
      await buyer.goto(`/p2p/offers/${offerId}`)
      await expect.poll(() => text(buyer, "p2p-offer-available")).not.toBe(before)

      stack.advanceClock(16 * 60_000)
      await buyer.goto(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("EXPIRED")
      await shot(buyer, "order-expired")
      await buyer.goto(`/p2p/offers/${offerId}`)
      await expect.poll(() => text(buyer, "p2p-offer-available"), { timeout: 15_000 }).toBe(before)
      await buyer.goto("/p2p?filter=canceled")
      await id(buyer, `p2p-order-row-${orderId}`).waitFor()
    } finally {
      await buyer.page.close()
    }
  }, 120_000)

  // Bug: a second take of the same offer from the same screen replayed the first order (one idempotency key per screen).
  it("the strip above the tab bar counts the active orders (Russian, dark theme); a second take is a second order", async () => {
    const buyer = await launch(stack, { user: BUYER, language: "ru", theme: "dark" })
    try {
      await openMarket(buyer)
      await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
      const card = buyer.app().locator('[data-testid^="p2p-offer-take-"]').first()
      const offerId = Number((await card.getAttribute("data-testid"))!.replace("p2p-offer-take-", ""))
      for (const amount of ["1100", "1200"]) {
        await buyer.goto(`/p2p/offers/${offerId}`)
        await typeAmount(buyer, "p2p-take-amount", amount)
        await buyer.app().getByRole("radio", { name: "СБП" }).check()
        await id(buyer, "p2p-take-submit").click()
        await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      }
      await buyer.goto("/p2p")
      const strip = id(buyer, "p2p-strip")
      await expect.poll(() => strip.innerText(), { timeout: 15_000 }).toMatch(/(^|\s)2\s/)
      expect(await strip.innerText()).toMatch(/актив/i)
      await shot(buyer, "strip-ru-dark")
      await strip.click()
      await buyer.waitForPath("/p2p")
      await buyer.app().locator('[data-testid="p2p-orders"][data-filter="active"]').waitFor()
      // One cancelled: the strip opens the one left.
      const rows = buyer.app().locator('[data-testid^="p2p-order-row-"]')
      await expect.poll(() => rows.count()).toBe(2)
      await rows.first().click()
      await id(buyer, "p2p-order-cancel").click()
      await id(buyer, "p2p-order-cancel-confirm").click()
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("CANCELLED")
      await shot(buyer, "order-cancelled-ru-dark")
      // The strip shows with the tab bar (on the tabs' pages).
      await buyer.goto("/p2p")
      await expect.poll(() => strip.innerText(), { timeout: 15_000 }).toMatch(/(^|\s)1\s/)
      await strip.click()
      await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      expect(await id(buyer, "p2p-order").getAttribute("data-status")).toBe("ACCEPTED")
    } finally {
      await buyer.page.close()
    }
  }, 120_000)

  it("issue 21: the seller does not release; the buyer appeals; support releases to the buyer in the operator console", async () => {
    const seller = await launch(stack, { user: SELLER })
    const buyer = await launch(stack, { user: BUYER })
    const buyerId = await demoUserId(stack, BUYER)
    const buyerUsdt = await ledgerBalance(`user:${buyerId}`, "USDT")
    try {
      await openMarket(buyer)
      await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
      const card = buyer.app().locator('[data-testid^="p2p-offer-take-"]').first()
      await card.click()
      await typeAmount(buyer, "p2p-take-amount", "1300")
      await buyer.app().getByRole("radio", { name: "SBP" }).check()
      await id(buyer, "p2p-take-submit").click()
      await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      const orderId = await orderIdOf(buyer)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("ACCEPTED")
      await id(buyer, "p2p-order-paid").click()
      await id(buyer, "p2p-confirm-sent-check").check()
      await id(buyer, "p2p-confirm-sent").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("PAID")

      // The seller does not release: the buyer asks support.
      await id(buyer, "p2p-order-appeal").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}/help`)
      // A wrong amount is first sent back to the chat (the refund step); going on shows the statement.
      await id(buyer, "p2p-help-issue-paid_wrong_amount").click()
      await id(buyer, "p2p-help-refund").waitFor()
      expect(await buyer.app().getByLabel("Your statement").count()).toBe(0)
      await shot(buyer, "help-refund")
      await id(buyer, "p2p-help-refund-skip").click()
      await buyer.app().getByLabel("Your statement").waitFor()
      await id(buyer, "p2p-help-issue-seller_not_releasing").click()
      await buyer.app().getByLabel("Your statement").fill("Paid 1,300 RUB by SBP at 10:02 from T-Bank, account ending 4821")
      await id(buyer, "p2p-receipt-input").setInputFiles({ name: "sbp-receipt.png", mimeType: "image/png", buffer: PNG })
      await expect.poll(() => id(buyer, "p2p-receipt-pending").count(), { timeout: 15_000 }).toBe(1)
      await shot(buyer, "help")
      await id(buyer, "p2p-help-submit").click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("IN_APPEAL")
      expect(await id(buyer, "p2p-appeal-status").getAttribute("data-status")).toBe("OPEN")
      await shot(buyer, "appeal-open")

      // The seller answers in the order.
      await seller.goto(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(seller, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("IN_APPEAL")
      await seller.app().getByLabel("Another statement").fill("Nothing has arrived in my T-Bank account yet")
      await id(seller, "p2p-appeal-add").click()
      await expect.poll(() => seller.app().getByTestId("p2p-appeal-statement").count()).toBe(2)

      // Support decides in the console (its own login, in the browser).
      const { ops, close } = await openOperatorConsole(stack, { name: "p2p-e2e-support", password: "a long enough support password" }, "/ops/p2p")
      try {
        await ops.getByRole("link", { name: `#${orderId}` }).click()
        await ops.getByText("account ending 4821").waitFor()
        await ops.getByText("Nothing has arrived").waitFor()
        await ops.locator('img[alt^="Receipt from the buyer"]').waitFor()
        await ops.getByLabel("Release the crypto to the buyer").check()
        await ops.getByLabel("Note to both sides").fill("The bank statement shows the transfer")
        await ops.screenshot({ path: join(screenshotDir, "p2p-ops-appeal.png"), fullPage: true })
        await ops.getByRole("button", { name: "Decide" }).click()
        await ops.getByRole("status").waitFor()
        expect(await ops.getByRole("status").innerText()).toContain(`Order #${orderId}: BUYER`)
      } finally {
        await close()
      }

      // Both see the outcome: the buyer's order completes (its success page), the seller's shows support's decision.
      await buyer.waitForPath(`/p2p/orders/${orderId}/success`)
      await seller.goto(`/p2p/orders/${orderId}`)
      await expect.poll(() => id(seller, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toBe("COMPLETED")
      expect(await id(seller, "p2p-appeal-status").getAttribute("data-status")).toBe("RESOLVED")
      await shot(seller, "appeal-resolved")
      // The order's crypto reached the buyer through the Ledger, and the Ledger's books still balance.
      const amount = BigInt((await stack.server.sql("select amount::text as amount from p2p_orders where id = $1", [orderId]))[0]!.amount as string)
      expect(await ledgerBalance(`user:${buyerId}`, "USDT")).toBe(buyerUsdt + amount)
      const audit = await stack.server.ledgerAudit()
      expect(audit.violations).toEqual([])
      expect(audit.ok).toBe(true)
    } finally {
      await seller.page.close()
      await buyer.page.close()
    }
  }, 180_000)
})
