import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../../plugins/ton-space/src/ton/wallet.ts"

// Steps the TON space and TonConnect browser tests share: the fake Telegram client's buttons, the
// passcode and wallet-creation flows as a user walks them, screenshots, stored state and the devnet.
// Not a test file (no `.e2e.` in the name): vitest's e2e project does not collect it.

/** Starts the stack with the in-process devnet and makes sure the screenshot folder exists. */
export const startDevnetStack = async (): Promise<Stack> => {
  const stack = await startStack({ devnet: true })
  mkdirSync(screenshotDir, { recursive: true })
  return stack
}

/** Presses Telegram's main button. */
export const press = (app: LaunchedApp) => app.telegram("t.pressMain()")
/** Presses Telegram's back button. */
export const back = (app: LaunchedApp) => app.telegram("t.pressBack()")
/** The mini-app's visible text. */
export const text = (app: LaunchedApp) => app.app().locator("body").innerText()

/** Waits until the main button shows `label`, visible and active. */
export const waitMain = async (app: LaunchedApp, label: string): Promise<void> => {
  await app.page.waitForFunction(
    (l) =>
      window.fakeTelegram?.mainButton.is_visible === true && window.fakeTelegram.mainButton.text === l && window.fakeTelegram.mainButton.is_active === true,
    label,
    { timeout: 20_000 },
  )
}

/** Like `waitForPath`, with room for the vault, the signature and the chain on a loaded machine. */
export const waitPath = (app: LaunchedApp, pathname: string) => app.app().waitForFunction((p) => window.location.pathname === p, pathname, { timeout: 45_000 })

/** Types digits on the passcode keypad. */
export const pad = async (app: LaunchedApp, digits: string): Promise<void> => {
  for (const d of digits) await app.app().getByRole("button", { name: d, exact: true }).click()
}

/** Client-side navigation inside the mini-app (as a link would). */
export const goTo = (app: LaunchedApp, path: string) =>
  app.app().evaluate((p) => {
    history.pushState({}, "", p)
    dispatchEvent(new PopStateEvent("popstate"))
  }, path)

/** The 6-digit code last mailed to `email`, read from the dev server's outbox (up to 10 s). */
export const codeFromOutbox = async (stack: Stack, app: LaunchedApp, email: string): Promise<string> => {
  const page = await app.page.context().newPage()
  try {
    for (let i = 0; i < 40; i++) {
      await page.goto(`${stack.server.url}/api/dev/outbox.html?recipient=${encodeURIComponent(email)}`)
      const found = /\b(\d{6})\b/.exec(await page.locator("body").innerText())
      if (found) return found[1]!
      await page.waitForTimeout(250)
    }
    throw new Error("no code in the outbox")
  } finally {
    await page.close()
  }
}

export interface PasscodeSetup {
  readonly stack: Stack
  readonly passcode: string
  readonly email: string
  /** The answer to the biometry offer (default "Not now"). */
  readonly biometry?: "Enable" | "Not now"
  /** The recovery email is asked once per user: when true a retry on the same stack may skip it. */
  readonly emailOnce?: boolean
  /** When true, a device that already has a passcode ("Change passcode" shows) is left as it is. */
  readonly reuse?: boolean
}

