import { join } from "node:path"
import type { FrameLocator } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { demoUserId as demoUserIdOf, openOperatorConsole, PNG } from "./support/ops.ts"

/**
 * Issue 19: level 2 through the verification partner, as a user and a support operator would do it.
 * The mini-app embeds the partner with the real `@sumsub/websdk-react`, pointed at the local Sumsub
 * sandbox (`host/partners`); the user uploads a document and a selfie in the partner's frame; the
 * operator decides on /ops/kyc; the partner's signed webhook brings the decision back to the wallet.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ partner: true })
})
afterAll(async () => {
  await stack?.close()
})

const OPERATOR = "kyc-reviewer"
const PASSWORD = "operator password for the partner e2e"

const openOps = async (userId: number) => {
  const console = await openOperatorConsole(stack, { name: OPERATOR, password: PASSWORD }, `/ops/kyc?user=${userId}`)
  await console.ops.getByRole("heading", { name: `Verification of user ${userId}` }).waitFor()
  return console
}

const demoUserId = (kind: string) => demoUserIdOf(stack, kind)

const partnerFrame = (app: LaunchedApp): FrameLocator => app.app().frameLocator(".kyc-partner-frame iframe")

/** In the partner's frame: an identity document and a selfie, then submit. */
const uploadAndSubmit = async (app: LaunchedApp, options: { readonly document?: boolean } = {}) => {
  const frame = partnerFrame(app)
  if (options.document !== false) {
    await frame.getByTestId("sumsub-doc-type").selectOption("PASSPORT")
    await frame.getByTestId("sumsub-doc-file").setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: PNG })
  }
  await frame.getByTestId("sumsub-selfie-file").setInputFiles({ name: "selfie.png", mimeType: "image/png", buffer: PNG })
  const submit = frame.getByTestId("sumsub-submit")
  await expect.poll(() => submit.isEnabled()).toBe(true)
  await submit.click()
}

const decide = async (userId: number, act: (ops: Awaited<ReturnType<typeof openOps>>["ops"]) => Promise<void>) => {
  const console = await openOps(userId)
  try {
    // The documents the user sent, fetched from the partner for the operator.
    await console.ops.locator('[data-document="PASSPORT"] img').waitFor()
    expect(await console.ops.locator('[data-document="SELFIE"]').count()).toBe(1)
    await act(console.ops)
    await console.ops.getByRole("status").filter({ hasText: "the partner's webhook follows" }).waitFor()
  } finally {
    await console.close()
  }
}

const botMessages = async (userId: number) =>
  (await stack.server.sql("select body from outbox_messages where recipient = $1 and subject = 'kyc.review' order by id", [String(userId)])).map((row) =>
    String(row.body),
  )

