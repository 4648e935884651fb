import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { demoUserId, openOperatorConsole } from "./support/ops.ts"

/**
 * Issue 21, trusted merchants and the order-history export, with two demo users: Lena (level 2, the
 * dev market's seller) applies and gets the badge; Rhea (level 1) does not qualify, sees the badge on
 * Lena's ad, and exports her history. The thresholds are lowered for the stack (the demo users are
 * created with it: no 30-day-old account, no 20 orders), all but the verification level.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({
    accessTokenTtlSeconds: 24 * 3600,
    pluginConfig: { p2p: { trustedMerchant: { minLevel: 2, minCompletedOrders30d: 0, minCompletionRatePercent: 0, minAccountAgeDays: 0 } } },
  })
})
afterAll(async () => {
  await stack?.close()
})

const SELLER = "kyc_level2" as const
const BUYER = "kyc_review" as const
const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `p2p-merchant-${name}.png`) })
const id = (app: LaunchedApp, testId: string) => app.app().getByTestId(testId)

/** Opens /p2p and passes the market's onboarding once. */
const openMarket = async (app: LaunchedApp) => {
  await app.waitForPath("/main")
  await app.goto("/p2p")
  const start = id(app, "p2p-start")
  const buy = id(app, "p2p-buy")
  await Promise.race([start.waitFor(), buy.waitFor()])
  if (await start.isVisible()) await start.click()
  await buy.waitFor()
}

/** Lena's demo ad (USDT for RUB) in the list Rhea sees. */
const lenasAd = (app: LaunchedApp) => app.app().locator('article[data-testid^="p2p-offer-"]').filter({ hasText: "Lena Level" }).first()

