import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * Issue 21, express mode with the demo market: Lena sells USDT for RUB (auto-accept) and buys TON for
 * EUR; Rhea (a buyer new to the market) opens express from its start param, passes the onboarding,
 * enters an amount, sees the matched offer and confirms: the order opens with the crypto held.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ accessTokenTtlSeconds: 24 * 3600 })
})
afterAll(async () => {
  await stack?.close()
})

const BUYER = "kyc_review" as const
const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `p2p-express-${name}.png`) })
const id = (app: LaunchedApp, testId: string) => app.app().getByTestId(testId)
const text = (app: LaunchedApp, testId: string) => id(app, testId).innerText()

/** Types into the kit's amount field (select all, then the digits). */
const typeAmount = async (app: LaunchedApp, testId: string, value: string) => {
  const input = id(app, testId)
  await input.click()
  await input.press("ControlOrMeta+a")
  await input.pressSequentially(value)
}

const sql = <T>(statement: string, params: ReadonlyArray<unknown>) => stack.server.sql(statement, params) as Promise<Array<T>>

describe("P2P express mode (issue 21)", () => {
  it("an express buy: onboarding, an amount within the limits, the best offer, confirm, the order with the crypto held", async () => {
    const buyer = await launch(stack, { user: BUYER, startParam: "express" })
    try {
      // The start param opens express; a user new to it sees the onboarding first.
      await buyer.waitForPath("/p2p/express/onboarding")
      await id(buyer, "p2p-express-onboarding").waitFor()
      expect(await text(buyer, "p2p-express-onboarding-progress")).toBe("Step 1 of 3")
      await shot(buyer, "onboarding-1")
      await id(buyer, "p2p-express-onboarding-next").click()
      await id(buyer, "p2p-express-onboarding-next").click()
      expect(await id(buyer, "p2p-express-onboarding").getAttribute("data-step")).toBe("3")
      await id(buyer, "p2p-express-onboarding-hide").check()
      await shot(buyer, "onboarding-3")
      await id(buyer, "p2p-express-onboarding-start").click()
      await buyer.waitForPath("/p2p/express/buy")

      // The demo market's pair: USDT for RUB (Lena sells 95.50 a USDT, 1,000–40,000 RUB an order).
      await id(buyer, "p2p-express-crypto-USDT").click()
      await id(buyer, "p2p-express-fiat").selectOption("RUB")
      // Amounts in rubles (the unit is kept in the P2P settings).
      await buyer.app().getByRole("radio", { name: "RUB" }).click()
      await expect.poll(() => text(buyer, "p2p-express-limits")).toMatch(/1,000.*40,000/)
      await typeAmount(buyer, "p2p-express-amount", "500")
      expect(await text(buyer, "p2p-express-problem")).toContain("1,000")
      expect(await id(buyer, "p2p-express-confirm").isDisabled()).toBe(true)
      await shot(buyer, "below-min")

      await typeAmount(buyer, "p2p-express-amount", "2000")
      const match = id(buyer, "p2p-express-match")
      await match.waitFor()
      const offerId = Number(await match.getAttribute("data-offer-id"))
      expect(await text(buyer, "p2p-express-merchant")).toContain("Lena Level")
      expect(await text(buyer, "p2p-express-price")).toContain("95.5")
      expect(await text(buyer, "p2p-express-pay")).toContain("2,000")
      expect(await text(buyer, "p2p-express-receive")).toContain("USDT")
      await shot(buyer, "match")
      await id(buyer, "p2p-express-confirm").scrollIntoViewIfNeeded()
      expect(await id(buyer, "p2p-express-confirm").isDisabled()).toBe(false)
      await shot(buyer, "match-confirm")
      const [escrowBefore] = await sql<{ held: string }>("select held::text as held from ledger_accounts where owner = $1 and currency = 'USDT'", [
        `p2p:offer:${offerId}`,
      ])

      await id(buyer, "p2p-express-confirm").click()
      await buyer.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      const orderId = Number(/\/p2p\/orders\/(\d+)/.exec(await buyer.path())![1])
      // Lena's offer accepts at once; a manual one would wait REQUESTED.
      await expect.poll(() => id(buyer, "p2p-order").getAttribute("data-status"), { timeout: 15_000 }).toMatch(/^(ACCEPTED|REQUESTED)$/)
      await shot(buyer, "order")

      // The order is a real one of that offer, its crypto held in the Ledger from the offer's escrow.
      const [order] = await sql<{ offer_id: string; fiat_amount: string; hold_amount: string; hold_id: string }>(
        "select offer_id::text as offer_id, fiat_amount::text as fiat_amount, hold_amount::text as hold_amount, hold_id::text as hold_id from p2p_orders where id = $1",
        [orderId],
      )
      expect(Number(order!.offer_id)).toBe(offerId)
      expect(order!.fiat_amount).toBe("200000")
      const [hold] = await sql<{ status: string; amount: string }>("select status, amount::text as amount from ledger_holds where id = $1", [order!.hold_id])
      expect(hold).toEqual({ status: "pending", amount: order!.hold_amount })
      const [escrowAfter] = await sql<{ held: string }>("select held::text as held from ledger_accounts where owner = $1 and currency = 'USDT'", [
        `p2p:offer:${offerId}`,
      ])
      expect(BigInt(escrowAfter!.held) - BigInt(escrowBefore?.held ?? "0")).toBe(BigInt(order!.hold_amount))
      const [request] = await sql<{ status: string; order_id: string }>(
        "select status, order_id::text as order_id from p2p_express_requests where order_id = $1",
        [orderId],
      )
      expect(request).toEqual({ status: "MATCHED", order_id: String(orderId) })

      // Back in express: the current request shows the order; another waits until it is over.
      await buyer.goto("/p2p/express")
      const current = id(buyer, "p2p-express-current")
      await current.waitFor()
      expect(await current.getAttribute("data-status")).toBe("MATCHED")
      expect(await current.getAttribute("data-order-status")).toMatch(/^(ACCEPTED|REQUESTED)$/)
      await id(buyer, "p2p-express-blocked").waitFor()
      await shot(buyer, "current")
      await current.click()
      await buyer.waitForPath(`/p2p/orders/${orderId}`)
    } finally {
      await buyer.page.close()
    }
  }, 180_000)

  it("in Russian, dark: from the P2P home, no onboarding again; selling asks for payment details first", async () => {
    const user = await launch(stack, { user: BUYER, language: "ru", theme: "dark" })
    try {
      await user.waitForPath("/main")
      await user.goto("/p2p")
      await id(user, "p2p-express-entry").click()
      // "Don't show again" was kept in the settings: a new app session goes straight in.
      await user.waitForPath("/p2p/express")
      await id(user, "p2p-express").waitFor()
      await id(user, "p2p-express-current").waitFor()
      await user.app().getByRole("radio", { name: "Продать" }).click()
      await user.waitForPath("/p2p/express/sell")
      // Lena buys TON for EUR: the user has no EUR details for the buyer to pay to.
      await id(user, "p2p-express-crypto-TON").click()
      await id(user, "p2p-express-fiat").selectOption("EUR")
      await user.app().getByRole("radio", { name: "EUR" }).click()
      await typeAmount(user, "p2p-express-amount", "50")
      await id(user, "p2p-express-no-match").waitFor()
      expect(await text(user, "p2p-express-no-match")).toContain("реквизиты")
      await id(user, "p2p-express-add-details").waitFor()
      await shot(user, "sell-ru-dark")
    } finally {
      await user.page.close()
    }
  }, 120_000)
})