describe("identity verification, level 2 through the partner (issue 19)", () => {
  it("a user goes for level 2 from the levels screen, sends a passport and a selfie in the partner's frame, the operator approves, and level 2's limits open", async () => {
    const userId = await demoUserId("balances")
    const app = await launch(stack, { user: "balances" })
    try {
      await app.waitForPath("/main")
      await app.goto("/kyc/settings")
      await app.app().getByText("Your level: Not verified").waitFor()
      expect(await app.app().locator('[data-kyc-limits="LEVEL_0"]').getAttribute("aria-current")).toBe("true")
      await app.page.screenshot({ path: join(screenshotDir, "kyc-levels.png") })
      await app.app().getByRole("button", { name: "Verify for Level 2" }).click()

      // On the way to level 2 the steps are the phone and the document (the partner reads the name).
      await app.waitForPath("/kyc/main")
      expect(await app.app().locator('[data-kyc-step="basicInfo"]').count()).toBe(0)
      await app.app().getByRole("button", { name: "Share phone number" }).click()
      await expect.poll(() => app.app().locator('[data-kyc-step="nationalId"]').getAttribute("data-status")).toBe("active")
      await app.app().getByRole("button", { name: "Verify identity" }).click()

      await app.waitForPath("/kyc/sumsub")
      await partnerFrame(app).getByTestId("sumsub-doc-type").waitFor()
      await app.page.screenshot({ path: join(screenshotDir, "kyc-partner-frame.png") })
      await uploadAndSubmit(app)

      await app.waitForPath("/kyc/verification-pending")
      await app.app().getByText("Your documents are being checked").waitFor()
      await app.page.screenshot({ path: join(screenshotDir, "kyc-review-pending.png") })

      await decide(userId, (ops) => ops.getByRole("button", { name: "Approve" }).click())

      // The waiting screen polls the status: the partner's webhook raised the level.
      await app.waitForPath("/kyc/success")
      await app.app().getByText("Your level is now Level 2.").waitFor()
      await app.goto("/kyc/settings")
      await app.app().getByText("Your level: Level 2").waitFor()
      expect(await app.app().locator('[data-kyc-limits="LEVEL_2"]').getAttribute("aria-current")).toBe("true")
      await app.page.screenshot({ path: join(screenshotDir, "kyc-levels-level2.png") })
      expect(await botMessages(userId)).toEqual([expect.stringContaining("level 2 is open")])
      const [user] = await stack.server.sql("select permissions from kernel_users where id = $1", [userId])
      expect(user?.permissions).toMatchObject({ canUseP2p: true })
    } finally {
      await app.page.close()
    }
  })

  it("a rejection asks for the documents again with the reviewer's reasons; the user sends a new selfie, in Russian and dark, and is approved (webhooks twice and out of order)", async () => {
    stack.partner?.setChaos({ duplicate: 1, reorder: 1 })
    const userId = await demoUserId("kyc_partial")
    const app = await launch(stack, { user: "kyc_partial", language: "ru", theme: "dark" })
    try {
      await app.waitForPath("/main")
      await app.goto("/kyc/sumsub?action=KYC&level=LEVEL_2")
      await partnerFrame(app).getByTestId("sumsub-doc-type").waitFor()
      await uploadAndSubmit(app)
      await app.waitForPath("/kyc/verification-pending")

      await decide(userId, async (ops) => {
        const form = ops.locator('form:has(fieldset[data-form="retry"])')
        await form.getByLabel("BAD_SELFIE").check()
        await form.getByLabel("Message to the user").fill("Лицо на селфи закрыто.")
        await form.getByRole("button", { name: "Ask to send again" }).click()
      })

      await app.app().getByText("Нужно отправить документы снова").waitFor()
      await app.app().getByTestId("kyc-review-comment").getByText("Лицо на селфи закрыто.").waitFor()
      await app.app().locator('[data-reject-label="BAD_SELFIE"]').waitFor()
      await app.page.screenshot({ path: join(screenshotDir, "kyc-rejected-dark-ru.png") })
      expect(await botMessages(userId)).toEqual([expect.stringContaining("Лицо на селфи закрыто.")])

      await app.app().getByTestId("kyc-resubmit").click()
      await app.waitForPath("/kyc/sumsub")
      await uploadAndSubmit(app, { document: false })
      await app.waitForPath("/kyc/verification-pending")
      await decide(userId, (ops) => ops.getByRole("button", { name: "Approve" }).click())
      await app.waitForPath("/kyc/success")
      await stack.partner?.idle()
      // Each review applied once, whatever the partner sent twice or late.
      const reviews = await stack.server.sql("select count(*)::int as n from kyc_events where user_id = $1 and kind = 'partner.review'", [userId])
      expect(reviews[0]?.n).toBe(2)
      const outcomes = await stack.server.sql(
        "select outcome, count(*)::int as n from kyc_webhooks where applicant_id in (select applicant_id from kyc_applicants where user_id = $1) group by outcome",
        [userId],
      )
      expect(outcomes.find((row) => row.outcome === "applied")).toBeDefined()
    } finally {
      stack.partner?.setChaos({ duplicate: 0, reorder: 0 })
      await app.page.close()
    }
  })
})
