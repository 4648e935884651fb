import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * Issue 19, first part: a user reaches verification level 1 in the mini-app as a new user would.
 * The phone comes from the fake Telegram client, signed as Telegram signs a shared contact; the
 * server checks it, settles the country from the calling code or asks for it, then the name.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.close()
})

const step = (app: LaunchedApp, name: string) => app.app().locator(`[data-kyc-step="${name}"]`)
const stepStatus = (app: LaunchedApp, name: string) => step(app, name).getAttribute("data-status")

describe("identity verification, level 1 (issue 19)", () => {
  it("a user with a German phone shares it, enters the name and is verified at level 1", async () => {
    const app = await launch(stack, { user: "balances" })
    try {
      await app.waitForPath("/main")
      // /kyc leads to the steps (spec 3 §2.2).
      await app.app().evaluate(() => {
        window.history.pushState({}, "", "/kyc")
        window.dispatchEvent(new PopStateEvent("popstate"))
      })
      await app.waitForPath("/kyc/main")
      await app.app().getByText("Your level: Not verified").waitFor()
      expect(await stepStatus(app, "phoneNumber")).toBe("active")
      expect(await stepStatus(app, "basicInfo")).toBe("disabled")
      await app.page.screenshot({ path: join(screenshotDir, "kyc-steps.png") })

      await app.app().getByRole("button", { name: "Share phone number" }).click()
      await expect.poll(() => stepStatus(app, "phoneNumber")).toBe("completed")
      expect(await stepStatus(app, "basicInfo")).toBe("active")
      await app.app().getByText("+49 ••• ••• 78").waitFor()
      await app.page.screenshot({ path: join(screenshotDir, "kyc-steps-phone-done.png") })

      // Enter presses the active step (spec 3 §2.2).
      await app.app().locator("h1").click()
      await app.page.keyboard.press("Enter")
      await app.waitForPath("/kyc/verify-name")
      const continueButton = app.app().getByRole("button", { name: "Continue" })
      await app.app().getByLabel("First name").fill("Bob2")
      await app.app().getByText("Use letters, spaces, hyphens and apostrophes only.").waitFor()
      expect(await continueButton.isDisabled()).toBe(true)
      await app.app().getByLabel("First name").fill("Bob")
      await app.app().getByLabel("Last name").fill("Balance")
      await continueButton.click()
      await app.waitForPath("/kyc/success")
      await app.app().getByText("Your level is now Level 1.").waitFor()
      await app.page.screenshot({ path: join(screenshotDir, "kyc-success.png") })
    } finally {
      await app.page.close()
    }
  })

  it("a +7 phone settles no country: the user chooses Kazakhstan from the list, in Russian, then the name", async () => {
    const app = await launch(stack, { user: "no_custody", language: "ru", theme: "dark" })
    try {
      await app.goto("/kyc/main")
      await app.app().getByRole("button", { name: "Поделиться номером" }).click()
      await expect.poll(() => stepStatus(app, "country")).toBe("active")
      await app.app().getByRole("button", { name: "Выбрать страну" }).click()
      await app.waitForPath("/kyc/verify-country")
      await app.app().getByLabel("Поиск страны").fill("казах")
      expect(await app.app().locator("[data-country]").count()).toBe(1)
      await app.page.screenshot({ path: join(screenshotDir, "kyc-country-dark-ru.png") })
      await app.app().locator('[data-country="KZ"]').click()
      await app.waitForPath("/kyc/main")
      await expect.poll(() => stepStatus(app, "basicInfo")).toBe("active")
      expect(await stepStatus(app, "country")).toBe("completed")
    } finally {
      await app.page.close()
    }
  })

  it("a user who declines to share the phone stays on the phone step and is told so", async () => {
    const app = await launch(stack, { user: "new" })
    try {
      await app.telegram('t.contactAnswer = "decline"')
      await app.goto("/kyc/main")
      await app.app().getByRole("button", { name: "Share phone number" }).click()
      await app.app().getByText("The phone number was not shared").waitFor()
      expect(await stepStatus(app, "phoneNumber")).toBe("active")
    } finally {
      await app.page.close()
    }
  })
})
