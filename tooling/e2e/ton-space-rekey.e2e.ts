import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"
import { goTo, pad, press, refreshedMain, screenshots, startDevnetStack, waitMain, waitPath, walletAddress } from "./support/ton-space.ts"

// Decision 0530 on the in-process devnet: a passcode change re-keys the TON space's vault through
// the ton-space plugin's beforePasscodeChange hook (without biometry the words would otherwise be
// lost on this device), the reset screen warns, and logging out of the TON space keeps the passcode
// plugin's biometry working.
let stack: Stack
beforeAll(async () => {
  stack = await startDevnetStack()
})
afterAll(async () => {
  await stack?.close()
})

const EMAIL = "ton.space.rekey.e2e@example.com"
const OLD = "2468"
const NEW = "1357"
const RESET = "9630"
const BLOB_KEY = "wallet:tonSpace.keyvault.blob"

const { shot, shots } = screenshots("ton-space-rekey", { settleMs: 400 })
/** `goTo`, again if a screen's own late navigation (data arriving on a loaded machine) replaced it. */
const open = async (app: LaunchedApp, path: string) => {
  for (let attempt = 1; ; attempt++) {
    // A reload still under way (the page's own) destroys the frame's context: wait for it and try again.
    await goTo(app, path).catch(() => app.page.waitForTimeout(1_000))
    const reached = await app
      .app()
      .waitForFunction((p) => window.location.pathname === p, path, { timeout: 10_000 })
      .then(
        () => true,
        () => false,
      )
    if (reached) return
    if (attempt >= 3) {
      await shot(app, "open-failed")
      throw new Error(`could not open ${path}: at ${await app.path().catch(() => "?")}`)
    }
  }
}
const blob = (app: LaunchedApp) => app.app().evaluate((key) => localStorage.getItem(key), BLOB_KEY)
/** The vault blob's slots: how many passcode slots, and the slot names. */
const slotsOf = async (app: LaunchedApp) => {
  const value = await blob(app)
  if (!value?.startsWith("v2:")) return null
  const slots = (JSON.parse(Buffer.from(value.slice(3), "base64url").toString("utf8")) as { slots: Record<string, unknown> }).slots
  return { names: Object.keys(slots).sort(), passcode: Array.isArray(slots.passcode) ? slots.passcode.length : 0 }
}
const authPrompts = (app: LaunchedApp) => app.telegram<number>("t.callsOf('web_app_biometry_request_auth').length")
const deviceToken = async (app: LaunchedApp) => (await app.telegram<{ token: string }>("t.biometry")).token
const reloadAtScw = async (app: LaunchedApp) => {
  await goTo(app, "/scw")
  await app.waitForPath("/scw")
  await app.app().evaluate(() => location.reload())
  await app.waitForPath("/scw")
  await app.app().getByText("TON balance").waitFor({ timeout: 45_000 })
}

interface Captured {
  readonly url: string
  readonly post: string
}
/** Every fetch of the app with its body, in order. */
const capture = async (page: Page, into: Array<Captured>) => {
  await page.exposeBinding("__rekeyE2eCapture", (_source, entry: Captured) => void into.push(entry))
  await page.addInitScript(() => {
    const original = window.fetch.bind(window)
    const report = (window as unknown as { __rekeyE2eCapture?: (entry: { url: string; post: string }) => void }).__rekeyE2eCapture
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      try {
        const copy = input instanceof Request ? new Request(input.clone(), init) : new Request(input, init)
        report?.({ url: copy.url, post: copy.method === "GET" || copy.method === "HEAD" ? "" : await copy.text() })
      } catch {
        // The capture never changes what the app sends.
      }
      return original(input, init)
    }
  })
}