/** Creates a passcode from /passcode/settings (recovery email with the outbox code, the biometry offer); "existing" when `reuse` found one. */
export const createPasscode = async (app: LaunchedApp, setup: PasscodeSetup): Promise<"created" | "existing"> => {
  const f = app.app()
  await goTo(app, "/passcode/settings")
  const create = f.getByRole("button", { name: "Create passcode" })
  if (setup.reuse) {
    const change = f.getByRole("button", { name: "Change passcode" })
    await create.or(change).first().waitFor()
    if (await change.isVisible()) return "existing"
  }
  await create.click()
  await f.getByRole("button", { name: "Create passcode" }).click()
  await f.getByRole("heading", { name: "Create a passcode" }).waitFor()
  await pad(app, setup.passcode)
  await f.getByRole("heading", { name: "Confirm passcode" }).waitFor()
  await pad(app, setup.passcode)
  const email = f.getByRole("heading", { name: "Recovery email" })
  const offer = f.getByRole("heading", { name: "Unlock with biometry?" })
  // A user who has a recovery email already (a retry, another device) confirms with a code sent to it (decision 0540).
  const existingCode = f.getByText(/We sent a 6-digit code to/)
  if (setup.emailOnce) await email.or(existingCode).or(offer).first().waitFor()
  else await email.waitFor()
  if (!setup.emailOnce || (await email.isVisible())) {
    await f.getByLabel("Email address").fill(setup.email)
    await f.getByRole("button", { name: "Continue" }).click()
    await f.getByLabel("6-digit code").fill(await codeFromOutbox(setup.stack, app, setup.email))
  } else if (await existingCode.isVisible()) {
    await f.getByLabel("6-digit code").fill(await codeFromOutbox(setup.stack, app, setup.email))
  }
  await offer.waitFor()
  await f.getByRole("button", { name: setup.biometry ?? "Not now" }).click()
  await f.getByRole("heading", { name: "Passcode created" }).waitFor()
  await f.getByRole("button", { name: "Done" }).click()
  return "created"
}

/** From the onboarding's "Create a new wallet" to the backup screen. */
export const startNewWallet = async (app: LaunchedApp): Promise<void> => {
  await waitMain(app, "Create a new wallet")
  await press(app)
  await app.waitForPath("/scw/backup/manual")
}

/** The words on the backup screen, in order (the list is named in `listName`'s language). */
export const backupWords = async (app: LaunchedApp, listName = "Recovery phrase, 24 words"): Promise<Array<string>> => {
  const list = app.app().getByRole("list", { name: listName })
  await list.waitFor()
  return (await list.locator("li").allInnerTexts()).map((line) => line.replace(/^\d+\.\s*/, "").trim())
}

