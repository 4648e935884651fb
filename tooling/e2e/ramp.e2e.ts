import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { demoUserId as demoUserIdOf } from "./support/ops.ts"

/**
 * Issue 23: buying crypto for fiat on the custodial side, as a user would. The mini-app opens the
 * MoonPay-like sandbox's page (`host/partners`) with the URL the wallet's server signed; the user pays
 * with a test card there; the provider's signed webhooks credit the wallet through the Ledger once.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ ramp: true })
})
afterAll(async () => {
  await stack?.close()
})

const openedLinks = (app: LaunchedApp) => app.telegram<string[]>("t.callsOf('web_app_open_link').map((c) => c.params.url)")

/** From the purchase options to the provider: the widget URL the mini-app opened. */
const startPurchase = async (app: LaunchedApp, amount: string, shots = false) => {
  await app.goto("/purchase-options")
  await app.app().getByTestId("ramp-buy-TON").waitFor()
  if (shots) await app.page.screenshot({ path: join(screenshotDir, "ramp-purchase-options.png") })
  await app.app().getByTestId("ramp-buy-TON").click()
  await app.waitForPath("/assets/ramp/onramp/onramp-amount")
  await app.app().getByTestId("ramp-amount").fill(amount)
  await app.app().getByTestId("ramp-method-card").click()
  if (shots) await app.page.screenshot({ path: join(screenshotDir, "ramp-onramp-amount.png") })
  await app.app().getByTestId("ramp-continue").click()
  await app.waitForPath("/assets/ramp/onramp/onramp-provider")
  await app.app().getByTestId("ramp-provider-moonpay").waitFor()
  if (shots) await app.page.screenshot({ path: join(screenshotDir, "ramp-onramp-provider.png") })
  await app.app().getByTestId("ramp-provider-moonpay").click()
  await app.waitForPath("/assets/ramp/asterium-trx-status")
  await expect.poll(async () => (await openedLinks(app)).length, { timeout: 10_000 }).toBeGreaterThan(0)
  return (await openedLinks(app)).at(-1)!
}

/** On the provider's page (a browser tab of its own): the card form, then pay. */
const payWithCard = async (url: string, number: string) => {
  const context = await stack.browser.newContext()
  const page = await context.newPage()
  try {
    await page.goto(url)
    await page.getByTestId("ramp-card").fill(number)
    await page.getByTestId("ramp-expiry").fill("12/39")
    await page.getByTestId("ramp-cvc").fill("123")
    await page.getByTestId("ramp-holder").fill("Test User")
    await page.getByTestId("ramp-pay").click()
    await page.waitForURL((target) => !target.pathname.endsWith("/moonpay/buy"), { timeout: 15_000 })
  } finally {
    await context.close()
  }
}