const usedCodes = new Set<string>()
/** A 6-digit code from the dev outbox that this file has not used yet. */
const codeFromOutbox = async (app: LaunchedApp): Promise<string> => {
  const page = await app.page.context().newPage()
  try {
    for (let i = 0; i < 40; i++) {
      await page.goto(`${stack.server.url}/api/dev/outbox.html?recipient=${encodeURIComponent(EMAIL)}`)
      const found = [...(await page.locator("body").innerText()).matchAll(/\b(\d{6})\b/g)].map((m) => m[1]!).find((c) => !usedCodes.has(c))
      if (found) {
        usedCodes.add(found)
        return found
      }
      await page.waitForTimeout(250)
    }
    throw new Error("no code in the outbox")
  } finally {
    await page.close()
  }
}

/**
 * /passcode/settings with `passcode` as this user's passcode: creates it when the server has none
 * (biometry offer answered with `biometry`), else passes the settings gate with it.
 */
const passcodeSettings = async (app: LaunchedApp, passcode: string, biometry: "Enable" | "Not now") => {
  await open(app, "/passcode/settings")
  const gate = app.app().getByRole("dialog", { name: "Enter passcode" })
  const create = app.app().getByRole("button", { name: "Create passcode" })
  await gate.or(create).first().waitFor({ timeout: 45_000 })
  if (await gate.isVisible()) {
    await pad(app, passcode)
    await app.app().getByRole("button", { name: "Change passcode" }).waitFor()
    return "existing" as const
  }
  await create.click()
  await app.app().getByRole("button", { name: "Create passcode" }).click()
  await app.app().getByRole("heading", { name: "Create a passcode" }).waitFor()
  await pad(app, passcode)
  await app.app().getByRole("heading", { name: "Confirm passcode" }).waitFor()
  await pad(app, passcode)
  const offer = app.app().getByRole("heading", { name: "Unlock with biometry?" })
  const done = app.app().getByRole("heading", { name: "Passcode created" })
  // A further device of the user confirms with a code sent to the recovery email on file (decision 0540).
  const existingCode = app.app().getByText(/We sent a 6-digit code to/)
  await app.app().getByRole("heading", { name: "Recovery email" }).or(existingCode).or(offer).or(done).first().waitFor()
  if (await app.app().getByRole("heading", { name: "Recovery email" }).isVisible()) {
    await app.app().getByLabel("Email address").fill(EMAIL)
    await app.app().getByRole("button", { name: "Continue" }).click()
    await app
      .app()
      .getByLabel("6-digit code")
      .fill(await codeFromOutbox(app))
    await offer.or(done).first().waitFor()
  } else if (await existingCode.isVisible()) {
    await app
      .app()
      .getByLabel("6-digit code")
      .fill(await codeFromOutbox(app))
    await offer.or(done).first().waitFor()
  }
  if (await offer.isVisible()) await app.app().getByRole("button", { name: biometry }).click()
  await done.waitFor()
  await app.app().getByRole("button", { name: "Done" }).click()
  return "created" as const
}

