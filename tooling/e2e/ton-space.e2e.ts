import type { Page, Request } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"
import {
  backupWords,
  createBackedUpWallet,
  createPasscode,
  goTo,
  pad,
  press,
  refreshedMain,
  reloadMain,
  screenshots,
  startDevnetStack,
  startNewWallet,
  startSend,
  text,
  waitMain,
  walletState,
  wordTestIndices,
} from "./support/ton-space.ts"

// The TON space on the in-process devnet (a block every 400 ms), as a user would use it.
let stack: Stack
beforeAll(async () => void (stack = await startDevnetStack()))
afterAll(async () => {
  await stack?.close()
})

const { shot } = screenshots("ton-space")

interface Captured {
  readonly url: string
  readonly body: string
}

/** Every request of the page and its frames: URL, headers and body. */
const capture = (page: Page, into: Array<Captured>) =>
  page.on("request", (request: Request) => {
    into.push({ url: request.url(), body: `${JSON.stringify(request.headers())}\n${request.postData() ?? ""}` })
  })

describe("TON space: create, back up, fund, send, history, log out, import", () => {
  it("runs the whole journey and no request carries the words or the private key", async () => {
    const requests: Array<Captured> = []
    const app = await launch(stack, { user: "no_custody", before: async (page) => void capture(page, requests) })
    await app.waitForPath("/scw")
    await app.app().getByRole("heading", { name: "TON Space" }).waitFor()
    await waitMain(app, "Create a new wallet")
    await shot(app, "onboarding-light")

    // Create: the 24 words are shown for backup.
    await startNewWallet(app)
    const words = await backupWords(app)
    expect(words).toHaveLength(24)
    expect(words.every((w) => /^[a-z]+$/.test(w))).toBe(true)
    await shot(app, "backup-words-light")

    // The word test: a wrong word is refused, the right three pass.
    await press(app)
    await app.waitForPath("/scw/backup/test")
    const fields = app.app().getByRole("textbox")
    await fields.first().waitFor()
    expect(await fields.count()).toBe(3)
    const indices = await wordTestIndices(app)
    await fields.nth(0).fill("wrongword")
    await fields.nth(1).fill(words[indices[1]!]!)
    await fields.nth(2).fill(words[indices[2]!]!)
    await waitMain(app, "Continue")
    await press(app)
    await app.app().getByText("This word does not match").waitFor()
    await shot(app, "backup-test-wrong-light")
    await fields.nth(0).fill(words[indices[0]!]!)
    await waitMain(app, "Continue")
    await press(app)
    await app.waitForPath("/scw/backup/success")
    await shot(app, "backup-success-light")
    await waitMain(app, "Open wallet")
    await press(app)
    await app.waitForPath("/scw")

    const created = await walletState(app)
    const address = created!.address!
    expect(address).toMatch(/^UQ[A-Za-z0-9_-]{46}$/)
    await app.app().getByText("No transactions yet").waitFor()
    await shot(app, "main-empty-light")

    // Fund from the faucet; the balance and the incoming transfer show after a refresh.
    await stack.devnet!.faucet({ address, ton: 5_000_000_000n })
    await expect.poll(() => refreshedMain(app), { timeout: 30_000, interval: 1_000 }).toContain("5 TON")
    await app.app().getByText("Received").first().waitFor()
    await shot(app, "main-funded-light")

    // Receive: the QR code and the full address.
    await app.app().getByRole("button", { name: "Receive", exact: true }).click()
    await app.waitForPath("/scw/qr")
    await app.app().getByRole("img", { name: "QR code of your address" }).waitFor()
    expect(await app.app().getByTestId("receive-address").innerText()).toBe(address)
    await shot(app, "receive-light")
    await app.telegram("t.pressBack()")
    await app.waitForPath("/scw")

    // Send 1.5 TON with a comment to another wallet.
    const friend = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet").address
    await app.app().getByRole("button", { name: "Send", exact: true }).click()
    await app.waitForPath("/scw/send")
    await app.app().getByRole("textbox", { name: "Recipient" }).fill(friend)
    await app.app().getByRole("textbox", { name: "Amount" }).fill("1.5")
    await app.app().getByRole("textbox", { name: "Comment" }).fill("for lunch")
    await shot(app, "send-form-light")
    await waitMain(app, "Continue")
    await press(app)
    await app.waitForPath("/scw/send-ton-confirmation")
    await app
      .app()
      .getByText(/≈ 0\.\d+ TON/)
      .waitFor({ timeout: 20_000 })
    expect(await text(app)).toContain("1.5 TON")
    await shot(app, "send-confirm-light")
    await waitMain(app, "Confirm and send")
    await press(app)
    await app.waitForPath("/scw/send-success")
    await shot(app, "send-success-light")
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")
    // The sent transfer shows as pending until its event is final.
    await app.app().getByText("Pending").first().waitFor()
    await shot(app, "main-pending-light")

    // Pending first (the item is in the pending list), then final in history.
    const afterSend = await walletState(app)
    expect(afterSend!.pending.pending.length + afterSend!.pending.finalized.length).toBe(1)
    await expect.poll(async () => (await walletState(app))!.pending.finalized.length, { timeout: 30_000, interval: 500 }).toBe(1)
    expect((await walletState(app))!.pending.pending).toHaveLength(0)
    await app.app().getByText("Sent", { exact: true }).first().waitFor({ timeout: 20_000 })
    expect(await text(app)).toContain("for lunch")
    await shot(app, "main-after-send-light")

    // Transaction details.
    await app.app().getByRole("button", { name: /^Sent/ }).first().click()
    await app.waitForPath(`/scw/tx/${await app.app().evaluate(() => window.location.pathname.split("/").pop()!)}`)
    await app.app().getByText("Confirmed").first().waitFor()
    await shot(app, "tx-light")
    await app.telegram("t.pressBack()")
    await app.waitForPath("/scw")

    // A jetton: USD₮ from the faucet shows as the product's USDT ("Dollars"); send 5 of it.
    await stack.devnet!.faucet({ address, jetton: "usdt", amount: 25_000_000n })
    // The history and the asset list are two reads refreshed apart: wait for the jetton in both.
    await expect
      .poll(
        async () => {
          const main = await refreshedMain(app)
          return main.includes("25 USDT") && main.includes("Dollars")
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true)
    await shot(app, "main-jetton-light")
    await app
      .app()
      .getByRole("button", { name: /^Dollars/ })
      .click()
    // The row opens the asset page; its Send starts a send of that asset.
    await app.app().getByRole("heading", { name: "Dollars" }).waitFor()
    await app.app().getByRole("button", { name: "Send", exact: true }).click()
    await app.waitForPath("/scw/send")
    await app.app().getByRole("radio", { name: /^USDT/ }).waitFor()
    expect(await app.app().getByRole("radio", { name: /^USDT/ }).getAttribute("aria-checked")).toBe("true")
    await app.app().getByRole("textbox", { name: "Recipient" }).fill(friend)
    await app.app().getByRole("textbox", { name: "Amount" }).fill("5")
    await waitMain(app, "Continue")
    await press(app)
    await app.waitForPath("/scw/send-jetton-confirmation")
    await app
      .app()
      .getByText(/≈ 0\.\d+ TON/)
      .waitFor({ timeout: 20_000 })
    expect(await text(app)).toContain("5 USDT")
    await shot(app, "send-jetton-confirm-light")
    await waitMain(app, "Confirm and send")
    await press(app)
    await app.waitForPath("/scw/send-success")
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")
    await expect.poll(async () => (await walletState(app))!.pending.finalized.length, { timeout: 30_000, interval: 500 }).toBe(2)
    await expect.poll(() => refreshedMain(app), { timeout: 30_000, interval: 1_000 }).toContain("20 USDT")
    expect(await text(app)).toMatch(/−5 USD₮|−5 USDT/)

    // A collectible from the faucet: details, then send it to the same friend.
    await stack.devnet!.faucet({ address, nft: true, name: "Punk One" })
    await expect.poll(() => refreshedMain(app), { timeout: 30_000, interval: 1_000 }).toContain("Punk One")
    await app
      .app()
      .getByRole("button", { name: /^Punk One/ })
      .click()
    await app.app().getByRole("heading", { name: "Punk One" }).waitFor()
    await shot(app, "collectible-light")
    await waitMain(app, "Send")
    await press(app)
    await app.app().getByRole("textbox", { name: "Recipient" }).fill(friend)
    await waitMain(app, "Continue")
    await press(app)
    await app
      .app()
      .getByText(/≈ 0\.\d+ TON/)
      .waitFor({ timeout: 20_000 })
    await shot(app, "collectible-confirm-light")
    await waitMain(app, "Confirm and send")
    await press(app)
    await app.app().getByText("The collectible is on its way to its new owner.").waitFor()
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")
    await expect.poll(async () => (await walletState(app))!.pending.finalized.length, { timeout: 30_000, interval: 500 }).toBe(3)
    await expect.poll(async () => (await text(app)).includes("Punk One"), { timeout: 20_000, interval: 1_000 }).toBe(false)

    // Log out, then import the same words: the same address.
    await goTo(app, "/scw/settings/logout")
    await app.waitForPath("/scw/settings/logout")
    await waitMain(app, "Log out")
    await shot(app, "logout-light")
    await press(app)
    await app.waitForPath("/scw")
    await waitMain(app, "Create a new wallet")
    expect((await walletState(app))!.address).toBeUndefined()
    await app.app().getByRole("button", { name: "Import an existing wallet" }).click()
    await app.waitForPath("/scw/import/mnemonic")
    await app.app().getByRole("textbox", { name: "Recovery phrase" }).fill(words.join(" "))
    await shot(app, "import-light")
    await waitMain(app, "Import")
    await press(app)
    await app.waitForPath("/scw/import/success")
    expect((await walletState(app))!.address).toBe(address)
    await waitMain(app, "Open wallet")
    await press(app)
    await app.waitForPath("/scw")
    await app.app().getByText("Sent", { exact: true }).first().waitFor({ timeout: 20_000 })

    // Nothing that left the page holds the words (any two in a row) or the private key.
    const keys = await keysOf(words)
    const secretForms = [
      keys.secretKey.toString("hex"),
      keys.secretKey.subarray(0, 32).toString("hex"),
      keys.secretKey.toString("base64"),
      keys.secretKey.subarray(0, 32).toString("base64"),
    ]
    const pairs = words.slice(1).map((w, i) => new RegExp(`\\b${words[i]}\\b[^a-z]{1,8}\\b${w}\\b`, "i"))
    expect(requests.length).toBeGreaterThan(10)
    expect(requests.some((r) => r.url.includes("/v2/blockchain/message"))).toBe(true)
    for (const request of requests) {
      const haystack = `${decodeURIComponent(request.url)}\n${request.body}`
      for (const form of secretForms) expect(haystack.includes(form), `secret key in ${request.url}`).toBe(false)
      for (const pair of pairs) expect(pair.test(haystack), `mnemonic words in ${request.url}`).toBe(false)
    }
    await app.page.close()
  })

  it("refuses words that do not derive the wallet's address", async () => {
    const app = await launch(stack, { user: "no_custody" })
    await app.waitForPath("/scw")
    await startNewWallet(app)
    // A reload forgets the words (they are never stored in plain): the wallet asks for them again.
    await app.app().evaluate(() => location.reload())
    await app.waitForPath("/scw/backup/manual")
    await app.app().getByText("The words are not on this device").waitFor()
    await waitMain(app, "Enter recovery phrase")
    await press(app)
    await app.waitForPath("/scw/import/mnemonic")
    await app
      .app()
      .getByRole("textbox", { name: "Recovery phrase" })
      .fill((await newMnemonic()).join(" "))
    await waitMain(app, "Import")
    await press(app)
    await app.app().getByText("Address does not match with mnemonic").waitFor()
    await shot(app, "import-mismatch-light")
    expect(await app.path()).toBe("/scw/import/mnemonic")
    await app.page.close()
  })

  it("switches to testnet after a confirmation, back to mainnet with a toast, and between versions", async () => {
    const app = await launch(stack, { user: "no_custody" })
    await app.waitForPath("/scw")
    await startNewWallet(app)
    const mainnet = (await walletState(app))!.address!
    await goTo(app, "/scw/settings/version-network")
    await app.waitForPath("/scw/settings/version-network")
    await app.app().getByRole("radio", { name: /^W5/ }).first().waitFor()
    await shot(app, "version-network-light")
    // Testnet asks first; cancel keeps mainnet.
    await app.app().getByRole("radio", { name: "Testnet" }).click()
    await expect.poll(() => app.telegram<{ title: string } | null>("t.popup")).toMatchObject({ title: "Switch to testnet?" })
    await app.telegram(`t.answerPopup("cancel")`)
    expect((await walletState(app))!.address).toBe(mainnet)
    await app.app().getByRole("radio", { name: "Testnet" }).click()
    await expect.poll(() => app.telegram<{ title: string } | null>("t.popup")).toMatchObject({ title: "Switch to testnet?" })
    await app.telegram(`t.answerPopup("ok")`)
    await expect.poll(async () => (await walletState(app))!.address).toMatch(/^0Q/)
    expect(await app.app().getByRole("radio", { name: "Testnet" }).getAttribute("aria-checked")).toBe("true")
    await app.app().getByRole("radio", { name: "Mainnet" }).click()
    await app.app().getByText("You are back on mainnet").waitFor()
    expect((await walletState(app))!.address).toBe(mainnet)
    // Another version is another address of the same key; W5 again gives the first one back.
    await app.app().getByRole("radio", { name: /^v4R2/ }).click()
    await expect.poll(async () => (await walletState(app))!.address).not.toBe(mainnet)
    await app.app().getByRole("radio", { name: /^W5/ }).first().click()
    await expect.poll(async () => (await walletState(app))!.address).toBe(mainnet)
    await app.page.close()
  })

  it("renders the wallet in the dark theme and in Russian", async () => {
    const app = await launch(stack, { user: "no_custody", theme: "dark", language: "ru" })
    await app.waitForPath("/scw")
    await waitMain(app, "Создать новый кошелёк")
    await shot(app, "onboarding-dark-ru")
    await press(app)
    await app.waitForPath("/scw/backup/manual")
    await backupWords(app, "Секретная фраза, 24 слова")
    await shot(app, "backup-words-dark")
    await goTo(app, "/scw")
    await app.waitForPath("/scw")
    await app.app().getByText("Баланс TON").waitFor()
    await app.app().getByText("Транзакций пока нет").waitFor({ timeout: 20_000 })
    await shot(app, "main-dark")
    await app.app().getByRole("button", { name: "Получить", exact: true }).click()
    await app.waitForPath("/scw/qr")
    await shot(app, "receive-dark")
    await app.telegram("t.pressBack()")
    await app.waitForPath("/scw")
    await app.app().getByRole("button", { name: "Отправить", exact: true }).click()
    await app.waitForPath("/scw/send")
    await app.app().getByRole("textbox", { name: "Получатель" }).waitFor()
    await shot(app, "send-form-dark")
    await app.page.close()
  })
})

describe("TON space with a passcode: the words sealed in the key vault", () => {
  const EMAIL = "ton.space.e2e@example.com"

  it("seals after backup, survives a reload, and opens with the passcode to send", async () => {
    const requests: Array<Captured> = []
    const app = await launch(stack, { user: "balances", before: async (page) => void capture(page, requests) })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()
    // A passcode first (the passcode plugin's screens).
    await createPasscode(app, { stack, passcode: "2468", email: EMAIL })

    // Create and back up; leaving the backup asks for the passcode and seals the words.
    const words = await createBackedUpWallet(app)
    await pad(app, "2468")
    await app.waitForPath("/scw")
    await expect
      .poll(() => app.app().evaluate(() => localStorage.getItem("wallet:tonSpace.keyvault.blob")?.slice(0, 3) ?? null), { timeout: 20_000 })
      .toBe("v2:")
    const address = (await walletState(app))!.address!

    // A reload forgets the words in memory; the vault still holds them: no "phrase needed" banner.
    await reloadMain(app)
    await stack.devnet!.faucet({ address, ton: 3_000_000_000n })
    await expect.poll(() => refreshedMain(app), { timeout: 30_000, interval: 1_000 }).toContain("3 TON")
    expect(await text(app)).not.toContain("Recovery phrase needed")

    // Send: the passcode opens the vault (the server releases the device key), then the transfer goes.
    await startSend(app)
    await pad(app, "2468")
    await app.waitForPath("/scw/send-success")
    expect(requests.some((r) => r.url.includes("/api/device-keys/get"))).toBe(true)
    const keys = await keysOf(words)
    const pairs = words.slice(1).map((w, i) => new RegExp(`\\b${words[i]}\\b[^a-z]{1,8}\\b${w}\\b`, "i"))
    for (const request of requests) {
      const haystack = `${decodeURIComponent(request.url)}\n${request.body}`
      expect(haystack.includes(keys.secretKey.toString("hex"))).toBe(false)
      expect(haystack.includes(keys.secretKey.subarray(0, 32).toString("hex"))).toBe(false)
      for (const pair of pairs) expect(pair.test(haystack), `mnemonic words in ${request.url}`).toBe(false)
    }
    await app.page.close()
  })
})