describe("buying crypto with a card, custodial side (issue 23)", () => {
  it("buys TON with the approved test card and sees it credited once", async () => {
    const userId = await demoUserIdOf(stack, "kyc_level2")
    const app = await launch(stack, { user: "kyc_level2" })
    try {
      await app.waitForPath("/main")
      const url = await startPurchase(app, "50", true)
      expect(new URL(url).searchParams.get("signature")).not.toBeNull()
      await payWithCard(url, "4242 4242 4242 4242")
      await app.waitForPath("/purchase-success")
      await app.app().getByTestId("ramp-purchase-success").waitFor()
      await app.page.screenshot({ path: join(screenshotDir, "ramp-purchase-success.png") })
      const rows = await stack.server.sql("select id, status from ramp_transactions where user_id = $1", [userId])
      expect(rows).toHaveLength(1)
      expect(rows[0]!.status).toBe("COMPLETED")
      await stack.ramp!.idle()
      const credits = await stack.server.sql("select count(*)::int as n from ledger_transactions where idempotency_key = $1", [`ramp:${rows[0]!.id}:credit`])
      expect(Number(credits[0]!.n)).toBe(1)
    } finally {
      await app.page.close()
    }
  })

  it("a declined card ends on the purchase failed screen with nothing credited", async () => {
    const userId = await demoUserIdOf(stack, "balances")
    const app = await launch(stack, { user: "balances" })
    try {
      await app.waitForPath("/main")
      const url = await startPurchase(app, "30")
      await payWithCard(url, "4000 0000 0000 0002")
      await app.waitForPath("/purchase-failed")
      await app.app().getByText("Your card was declined").waitFor()
      const rows = await stack.server.sql("select status from ramp_transactions where user_id = $1 order by created_at desc limit 1", [userId])
      expect(rows[0]!.status).toBe("FAILED")
    } finally {
      await app.page.close()
    }
  })

  it("a 3-D Secure payment: after the challenge the status page follows it until the purchase completes, credited once", async () => {
    const userId = await demoUserIdOf(stack, "balances")
    const app = await launch(stack, { user: "balances" })
    try {
      await app.waitForPath("/main")
      const url = await startPurchase(app, "40")
      const context = await stack.browser.newContext()
      const page = await context.newPage()
      try {
        await page.goto(url)
        await page.getByTestId("ramp-card").fill("4000 0000 0000 3220")
        await page.getByTestId("ramp-expiry").fill("12/39")
        await page.getByTestId("ramp-cvc").fill("123")
        await page.getByTestId("ramp-holder").fill("Test User")
        await page.getByTestId("ramp-pay").click()
        await page.getByTestId("ramp-3ds-complete").click()
      } finally {
        await context.close()
      }
      await app.waitForPath("/purchase-success")
      const rows = await stack.server.sql("select id, status from ramp_transactions where user_id = $1 order by created_at desc limit 1", [userId])
      expect(rows[0]!.status).toBe("COMPLETED")
      const credits = await stack.server.sql("select count(*)::int as n from ledger_transactions where idempotency_key = $1", [`ramp:${rows[0]!.id}:credit`])
      expect(Number(credits[0]!.n)).toBe(1)
    } finally {
      await app.page.close()
    }
  })

  it("sells USDT: the crypto is held when the sale starts and paid out once when the provider completes", async () => {
    const userId = await demoUserIdOf(stack, "balances")
    const app = await launch(stack, { user: "balances" })
    try {
      await app.waitForPath("/main")
      await app.goto("/sell-options")
      await app.app().getByTestId("ramp-sell-USDT").click()
      await app.waitForPath("/assets/ramp/offramp/offramp-amount")
      await app.app().getByTestId("ramp-amount").fill("25")
      await app.app().getByTestId("ramp-continue").click()
      await app.waitForPath("/assets/ramp/offramp/offramp-provider")
      const before = (await openedLinks(app)).length
      await app.app().getByTestId("ramp-provider-moonpay").click()
      await app.waitForPath("/assets/ramp/asterium-trx-status")
      await expect.poll(async () => (await openedLinks(app)).length, { timeout: 10_000 }).toBeGreaterThan(before)
      const url = (await openedLinks(app)).at(-1)!
      const [row] = await stack.server.sql(
        "select id, hold_id::text as hold from ramp_transactions where user_id = $1 and direction = 'sell' order by created_at desc limit 1",
        [userId],
      )
      expect(row!.hold).not.toBeNull()
      const context = await stack.browser.newContext()
      const page = await context.newPage()
      try {
        await page.goto(url)
        await page.getByTestId("ramp-sell-confirm").click()
        // MoonPay's deposit page: the custodial wallet sends the crypto itself (the server announces the deposit).
        await page.waitForURL((target) => target.pathname.startsWith("/moonpay/sell/transactions/"), { timeout: 15_000 })
      } finally {
        await context.close()
      }
      await app.waitForPath("/assets/ramp/offramp/offramp-success")
      await app.app().getByText("You sold 25 USDT").waitFor()
      await app.page.screenshot({ path: join(screenshotDir, "ramp-sell-success.png") })
      const posts = await stack.server.sql("select count(*)::int as n from ledger_transactions where idempotency_key = $1", [`ramp:${row!.id}:post`])
      expect(Number(posts[0]!.n)).toBe(1)
    } finally {
      await app.page.close()
    }
  })

  it("an invalid status link is rejected to an error screen", async () => {
    const app = await launch(stack, { user: "balances" })
    try {
      await app.waitForPath("/main")
      await app.goto("/assets/ramp/asterium-trx-status?external_transaction_id=x&direction=swap&amount=1&currency=TON")
      await app.app().getByText("This link is not valid").waitFor()
    } finally {
      await app.page.close()
    }
  })
})