/** The word test's field indices into the words (from the labels "Word #n"). */
export const wordTestIndices = async (app: LaunchedApp): Promise<Array<number>> =>
  (await app.app().locator("label").allInnerTexts()).map((label) => Number(/#(\d+)/.exec(label)![1]) - 1)

/** From the backup screen through the word test (right words) to the success screen. */
export const passWordTest = async (app: LaunchedApp, words: ReadonlyArray<string>): Promise<void> => {
  await press(app)
  await app.waitForPath("/scw/backup/test")
  const fields = app.app().getByRole("textbox")
  await fields.first().waitFor()
  for (const [i, index] of (await wordTestIndices(app)).entries()) await fields.nth(i).fill(words[index]!)
  await waitMain(app, "Continue")
  await press(app)
  await app.waitForPath("/scw/backup/success")
}

/** Goes to /scw, creates a wallet, backs it up with the word test and presses "Open wallet"; returns the words. */
export const createBackedUpWallet = async (app: LaunchedApp): Promise<Array<string>> => {
  await goTo(app, "/scw")
  await app.waitForPath("/scw")
  await startNewWallet(app)
  const words = await backupWords(app)
  await passWordTest(app, words)
  await waitMain(app, "Open wallet")
  await press(app)
  return words
}

/** The onboarding's import labels, in one language. */
export interface ImportLabels {
  readonly start: string
  readonly phrase: string
  readonly import: string
  readonly open: string
}
export const IMPORT_EN: ImportLabels = { start: "Import an existing wallet", phrase: "Recovery phrase", import: "Import", open: "Open wallet" }
export const IMPORT_RU: ImportLabels = { start: "Импортировать кошелёк", phrase: "Секретная фраза", import: "Импортировать", open: "Открыть кошелёк" }

/** From the onboarding on /scw: imports `words` and presses "Open wallet" on the success screen. */
export const importWords = async (app: LaunchedApp, words: ReadonlyArray<string>, labels: ImportLabels = IMPORT_EN): Promise<void> => {
  await app.app().getByRole("button", { name: labels.start }).click()
  await app.waitForPath("/scw/import/mnemonic")
  await app.app().getByRole("textbox", { name: labels.phrase }).fill(words.join(" "))
  await waitMain(app, labels.import)
  await press(app)
  await app.waitForPath("/scw/import/success")
  await waitMain(app, labels.open)
  await press(app)
}

/** The TON space wallet as the client stores it (localStorage `wallet:tonSpace.wallet`, its `data`). */
export interface StoredWallet {
  readonly address?: string
  readonly raw?: string
  readonly manualBackupComplete: boolean
  readonly serverBackups?: ReadonlyArray<string>
  readonly pending: { readonly pending: ReadonlyArray<unknown>; readonly finalized: ReadonlyArray<unknown> }
}
/** The stored wallet, or undefined before there is one. */
export const walletState = (app: LaunchedApp): Promise<StoredWallet | undefined> =>
  app.app().evaluate(() => (JSON.parse(localStorage.getItem("wallet:tonSpace.wallet") ?? "null") as { data?: StoredWallet } | null)?.data)
/** The stored wallet's user-friendly address. */
export const walletAddress = async (app: LaunchedApp) => (await walletState(app))?.address
/** The stored wallet's raw address (0:hex). */
export const walletRaw = async (app: LaunchedApp) => (await walletState(app))?.raw

/** Main reloads its data when the user comes back to it: go to Receive and back, then read the screen. */
export const refreshedMain = async (app: LaunchedApp): Promise<string> => {
  await app.app().getByRole("button", { name: "Receive", exact: true }).click()
  await app.waitForPath("/scw/qr")
  await back(app)
  await app.waitForPath("/scw")
  await app.app().getByText("TON balance").waitFor()
  return text(app)
}

/** Reloads the mini-app on /scw (the words in memory are gone) and waits for wallet main. */
export const reloadMain = async (app: LaunchedApp): Promise<void> => {
  await app.app().evaluate(() => location.reload())
  await app.waitForPath("/scw")
  await app.app().getByText("TON balance").waitFor()
}

/** Sends 1 TON to a fresh wallet from /scw, up to the confirmation's main button press. */
export const startSend = async (app: LaunchedApp): Promise<void> => {
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
  await press(app)
}

/** Screenshots into the shared folder, file names starting with `prefix`; `shots` is light then dark then back to light. */
export const screenshots = (prefix: string, options: { readonly settleMs?: number } = {}) => {
  const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `${prefix}-${name}.png`) })
  const shots = async (app: LaunchedApp, name: string): Promise<void> => {
    await shot(app, `${name}-light`)
    await app.telegram(`t.setTheme("dark")`)
    await app.app().waitForFunction(() => document.documentElement.dataset.colorScheme === "dark")
    if (options.settleMs) await app.page.waitForTimeout(options.settleMs)
    await shot(app, `${name}-dark`)
    await app.telegram(`t.setTheme("light")`)
    await app.app().waitForFunction(() => document.documentElement.dataset.colorScheme === "light")
  }
  return { shot, shots }
}

/** An account's balance in nanotons from the devnet's tonapi-compatible API (0 when it is unknown). */
export const balanceOf = async (stack: Stack, address: string): Promise<bigint> => {
  const response = await fetch(`${stack.devnet!.url}/v2/accounts/${encodeURIComponent(address)}`)
  if (!response.ok) return 0n
  return BigInt(((await response.json()) as { balance?: number | string }).balance ?? 0)
}

/** Polls the devnet every 500 ms (up to 30 s) until `address` holds `nano`; returns the last balance read. */
export const untilBalance = async (stack: Stack, address: string, nano: bigint): Promise<bigint> => {
  let balance = await balanceOf(stack, address)
  for (let tries = 0; balance !== nano && tries < 60; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    balance = await balanceOf(stack, address)
  }
  return balance
}