describe("P2P trusted merchants and export (issue 21)", () => {
  it("a merchant who meets the criteria applies, support approves in the console, and another user sees the badge on her ad", async () => {
    const rhea = await launch(stack, { user: BUYER })
    try {
      // Rhea is at level 1: the verification criterion is not met, so there is no Apply button.
      await openMarket(rhea)
      await rhea.goto("/p2p/trusted-merchant-application")
      await expect.poll(() => id(rhea, "p2p-merchant-criterion-verification").getAttribute("data-met")).toBe("false")
      expect(await id(rhea, "p2p-merchant-criterion-accountAge").getAttribute("data-met")).toBe("true")
      expect(await id(rhea, "p2p-merchant-criterion-verification").innerText()).toContain("Your level: 1")
      await id(rhea, "p2p-merchant-not-yet").waitFor()
      expect(await id(rhea, "p2p-merchant-apply").count()).toBe(0)
      await shot(rhea, "not-met")
    } finally {
      await rhea.page.close()
    }

    // Lena opens the application from its start param.
    const lena = await launch(stack, { user: SELLER, startParam: "p2pTrustedMerchantApplication" })
    const lenaId = await demoUserId(stack, SELLER)
    try {
      await lena.waitForPath("/p2p/trusted-merchant-application")
      const apply = id(lena, "p2p-merchant-apply")
      await apply.waitFor()
      for (const criterion of ["verification", "orders30d", "completionRate", "accountAge"]) {
        expect(await id(lena, `p2p-merchant-criterion-${criterion}`).getAttribute("data-met")).toBe("true")
      }
      await shot(lena, "apply")
      await apply.click()
      await expect.poll(() => id(lena, "p2p-merchant-application").getAttribute("data-status"), { timeout: 15_000 }).toBe("PENDING")
      expect(await apply.count()).toBe(0)
      await shot(lena, "pending")

      // Support approves in the console (its own login, in the browser).
      const { ops, close } = await openOperatorConsole(stack, { name: "p2p-e2e-merchants", password: "a long enough support password" }, "/ops/p2p/merchants")
      try {
        const row = ops.locator(`tr[data-user="${lenaId}"]`)
        await row.waitFor()
        expect(await row.innerText()).toContain("Lena Level")
        await ops.screenshot({ path: join(screenshotDir, "p2p-merchant-ops-queue.png"), fullPage: true })
        await row.getByRole("button", { name: /^Approve application/ }).click()
        await ops.getByRole("status").waitFor()
        expect(await ops.getByRole("status").innerText()).toContain(`(user ${lenaId}) approved`)
        await ops.locator(`tr[data-merchant-approved][data-user="${lenaId}"]`).waitFor()
      } finally {
        await close()
      }
      const audit = (await stack.server.sql("select target from operator_audit where action = 'p2p.merchant.approve'")) as Array<{ target: string }>
      expect(audit.map((entry) => entry.target)).toEqual([expect.stringContaining(`user ${lenaId}`)])

      // Lena reads the outcome: approved, the badge on the screen and on her profile.
      await lena.goto("/p2p/user")
      await id(lena, "p2p-user").getByRole("img", { name: "Trusted merchant" }).waitFor()
      await id(lena, "p2p-user-merchant").click()
      await lena.waitForPath("/p2p/trusted-merchant-application")
      await expect.poll(() => id(lena, "p2p-merchant-application").getAttribute("data-status"), { timeout: 15_000 }).toBe("APPROVED")
      await id(lena, "p2p-merchant-badge").waitFor()
    } finally {
      await lena.page.close()
    }

    // Rhea sees the badge on Lena's ad and on the ad's page (dark theme).
    const buyer = await launch(stack, { user: BUYER, theme: "dark" })
    try {
      await openMarket(buyer)
      await buyer.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
      const ad = lenasAd(buyer)
      await ad.waitFor()
      await ad.getByRole("img", { name: "Trusted merchant" }).waitFor()
      await shot(buyer, "badge-list-dark")
      await ad.locator('[data-testid^="p2p-offer-take-"]').click()
      await id(buyer, "p2p-trader").getByTestId("p2p-trusted-badge").waitFor()
      await id(buyer, "p2p-trader").click()
      expect(await id(buyer, "p2p-trusted-row").innerText()).toContain("Support has checked this trader")
      await shot(buyer, "badge-offer-dark")
    } finally {
      await buyer.page.close()
    }

    // In Russian: Lena's approved application and the badge's Russian name.
    const lenaRu = await launch(stack, { user: SELLER, language: "ru", theme: "dark" })
    try {
      await lenaRu.waitForPath("/main")
      await lenaRu.goto("/p2p/trusted-merchant-application")
      await expect.poll(() => id(lenaRu, "p2p-merchant-application").getAttribute("data-status"), { timeout: 15_000 }).toBe("APPROVED")
      expect(await id(lenaRu, "p2p-merchant-application").innerText()).toContain("Вы надёжный продавец")
      await lenaRu.app().getByRole("img", { name: "Надёжный продавец" }).first().waitFor()
      await shot(lenaRu, "approved-ru-dark")
    } finally {
      await lenaRu.page.close()
    }
  }, 240_000)

  it("the export screen hands the CSV to the Telegram client once; a cancelled download goes to the chat; an old client gets the link in the chat", async () => {
    const rhea = await launch(stack, { user: BUYER })
    const rheaId = await demoUserId(stack, BUYER)
    try {
      // One order to export: Rhea takes Lena's demo ad.
      await openMarket(rhea)
      await rhea.goto("/p2p/offers/list/SALE?fiatCurrency=RUB&crypto=USDT")
      await lenasAd(rhea).locator('[data-testid^="p2p-offer-take-"]').click()
      const amount = id(rhea, "p2p-take-amount")
      await amount.click()
      await amount.press("ControlOrMeta+a")
      await amount.pressSequentially("1100")
      await rhea.app().getByRole("radio", { name: "SBP" }).check()
      await id(rhea, "p2p-take-submit").click()
      await rhea.app().waitForFunction(() => /^\/p2p\/orders\/\d+$/.test(window.location.pathname))
      const orderId = Number(/\/p2p\/orders\/(\d+)/.exec(await rhea.path())![1])

      // From the profile to the export.
      await rhea.goto("/p2p/user")
      await id(rhea, "p2p-user-export").click()
      await rhea.waitForPath("/p2p/export-order-history")
      await rhea.app().getByRole("radio", { name: "All time" }).click()
      await shot(rhea, "export")
      await id(rhea, "p2p-export-submit").click()
      await expect.poll(() => id(rhea, "p2p-export-result").getAttribute("data-outcome"), { timeout: 15_000 }).toBe("downloading")
      await shot(rhea, "export-downloading")

      // The fake Telegram client fetched the link as Telegram does (a plain GET): the CSV, as an attachment.
      await expect.poll(() => rhea.telegram<number | undefined>("t.downloads[0]?.status"), { timeout: 15_000 }).toBe(200)
      const download = await rhea.telegram<{ url: string; fileName: string; contentType: string; disposition: string; body: string }>("t.downloads[0]")
      expect(download.fileName).toMatch(/^p2p-orders-all-\d{4}-\d{2}-\d{2}\.csv$/)
      expect(download.contentType).toBe("text/csv; charset=utf-8")
      expect(download.disposition).toBe(`attachment; filename="${download.fileName}"`)
      const lines = download.body.replace(/^\uFEFF/, "").split("\r\n")
      expect(lines[0]).toBe("order_id,created_at,status,side,crypto,amount,fiat,fiat_amount,price,fee,counterparty,payment_method,completed_at")
      expect(lines.some((line) => line.startsWith(`${orderId},`) && line.includes(",buyer,USDT,") && line.includes("Lena Level"))).toBe(true)
      // Used once: the same link is refused afterwards.
      expect(await rhea.page.evaluate(async (url) => (await fetch(url)).status, download.url)).toBe(410)

      // The user cancels Telegram's prompt: the screen offers the chat instead.
      await rhea.telegram("t.downloadAnswer = 'cancel'")
      await id(rhea, "p2p-export-submit").click()
      await expect.poll(() => id(rhea, "p2p-export-result").getAttribute("data-outcome"), { timeout: 15_000 }).toBe("cancelled")
      await id(rhea, "p2p-export-to-chat").click()
      await expect.poll(() => id(rhea, "p2p-export-result").getAttribute("data-outcome"), { timeout: 15_000 }).toBe("sent")
    } finally {
      await rhea.page.close()
    }
    const sent = (await stack.server.sql("select body from outbox_messages where recipient = $1 and subject = 'p2p.export.ready' order by id", [
      String(rheaId),
    ])) as Array<{ body: string }>
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toMatch(/\/api\/p2p\/export\/[A-Za-z0-9_-]{43}/)

    // A Telegram client older than 8.0 cannot download: the screen says so and the bot sends the link (Russian).
    const old = await launch(stack, { user: BUYER, language: "ru", client: { version: "7.10" } })
    try {
      await old.waitForPath("/main")
      await old.goto("/p2p/export-order-history")
      await id(old, "p2p-export-unsupported").waitFor()
      await id(old, "p2p-export-submit").click()
      await expect.poll(() => id(old, "p2p-export-result").getAttribute("data-outcome"), { timeout: 15_000 }).toBe("sent")
      expect(await id(old, "p2p-export-result").innerText()).toContain("Ссылка в чате с ботом")
      expect(await old.telegram<number>("t.callsOf('web_app_request_file_download').length")).toBe(0)
      await shot(old, "export-chat-ru")
    } finally {
      await old.page.close()
    }
    const after = (await stack.server.sql("select body from outbox_messages where recipient = $1 and subject = 'p2p.export.ready' order by id", [
      String(rheaId),
    ])) as Array<{ body: string }>
    expect(after).toHaveLength(2)
    expect(after[1]!.body).toContain("История ваших P2P-сделок готова")
  }, 240_000)
})
