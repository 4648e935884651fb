import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
  mkdirSync(screenshotDir, { recursive: true })
})
afterAll(async () => {
  await stack?.close()
})

const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `passcode-${name}.png`) })
/** The screen in the light theme, then in the dark one (Telegram's theme_changed), then light again. */
const shots = async (app: LaunchedApp, name: string) => {
  await shot(app, `${name}-light`)
  for (const theme of ["dark", "light"] as const) {
    await app.telegram(`t.setTheme('${theme}')`)
    await app.app().waitForFunction((scheme) => document.documentElement.dataset.colorScheme === scheme, theme)
    // Let the kit's colour transitions finish before the picture.
    await app.page.waitForTimeout(400)
    if (theme === "dark") await shot(app, `${name}-dark`)
  }
}
const EMAIL = "passcode.e2e@example.com"

/** The newest 6-digit code the dev outbox page shows for the address. */
const codeFromOutbox = async (app: LaunchedApp, after: number, recipient = EMAIL): Promise<string> => {
  const page = await app.page.context().newPage()
  try {
    for (let i = 0; i < 40; i++) {
      await page.goto(`${stack.server.url}/api/dev/outbox.html?recipient=${encodeURIComponent(recipient)}`)
      const body = await page.locator("body").innerText()
      const codes = [...body.matchAll(/\b(\d{6})\b/g)].map((m) => m[1]!)
      const found = codes.find((c) => !usedCodes.has(c))
      if (found && codes.length > after) {
        usedCodes.add(found)
        return found
      }
      await page.waitForTimeout(250)
    }
    throw new Error("no new code in the outbox")
  } finally {
    await page.close()
  }
}
const usedCodes = new Set<string>()

const goTo = async (app: LaunchedApp, path: string) => {
  await app.app().evaluate((p) => {
    window.history.pushState({}, "", p)
    window.dispatchEvent(new PopStateEvent("popstate"))
  }, path)
}
const pad = async (app: LaunchedApp, digits: string) => {
  for (const d of digits) await app.app().getByRole("button", { name: d, exact: true }).click()
}
const popup = (app: LaunchedApp) =>
  app.page
    .waitForFunction(() => window.fakeTelegram?.popup !== null && window.fakeTelegram?.popup !== undefined)
    .then(() => app.telegram<{ title: string; buttons: Array<{ id: string }> }>("t.popup"))

