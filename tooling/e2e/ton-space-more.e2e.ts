import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"
import {
  backupWords,
  goTo,
  passWordTest,
  press,
  screenshots,
  startDevnetStack,
  startNewWallet,
  text,
  untilBalance,
  waitMain,
  walletState,
} from "./support/ton-space.ts"

// The TON space's server side as a user meets it (issue 6, decision 0620): the manual backup flag
// the server keeps for every device, the v5 beta rule on the version screen, and the dev_tools viewer.
let stack: Stack
beforeAll(async () => void (stack = await startDevnetStack()))
afterAll(async () => {
  await stack?.close()
})

const { shot } = screenshots("ton-space-more")

/** The demo user's own API session, signed in from here (as another device of the same user). */
const apiAs = async (kind: "no_custody" | "balances") => {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  const user = users.find((u) => u.kind === kind)!
  const launched = (await (
    await fetch(`${stack.server.url}/api/dev/launch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: user.id, platform: "ios", theme: "light", language: "en" }),
    })
  ).json()) as { initData: string }
  const auth = (await (
    await fetch(`${stack.server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${launched.initData}` } })
  ).json()) as { access_token: string }
  return {
    addresses: async () =>
      (await (await fetch(`${stack.server.url}/api/ton-space/addresses`, { headers: { authorization: `Bearer ${auth.access_token}` } })).json()) as {
        actives: ReadonlyArray<{ address: string; source: string; manualBackupComplete: boolean }>
      },
  }
}

/** The server's flags with dev_tools forced off, for this launch's browser context only. */
const withoutDevTools = async (page: Page) => {
  await page.context().route("**/api/feature-flags", async (route) => {
    const response = await route.fetch()
    const flags = (await response.json()) as Record<string, boolean>
    await route.fulfill({ response, json: { ...flags, dev_tools: false } })
  })
}

describe("TON space: the server keeps the manual backup", () => {
  it("after create and the word test the server has the flag; a fresh profile of the same user sees the wallet backed up", async () => {
    const app = await launch(stack, { user: "no_custody" })
    await app.waitForPath("/scw")
    await startNewWallet(app)
    const words = await backupWords(app)
    expect(words).toHaveLength(24)
    const created = (await walletState(app))!
    const api = await apiAs("no_custody")
    // Create registered the address (raw on the server), not yet backed up.
    await expect
      .poll(async () => (await api.addresses()).actives.find((a) => a.address === created.raw), { timeout: 20_000 })
      .toMatchObject({ source: "create", manualBackupComplete: false })

    await passWordTest(app, words)
    // The word test passed: the server has the flag, and the list synced it into this device's state.
    await expect.poll(async () => (await api.addresses()).actives.find((a) => a.address === created.raw)?.manualBackupComplete, { timeout: 20_000 }).toBe(true)
    await expect.poll(async () => (await walletState(app))?.serverBackups, { timeout: 20_000 }).toContain(created.raw)

    // The v5 beta of the same key appears on the version screen once it holds TON (spec 2 §3).
    await waitMain(app, "Open wallet")
    await press(app)
    await app.waitForPath("/scw")
    await app.app().getByText("TON balance").waitFor()
    await goTo(app, "/scw/settings/version-network")
    await app.waitForPath("/scw/settings/version-network")
    await app.app().getByRole("radio", { name: /^v4R2/ }).waitFor()
    expect(
      await app
        .app()
        .getByRole("radio", { name: /^W5 beta/ })
        .count(),
    ).toBe(0)
    const beta = identityOf((await keysOf(words)).publicKey, "v5beta", "mainnet")
    await stack.devnet!.faucet({ address: beta.raw, ton: 1_000_000_000n })
    await expect
      .poll(
        async () => {
          await app.telegram("t.pressBack()")
          await app.waitForPath("/scw")
          await goTo(app, "/scw/settings/version-network")
          await app.waitForPath("/scw/settings/version-network")
          await app.app().getByRole("radio", { name: /^v4R2/ }).waitFor()
          return app
            .app()
            .getByRole("radio", { name: /^W5 beta/ })
            .count()
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(1)
    expect(
      await app
        .app()
        .getByRole("radio", { name: /^W5 beta/ })
        .innerText(),
    ).toContain(beta.address.slice(-4))
    await shot(app, "versions-v5beta-light")
    // Switching to it: the server tracks the address now in use too.
    await app
      .app()
      .getByRole("radio", { name: /^W5 beta/ })
      .click()
    await expect.poll(async () => (await api.addresses()).actives.map((a) => a.address), { timeout: 20_000 }).toContain(beta.raw)
    await app.page.close()

    // Another device (a fresh browser profile) of the same user: the onboarding lists the wallet as backed up.
    const other = await launch(stack, { user: "no_custody", theme: "dark" })
    await other.waitForPath("/scw")
    await waitMain(other, "Create a new wallet")
    const known = other.app().getByRole("button", { name: new RegExp(`^Wallet ${created.address}, Backed up$`) })
    await known.waitFor({ timeout: 20_000 })
    await shot(other, "known-wallets-dark")
    // The words never left the first device: choosing the wallet asks for them.
    await known.click()
    await other.waitForPath("/scw/import/mnemonic")
    await other.page.close()
  })
})

describe("TON space viewer (dev_tools)", () => {
  let funded: { readonly address: string; readonly raw: string }
  beforeAll(async () => {
    funded = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet")
    await stack.devnet!.faucet({ address: funded.raw, ton: 3_000_000_000n })
    // The transfer lands at the next block: the viewer reads the account once, so wait for it here.
    await untilBalance(stack, funded.raw, 3_000_000_000n)
  })

  for (const theme of ["light", "dark"] as const) {
    it(`shows a faucet-funded address read-only (${theme})`, async () => {
      const app = await launch(stack, { user: "no_custody", theme })
      await app.waitForPath("/scw")
      await waitMain(app, "Create a new wallet")
      await goTo(app, `/scw/viewer?address=${funded.address}`)
      await app.waitForPath("/scw/viewer")
      await app.app().getByText("Read only").waitFor()
      await expect.poll(() => text(app), { timeout: 30_000, interval: 1_000 }).toContain("3 TON")
      await app.app().getByText("Received").first().waitFor({ timeout: 20_000 })
      expect(await app.app().getByLabel(`Viewing ${funded.address}`).count()).toBe(1)
      // Read-only: no send, receive or settings actions anywhere on the screen.
      for (const name of ["Send", "Receive", "TON Space settings"]) expect(await app.app().getByRole("button", { name, exact: true }).count()).toBe(0)
      // History rows do not open the transaction page here.
      expect(
        await app
          .app()
          .getByRole("button", { name: /^Received/ })
          .count(),
      ).toBe(0)
      await shot(app, `viewer-${theme}`)
      // Another address: the field comes back; an invalid one is refused with a clear error.
      await waitMain(app, "View another address")
      await press(app)
      await app.app().getByRole("textbox", { name: "Address" }).waitFor()
      await app.app().getByRole("textbox", { name: "Address" }).fill("not-an-address")
      await waitMain(app, "View")
      await press(app)
      await app.app().getByText("Invalid address").waitFor()
      expect(await app.path()).toBe("/scw/viewer")
      await shot(app, `viewer-invalid-${theme}`)
      await app.app().getByRole("textbox", { name: "Address" }).fill(funded.raw)
      await press(app)
      await expect.poll(() => app.path()).toContain(`address=${encodeURIComponent(funded.raw)}`)
      await expect.poll(() => text(app), { timeout: 20_000 }).toContain("3 TON")
      await app.page.close()
    })
  }

  it("asks for an address when none is given, and rejects a malformed one in the link", async () => {
    const app = await launch(stack, { user: "no_custody" })
    await app.waitForPath("/scw")
    await waitMain(app, "Create a new wallet")
    await goTo(app, "/scw/viewer")
    await app.app().getByRole("textbox", { name: "Address" }).waitFor()
    await waitMain(app, "View")
    await press(app)
    await app.app().getByText("Enter an address").waitFor()
    await goTo(app, "/scw/viewer?address=EQbroken")
    await app.app().getByText("Invalid address").waitFor()
    await app.page.close()
  })

  it("speaks Russian", async () => {
    const app = await launch(stack, { user: "no_custody", language: "ru", theme: "dark" })
    await app.waitForPath("/scw")
    await app.page.waitForFunction(() => window.fakeTelegram?.mainButton.is_visible === true, undefined, { timeout: 20_000 })
    await goTo(app, `/scw/viewer?address=${funded.address}`)
    await app.app().getByText("Только просмотр").waitFor({ timeout: 20_000 })
    await expect.poll(() => text(app), { timeout: 20_000 }).toContain("3 TON")
    await waitMain(app, "Смотреть другой адрес")
    await shot(app, "viewer-ru-dark")
    await app.page.close()
  })

  it("redirects to the wallet without the dev_tools flag", async () => {
    const app = await launch(stack, { user: "no_custody", before: withoutDevTools })
    await app.waitForPath("/scw")
    await waitMain(app, "Create a new wallet")
    await goTo(app, `/scw/viewer?address=${funded.address}`)
    await expect.poll(() => app.path(), { timeout: 20_000 }).toBe("/scw")
    expect(await app.app().getByText("Read only").count()).toBe(0)
    await app.page.close()
  })
})