/** Create a wallet, back it up, and seal it with `passcode` (the sealing screen asks for it). */
const createSealedWallet = async (app: LaunchedApp, passcode: string) => {
  await goTo(app, "/scw")
  await app.waitForPath("/scw")
  await waitMain(app, "Create a new wallet")
  await press(app)
  await app.waitForPath("/scw/backup/manual")
  const list = app.app().getByRole("list", { name: "Recovery phrase, 24 words" })
  await list.waitFor()
  const words = (await list.locator("li").allInnerTexts()).map((line) => line.replace(/^\d+\.\s*/, "").trim())
  await press(app)
  await app.waitForPath("/scw/backup/test")
  const labels = await app.app().locator("label").allInnerTexts()
  const fields = app.app().getByRole("textbox")
  for (const [i, label] of labels.entries()) await fields.nth(i).fill(words[Number(/#(\d+)/.exec(label)![1]) - 1]!)
  await waitMain(app, "Continue")
  await press(app)
  await app.waitForPath("/scw/backup/success")
  await waitMain(app, "Open wallet")
  await press(app)
  await app.app().getByRole("dialog", { name: "Enter passcode" }).getByRole("heading", { name: "Enter passcode" }).waitFor()
  await pad(app, passcode)
  await app.app().waitForFunction(() => window.location.pathname === "/scw", undefined, { timeout: 45_000 })
  await expect.poll(() => blob(app).then((b) => b?.slice(0, 3) ?? null), { timeout: 20_000 }).toBe("v2:")
  return words
}

describe("TON space vault re-keyed on a passcode change (decision 0530)", () => {
  it("changing the passcode re-keys the vault: after a reload a send opens it with the NEW passcode (no biometry)", async () => {
    const requests: Array<Captured> = []
    const app = await launch(stack, { user: "balances", before: (page) => capture(page, requests) })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()

    // A passcode without biometry, then a wallet sealed under it: one passcode slot, no biometry slot.
    await passcodeSettings(app, OLD, "Not now")
    await createSealedWallet(app, OLD)
    expect(await slotsOf(app)).toEqual({ names: ["passcode"], passcode: 1 })
    expect(await deviceToken(app)).toBe("")
    const address = (await walletAddress(app))!
    await stack.devnet!.faucet({ address, ton: 5_000_000_000n })

    // A reload drops the words from memory; then the passcode is changed in the passcode settings.
    await reloadAtScw(app)
    await passcodeSettings(app, OLD, "Not now")
    await app.app().getByRole("button", { name: "Change passcode" }).click()
    await app.app().getByRole("heading", { name: "Enter current passcode" }).waitFor()
    await pad(app, OLD)
    await app.app().getByRole("heading", { name: "Enter a new passcode" }).waitFor()
    await pad(app, NEW)
    await app.app().getByRole("heading", { name: "Confirm passcode" }).waitFor()
    const beforeSave = requests.length
    await pad(app, NEW)
    await app.app().getByRole("heading", { name: "Passcode changed" }).waitFor()
    await shots(app, "changed")
    // The hook asked the device key with the CURRENT passcode before the server's change, and added a slot for the new one.
    const saved = requests.slice(beforeSave)
    const keyGet = saved.findIndex((r) => r.url.includes("/api/device-keys/get"))
    const update = saved.findIndex((r) => r.url.includes("/api/passcode/update"))
    expect(keyGet).toBeGreaterThanOrEqual(0)
    expect(update).toBeGreaterThan(keyGet)
    expect(JSON.parse(saved[keyGet]!.post)).toMatchObject({ passcode: OLD })
    expect(await slotsOf(app)).toEqual({ names: ["passcode"], passcode: 2 })
    await app.app().getByRole("button", { name: "Done" }).click()

    // Reload (nothing in memory), send with the NEW passcode: the vault opens and the transfer lands.
    await reloadAtScw(app)
    await expect.poll(() => refreshedMain(app), { timeout: 30_000, interval: 1_000 }).toContain("5 TON")
    const friend = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet").address
    await app.app().getByRole("button", { name: "Send", exact: true }).click()
    await app.waitForPath("/scw/send")
    await app.app().getByRole("textbox", { name: "Recipient" }).fill(friend)
    await app.app().getByRole("textbox", { name: "Amount" }).fill("1")
    await waitMain(app, "Continue")
    await press(app)
    await app.waitForPath("/scw/send-ton-confirmation")
    await app
      .app()
      .getByText(/≈ 0\.\d+ TON/)
      .waitFor({ timeout: 20_000 })
    await waitMain(app, "Confirm and send")
    const beforeSend = requests.length
    await press(app)
    const dialog = app.app().getByRole("dialog", { name: "Enter passcode" })
    await dialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
    await pad(app, NEW)
    await waitPath(app, "/scw/send-success")
    const gets = requests.slice(beforeSend).filter((r) => r.url.includes("/api/device-keys/get"))
    expect(gets.map((g) => (JSON.parse(g.post) as { passcode?: string }).passcode)).toEqual([NEW])
    // The first unlock afterwards keeps only the slot that opened.
    await expect.poll(() => slotsOf(app), { timeout: 10_000 }).toEqual({ names: ["passcode"], passcode: 1 })
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")
    // The balance drops below 4 TON (1 TON sent plus the fee): the transfer landed.
    await expect.poll(() => refreshedMain(app), { timeout: 45_000, interval: 1_500 }).toMatch(/TON balance\s+3\.9\d* TON/)

    // A reset (forgotten passcode) cannot re-key: its first screen says so while a vault exists.
    await passcodeSettings(app, NEW, "Not now")
    await app.app().getByRole("button", { name: "Forgot passcode?" }).click()
    await app.app().getByRole("heading", { name: "Before you reset" }).waitFor()
    expect(await app.app().getByRole("note").innerText()).toContain("import your 24 words again")
    await shots(app, "reset-warning")
    await app.app().getByRole("button", { name: "Continue" }).click()
    await app
      .app()
      .getByLabel("6-digit code")
      .fill(await codeFromOutbox(app))
    await app.app().getByRole("heading", { name: "Set a new passcode" }).waitFor()
    await pad(app, RESET)
    await app.app().getByRole("heading", { name: "Confirm passcode" }).waitFor()
    await pad(app, RESET)
    await app.app().getByRole("heading", { name: "Passcode reset" }).waitFor()
    await app.app().getByRole("button", { name: "Done" }).click()
    // The vault kept its slot (decision 0530); the reset passcode does not open it, and the Recovery
    // screen shows the vault's spec text instead of a generic failure.
    expect(await slotsOf(app)).toEqual({ names: ["passcode"], passcode: 1 })
    await reloadAtScw(app)
    await open(app, "/scw/settings/recovery")
    await waitMain(app, "Show recovery phrase")
    await press(app)
    await app.app().getByRole("dialog", { name: "Enter passcode" }).getByRole("heading", { name: "Enter passcode" }).waitFor()
    await pad(app, RESET)
    const alert = app.app().getByRole("alert").filter({ hasText: "Could not open the wallet's keys" })
    await alert.waitFor({ timeout: 30_000 })
    expect(await alert.innerText()).toBe("Could not open the wallet's keys: Failed to decrypt client side wallet creds")
    await shots(app, "recovery-vault-error")
    await app.page.close()
  }, 180_000)

  it("logout of the TON space keeps passcode biometry on", async () => {
    const app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()
    // This browser is a new device: the passcode (NEW after the first test, else created here) and biometry on for it.
    const passcode = NEW
    const how = await passcodeSettings(app, passcode, "Enable")
    if (how === "existing") {
      await app.app().getByRole("switch", { name: "Unlock with Face ID" }).click()
      await app.app().getByRole("heading", { name: "Enter passcode" }).waitFor()
      await pad(app, passcode)
      await app.app().getByText("Biometry enabled").waitFor()
    }
    const serverToken = await deviceToken(app)
    expect(serverToken.length).toBeGreaterThan(16)

    // A sealed wallet with a biometry slot: the device token now carries the vault's secret too.
    await createSealedWallet(app, passcode)
    await expect.poll(async () => (await deviceToken(app)).startsWith("kvb1."), { timeout: 20_000 }).toBe(true)

    // Log out of the TON space: the vault is gone, the device's biometry token stays.
    await open(app, "/scw/settings/logout")
    await waitMain(app, "Log out")
    await press(app)
    await app.app().getByText("Logged out of TON Space").waitFor({ timeout: 30_000 })
    await expect.poll(() => blob(app), { timeout: 10_000 }).toBeNull()
    expect((await deviceToken(app)).startsWith("kvb1.")).toBe(true)

    // The passcode settings gate opens with one biometry prompt, no passcode screen; biometry is still on.
    const prompts = await authPrompts(app)
    await goTo(app, "/passcode/settings")
    await app.app().getByRole("button", { name: "Change passcode" }).waitFor({ timeout: 20_000 })
    expect(await authPrompts(app)).toBe(prompts + 1)
    expect(await app.app().getByRole("dialog", { name: "Enter passcode" }).count()).toBe(0)
    expect(await app.app().getByRole("switch", { name: "Unlock with Face ID" }).isChecked()).toBe(true)
    await shots(app, "after-logout-settings")
    await app.page.close()
  }, 120_000)
})