describe("passcode", () => {
  let app: LaunchedApp
  it("creates a passcode: weak warning, mismatch, recovery email with a code from the outbox, biometry offer", async () => {
    app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()
    await goTo(app, "/passcode/settings")
    await app.app().getByRole("button", { name: "Create passcode" }).waitFor()
    await shots(app, "settings-empty")
    await app.app().getByRole("button", { name: "Create passcode" }).click()
    await app.app().getByRole("heading", { name: "Protect your wallet" }).waitFor()
    await shots(app, "intro")
    await app.app().getByRole("button", { name: "Create passcode" }).click()
    await app.app().getByRole("heading", { name: "Create a passcode" }).waitFor()
    await pad(app, "1234")
    const weak = await popup(app)
    expect(weak.title).toBe("Easy to guess")
    await shots(app, "weak-popup")
    await app.telegram("t.answerPopup('change')")
    await app.app().getByRole("img", { name: "0 of 4 digits entered" }).waitFor()
    await pad(app, "2468")
    await app.app().getByRole("heading", { name: "Confirm passcode" }).waitFor()
    await shots(app, "confirm")
    await pad(app, "1111")
    await app.app().getByRole("img", { name: "0 of 4 digits entered" }).waitFor()
    expect(await app.app().getByRole("heading", { name: "Confirm passcode" }).count()).toBe(1)
    expect((await app.telegram<Array<Record<string, unknown>>>("t.haptics")).some((h) => h.notification_type === "error")).toBe(true)
    await pad(app, "2468")
    // No recovery email yet: source_email_missing opens the create-recovery-email flow.
    await app.app().getByRole("heading", { name: "Recovery email" }).waitFor()
    const cont = app.app().getByRole("button", { name: "Continue" })
    await app.app().getByLabel("Email address").fill("not-an-email")
    expect(await cont.isDisabled()).toBe(true)
    await app.app().getByLabel("Email address").fill(EMAIL)
    await shots(app, "email")
    await cont.click()
    await app.app().getByText("We sent a 6-digit code to").waitFor()
    await shots(app, "code")
    const code = await codeFromOutbox(app, 0)
    await app.app().getByLabel("6-digit code").fill(code)
    await app.app().getByRole("heading", { name: "Unlock with biometry?" }).waitFor()
    await shots(app, "biometry-offer")
    await app.app().getByRole("button", { name: "Not now" }).click()
    await app.app().getByRole("heading", { name: "Passcode created" }).waitFor()
    await shots(app, "created")
    await app.app().getByRole("button", { name: "Done" }).click()
    await app.app().getByRole("button", { name: "Change passcode" }).waitFor()
    await shots(app, "settings")
  })

  it("verifies wrong then right through the kernel service's screen, showing remaining attempts", async () => {
    await goTo(app, "/main")
    await app.waitForPath("/main")
    await goTo(app, "/passcode/settings")
    const dialog = app.app().getByRole("dialog", { name: "Enter passcode" })
    await dialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
    // Closing the screen cancels: security settings stay closed.
    await dialog.getByRole("button", { name: "Cancel" }).click()
    await app.waitForPath("/settings")
    expect(await app.app().getByRole("dialog").count()).toBe(0)
    await goTo(app, "/passcode/settings")
    await dialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
    // Each wrong entry clears the dots after its shake: the next digits wait for the empty field
    // (typing during the shake lost a digit once, and the right passcode then read as wrong).
    const cleared = () => dialog.getByRole("img", { name: "0 of 4 digits entered" }).waitFor()
    await pad(app, "1111")
    await dialog.getByText("Wrong passcode").waitFor()
    expect(await dialog.getByText("attempts left").count()).toBe(0)
    await cleared()
    await pad(app, "1111")
    await dialog.getByText("3 attempts left").waitFor()
    await shots(app, "verify-wrong")
    await cleared()
    await pad(app, "2468")
    await dialog.waitFor({ state: "detached" })
    await app.app().getByRole("button", { name: "Change passcode" }).waitFor()
  })

  it("enables biometry with the fake client and unlocks with it", async () => {
    await app.app().getByRole("switch", { name: "Unlock with Face ID" }).click()
    await app.app().getByRole("heading", { name: "Enter passcode" }).waitFor()
    await pad(app, "2468")
    await app.app().getByText("Biometry enabled").waitFor()
    expect((await app.telegram<{ token: string }>("t.biometry")).token.length).toBeGreaterThan(16)
    expect(await app.app().getByRole("switch", { name: "Unlock with Face ID" }).isChecked()).toBe(true)
    await goTo(app, "/main")
    await app.waitForPath("/main")
    const before = await app.telegram<number>("t.callsOf('web_app_biometry_request_auth').length")
    await goTo(app, "/passcode/settings")
    await app.app().getByRole("button", { name: "Change passcode" }).waitFor()
    expect(await app.telegram<number>("t.callsOf('web_app_biometry_request_auth').length")).toBe(before + 1)
    expect(await app.app().getByRole("dialog").count()).toBe(0)
    // Turning it off clears the device token (the server is asked with a fresh biometry proof).
    await app.app().getByRole("switch", { name: "Unlock with Face ID" }).click()
    await app.app().getByText("Biometry turned off").waitFor()
    expect((await app.telegram<{ token: string }>("t.biometry")).token).toBe("")
    expect(await app.app().getByRole("switch", { name: "Unlock with Face ID" }).isChecked()).toBe(false)
  })

  it("locks out after the last attempt and resets with the email code", async () => {
    await app.telegram("(t.biometry.nextAuth = 'fail')")
    await goTo(app, "/main")
    await app.waitForPath("/main")
    await goTo(app, "/passcode/settings")
    const dialog = app.app().getByRole("dialog", { name: "Enter passcode" })
    await dialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
    for (const left of [4, 3, 2, 1]) {
      await pad(app, "9999")
      if (left < 4) await dialog.getByText(left === 1 ? "1 attempt left" : `${left} attempts left`).waitFor()
      else await dialog.getByText("Wrong passcode").waitFor()
      await dialog.getByRole("img", { name: "0 of 4 digits entered" }).waitFor()
    }
    await pad(app, "9999")
    const locked = await popup(app)
    expect(locked.title).toBe("Passcode locked")
    await shots(app, "locked-popup")
    await app.telegram("t.answerPopup('reset')")
    await dialog.getByText("We sent a 6-digit code to").waitFor()
    const code = await codeFromOutbox(app, 1)
    await dialog.getByLabel("6-digit code").fill(code)
    await dialog.getByRole("heading", { name: "Set a new passcode" }).waitFor()
    await pad(app, "1357")
    await dialog.getByRole("heading", { name: "Confirm passcode" }).waitFor()
    await pad(app, "1357")
    await dialog.getByRole("heading", { name: "Passcode reset" }).waitFor()
    await shots(app, "reset-done")
    await dialog.getByRole("button", { name: "Done" }).click()
    await app.app().getByRole("button", { name: "Change passcode" }).waitFor()
    await app.page.close()
  })

  it("the self-custody create route takes its search params; a further device confirms with the email code; change passcode and recovery email screens", async () => {
    const scwEmail = "scw.e2e@example.com"
    // A second device of the same user: no passcode here yet.
    const second = await launch(stack, { user: "balances" })
    await second.waitForPath("/main")
    await second.app().getByText("Total balance").waitFor()
    await goTo(second, `/scw/passcode/create?email=${encodeURIComponent(scwEmail)}&type=bogus&source=banner`)
    await second.app().getByRole("heading", { name: "Protect your wallet" }).waitFor()
    await shots(second, "scw-intro")
    await second.app().getByRole("button", { name: "Create passcode" }).click()
    await second.app().getByRole("button", { name: "Use a 6-digit passcode" }).click()
    await second.app().getByRole("img", { name: "0 of 6 digits entered" }).waitFor()
    await shots(second, "set-6-digit")
    await pad(second, "147036")
    await second.app().getByRole("heading", { name: "Confirm passcode" }).waitFor()
    await pad(second, "147036")
    // The user has a recovery email already (the first device's): a further device gets a passcode
    // only with a code sent to it (decision 0540), not with a new address from the route's email param.
    await second.app().getByText("We sent a 6-digit code to pa***e@example.com").waitFor()
    await shots(second, "scw-existing-email-code")
    expect(await second.app().getByLabel("Email address").count()).toBe(0)
    await second
      .app()
      .getByLabel("6-digit code")
      .fill(await codeFromOutbox(second, 2))
    await second.app().getByRole("button", { name: "Not now" }).click()
    await second.app().getByRole("button", { name: "Done" }).click()
    await second.waitForPath("/scw")

    await goTo(second, "/passcode/settings")
    const dialog = second.app().getByRole("dialog", { name: "Enter passcode" })
    await dialog.getByRole("img", { name: "0 of 6 digits entered" }).waitFor()
    await pad(second, "147036")
    await dialog.waitFor({ state: "detached" })
    await second.app().getByRole("button", { name: "Change passcode" }).click()
    await second.app().getByRole("heading", { name: "Enter current passcode" }).waitFor()
    await shots(second, "change-current")
    await pad(second, "147036")
    await second.app().getByRole("heading", { name: "Enter a new passcode" }).waitFor()
    await second.app().getByRole("button", { name: "Use a 4-digit passcode" }).click()
    await pad(second, "2580")
    await pad(second, "2580")
    await second.app().getByRole("heading", { name: "Passcode changed" }).waitFor()
    await shots(second, "changed")
    await second.app().getByRole("button", { name: "Done" }).click()
    await second
      .app()
      .getByRole("button", { name: /Recovery email/ })
      .click()
    await second.app().getByRole("heading", { name: "Confirm your current email" }).waitFor()
    await second.app().getByText("We sent a 6-digit code to").waitFor()
    await second.app().getByLabel("6-digit code").fill("000000")
    await second.app().getByText("Wrong code").waitFor()
    await shots(second, "email-change-wrong-code")
    await second.page.close()
  })
})
