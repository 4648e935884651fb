// The operator console changes the app without a redeploy (docs/decisions/0360, 0370): an operator
// signs in at /ops, turns the `is_ton_space_enabled` degradation banner off for the demo user, and
// the running app (fake clock past the 60 s flags beat) drops the TON tab bar and QR scan and shows
// the banner; a bucket of `wallet-action-buttons` switches main's action buttons; `dev_tools` for
// one user removes and brings back the developer entry in settings.
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { hashPasswordNow } from "../../kernel/server/src/operator/auth.ts"
import { newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"
import { goTo, importWords, screenshots, startDevnetStack } from "./support/ton-space.ts"

let stack: Stack
const OPERATOR = "e2e-operator"
const PASSWORD = "operator password for e2e"

beforeAll(async () => {
  stack = await startDevnetStack()
  const hash = await hashPasswordNow(PASSWORD)
  await stack.server.sql("insert into operator_accounts (name, password_hash, created_at) values ($1, $2, now())", [OPERATOR, hash])
})
afterAll(async () => {
  await stack?.close()
})

const { shot } = screenshots("operator-flags")

const demoUserId = async (kind: string) => {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  return users.find((u) => u.kind === kind)!.id
}

/** The console in its own browser context (its cookie is not the app's), signed in. */
const openConsole = async (browser: Browser): Promise<Page> => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${stack.server.url}/ops`)
  // Not signed in: the login page.
  await page.getByLabel("Name").fill(OPERATOR)
  await page.getByLabel("Password").fill(PASSWORD)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("heading", { name: "Flags, banners and experiments" }).waitFor()
  return page
}

const showUser = async (ops: Page, userId: number) => {
  await ops.getByLabel("User id").fill(String(userId))
  await ops.getByRole("button", { name: "Show user" }).click()
  await ops
    .getByRole("columnheader", { name: `User ${userId}` })
    .first()
    .waitFor()
}

/** Past the app's 60 s flags beat (the clock was installed before the app loaded). */
const nextFlagsBeat = (app: LaunchedApp) => app.page.clock.fastForward("01:01")

describe("operator console: flags, banners and buckets reach the running app", () => {
  it("is_ton_space_enabled off for the demo user hides the TON tab bar and QR scan and shows the banner", async () => {
    const userId = await demoUserId("no_custody")
    const app = await launch(stack, { user: "no_custody", before: (page) => page.clock.install() })
    await app.waitForPath("/scw")
    await importWords(app, await newMnemonic())
    await app.waitForPath("/scw")
    const f = app.app()
    await f.getByRole("button", { name: "Scan QR code" }).waitFor()
    const tabBar = f.getByRole("navigation", { name: "TON Space" })
    await tabBar.waitFor()
    expect(await f.getByTestId("ton-space-degraded").count()).toBe(0)

    const ops = await openConsole(stack.browser)
    await showUser(ops, userId)
    await ops.getByRole("button", { name: `Turn is_ton_space_enabled off for user ${userId}` }).click()
    await ops
      .getByRole("status")
      .filter({ hasText: `is_ton_space_enabled off for user ${userId}` })
      .waitFor()
    // The audit log names the operator, the change and the values before and after.
    await ops.getByRole("link", { name: "Audit log" }).click()
    const row = ops.locator("#audit tbody tr").first()
    expect(await row.innerText()).toMatch(new RegExp(`${OPERATOR}[\\s\\S]*flag.set: flag is_ton_space_enabled for user ${userId}[\\s\\S]*null[\\s\\S]*false`))
    await ops.goBack()

    await nextFlagsBeat(app)
    await f.getByTestId("ton-space-degraded").waitFor()
    await expect.poll(() => f.getByRole("button", { name: "Scan QR code" }).count()).toBe(0)
    expect(await tabBar.count()).toBe(0)
    await shot(app, "ton-space-degraded")

    // Back on: the tab bar and the scan return, the banner goes.
    await ops.getByRole("button", { name: `Turn is_ton_space_enabled on for user ${userId}` }).click()
    await ops
      .getByRole("status")
      .filter({ hasText: `is_ton_space_enabled on for user ${userId}` })
      .waitFor()
    await nextFlagsBeat(app)
    await f.getByRole("button", { name: "Scan QR code" }).waitFor()
    await tabBar.waitFor()
    await expect.poll(() => f.getByTestId("ton-space-degraded").count()).toBe(0)
    await ops.context().close()
    await app.page.close()
  })

  it("a wallet-action-buttons bucket switches main's action buttons; dev_tools for the user toggles the developer entry", async () => {
    const userId = await demoUserId("balances")
    const app = await launch(stack, { user: "balances", before: (page) => page.clock.install() })
    await app.waitForPath("/main")
    const f = app.app()
    const actions = f.getByRole("navigation", { name: "Wallet actions" })
    await actions.waitFor()
    expect(await actions.getAttribute("data-layout")).toBe("round")

    const ops = await openConsole(stack.browser)
    await showUser(ops, userId)
    await ops.getByLabel(`Bucket of wallet-action-buttons for user ${userId}`, { exact: true }).selectOption("b")
    await ops.getByRole("button", { name: `Save the bucket of wallet-action-buttons for user ${userId}` }).click()
    await ops
      .getByRole("status")
      .filter({ hasText: `wallet-action-buttons bucket b for user ${userId}` })
      .waitFor()
    await nextFlagsBeat(app)
    await expect.poll(() => actions.getAttribute("data-layout")).toBe("compact")
    await shot(app, "actions-compact")

    // Settings: the dev server turns dev_tools on for everyone; the operator turns it off for this user.
    await goTo(app, "/settings")
    await app.waitForPath("/settings")
    await f.getByTestId("developer-entry").waitFor()
    await ops.getByRole("button", { name: `Turn dev_tools off for user ${userId}` }).click()
    await ops
      .getByRole("status")
      .filter({ hasText: `dev_tools off for user ${userId}` })
      .waitFor()
    await nextFlagsBeat(app)
    await expect.poll(() => f.getByTestId("developer-entry").count()).toBe(0)
    await ops.getByRole("button", { name: `Turn dev_tools on for user ${userId}` }).click()
    await ops
      .getByRole("status")
      .filter({ hasText: `dev_tools on for user ${userId}` })
      .waitFor()
    await nextFlagsBeat(app)
    await f.getByTestId("developer-entry").waitFor()
    await ops.context().close()
    await app.page.close()
  })
})
