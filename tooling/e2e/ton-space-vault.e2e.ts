import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Page, Request } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"

// The TON space's key vault with biometry (decision 0520) on the in-process devnet: the words sealed
// under the passcode with a biometry slot; a send after a reload opens the vault with biometry only;
// inside the unlock window a send still gets one credential.
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ devnet: true })
  mkdirSync(screenshotDir, { recursive: true })
})
afterAll(async () => {
  await stack?.close()
})

const EMAIL = "ton.space.vault.e2e@example.com"
const PASSCODE = "2468"
const UNLOCK_UNTIL_KEY = "wallet:passcode:unlock-until"

const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `ton-space-vault-${name}.png`) })
const shots = async (app: LaunchedApp, name: string) => {
  await shot(app, `${name}-light`)
  await app.telegram("t.setTheme('dark')")
  await app.app().waitForFunction(() => document.documentElement.dataset.colorScheme === "dark")
  await app.page.waitForTimeout(400)
  await shot(app, `${name}-dark`)
  await app.telegram("t.setTheme('light')")
  await app.app().waitForFunction(() => document.documentElement.dataset.colorScheme === "light")
}
const text = (app: LaunchedApp) => app.app().locator("body").innerText()
const press = (app: LaunchedApp) => app.telegram("t.pressMain()")
const pad = async (app: LaunchedApp, digits: string) => {
  for (const d of digits) await app.app().getByRole("button", { name: d, exact: true }).click()
}
const goTo = (app: LaunchedApp, path: string) =>
  app.app().evaluate((p) => {
    history.pushState({}, "", p)
    dispatchEvent(new PopStateEvent("popstate"))
  }, path)
const waitMain = async (app: LaunchedApp, label: string) => {
  await app.page.waitForFunction(
    (l) => window.fakeTelegram?.mainButton.is_visible === true && window.fakeTelegram.mainButton.text === l && window.fakeTelegram.mainButton.is_active === true,
    label,
    { timeout: 20_000 },
  )
}
const walletAddress = (app: LaunchedApp) =>
  app.app().evaluate(() => {
    const raw = localStorage.getItem("wallet:tonSpace.wallet")
    return raw ? (JSON.parse(raw) as { data: { address?: string } }).data.address : undefined
  })
/** Main reloads its data when the user comes back to it: go to Receive and back, then read the screen. */
const refreshedMain = async (app: LaunchedApp) => {
  await app.app().getByRole("button", { name: "Receive", exact: true }).click()
  await app.waitForPath("/scw/qr")
  await app.telegram("t.pressBack()")
  await app.waitForPath("/scw")
  await app.app().getByText("TON balance").waitFor()
  return text(app)
}
const authPrompts = (app: LaunchedApp) => app.telegram<number>("t.callsOf('web_app_biometry_request_auth').length")
const reload = async (app: LaunchedApp) => {
  await app.app().evaluate(() => location.reload())
  await app.waitForPath("/scw")
  await app.app().getByText("TON balance").waitFor()
}

interface Captured {
  readonly url: string
  readonly method: string
  /** The request body as the app's fetch sent it (the network event does not carry Request-object bodies). */
  readonly post: string
  /** URL, headers and body, for the secrecy scan. */
  readonly body: string
}
/** Every request of the page and its frames (URL and headers), plus every fetch body of the app. */
const capture = async (page: Page, into: Array<Captured>) => {
  page.on("request", (request: Request) => {
    into.push({ url: request.url(), method: request.method(), post: "", body: `${JSON.stringify(request.headers())}\n${request.postData() ?? ""}` })
  })
  await page.exposeBinding("__vaultE2eCapture", (_source, entry: { url: string; method: string; body: string }) => {
    into.push({ url: entry.url, method: `fetch:${entry.method}`, post: entry.body, body: entry.body })
  })
  await page.addInitScript(() => {
    const original = window.fetch.bind(window)
    const report = (window as unknown as { __vaultE2eCapture?: (entry: { url: string; method: string; body: string }) => void }).__vaultE2eCapture
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      try {
        const copy = input instanceof Request ? new Request(input.clone(), init) : new Request(input, init)
        const body = copy.method === "GET" || copy.method === "HEAD" ? "" : await copy.text()
        report?.({ url: copy.url, method: copy.method, body })
      } catch {
        // The capture never changes what the app sends.
      }
      return original(input, init)
    }
  })
}
const deviceKeyGets = (requests: ReadonlyArray<Captured>) =>
  requests.filter((r) => r.method === "fetch:POST" && r.url.includes("/api/device-keys/get")).map((r) => JSON.parse(r.post) as Record<string, unknown>)
const passcodeSent = (requests: ReadonlyArray<Captured>) => requests.filter((r) => /"passcode"\s*:/.test(r.post)).map((r) => r.url)

const codeFromOutbox = async (app: LaunchedApp): Promise<string> => {
  const page = await app.page.context().newPage()
  try {
    for (let i = 0; i < 40; i++) {
      await page.goto(`${stack.server.url}/api/dev/outbox.html?recipient=${encodeURIComponent(EMAIL)}`)
      const found = /\b(\d{6})\b/.exec(await page.locator("body").innerText())
      if (found) return found[1]!
      await page.waitForTimeout(250)
    }
    throw new Error("no code in the outbox")
  } finally {
    await page.close()
  }
}

/** Send 1 TON to a fresh wallet from /scw, up to the confirmation's main button press. */
const startSend = async (app: LaunchedApp) => {
  const friend = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet").address
  await app.app().getByRole("button", { name: "Send", exact: true }).click()
  await app.waitForPath("/scw/send")
  await app.app().getByRole("textbox", { name: "Recipient" }).fill(friend)
  await app.app().getByRole("textbox", { name: "Amount" }).fill("1")
  await waitMain(app, "Continue")
  await press(app)
  await app.waitForPath("/scw/send-ton-confirmation")
  await app.app().getByText(/≈ 0\.\d+ TON/).waitFor({ timeout: 20_000 })
  await waitMain(app, "Confirm and send")
  await press(app)
}
/** Like `waitForPath`, with room for the vault, the signature and the chain on a loaded machine. */
const waitPath = (app: LaunchedApp, pathname: string) => app.app().waitForFunction((p) => window.location.pathname === p, pathname, { timeout: 45_000 })
const finishSend = async (app: LaunchedApp) => {
  await waitPath(app, "/scw/send-success")
  await waitMain(app, "Done")
  await press(app)
  await app.waitForPath("/scw")
  await app.app().getByText("TON balance").waitFor()
}

describe("TON space key vault with biometry (decision 0520)", () => {
  it("seals with a biometry slot; after a reload biometry alone opens the vault; in the unlock window a send asks one credential", async () => {
    const requests: Array<Captured> = []
    const app = await launch(stack, { user: "balances", before: (page) => capture(page, requests) })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()

    // A passcode, and biometry enabled from the creation's offer (the fake client grants access).
    await goTo(app, "/passcode/settings")
    await app.app().getByRole("button", { name: "Create passcode" }).click()
    await app.app().getByRole("button", { name: "Create passcode" }).click()
    await app.app().getByRole("heading", { name: "Create a passcode" }).waitFor()
    await pad(app, PASSCODE)
    await app.app().getByRole("heading", { name: "Confirm passcode" }).waitFor()
    await pad(app, PASSCODE)
    // The recovery email is asked only the first time for this user (a retry on the same stack skips it).
    const offer = app.app().getByRole("heading", { name: "Unlock with biometry?" })
    await app.app().getByRole("heading", { name: "Recovery email" }).or(offer).waitFor()
    if (!(await offer.isVisible())) {
      await app.app().getByLabel("Email address").fill(EMAIL)
      await app.app().getByRole("button", { name: "Continue" }).click()
      await app.app().getByLabel("6-digit code").fill(await codeFromOutbox(app))
      await offer.waitFor()
    }
    await app.app().getByRole("button", { name: "Enable" }).click()
    await app.app().getByRole("heading", { name: "Passcode created" }).waitFor()
    await app.app().getByRole("button", { name: "Done" }).click()
    const serverToken = (await app.telegram<{ token: string }>("t.biometry")).token
    expect(serverToken.length).toBeGreaterThan(16)
    expect(serverToken.startsWith("kvb1.")).toBe(false)

    // Create and back up; sealing asks for the passcode itself (no biometry key on that screen).
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
    const sealDialog = app.app().getByRole("dialog", { name: "Enter passcode" })
    await sealDialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
    // The screen stays without a biometry key (biometry is on, but sealing needs the digits).
    await app.page.waitForTimeout(300)
    expect(await sealDialog.getByRole("button", { name: "Use biometry" }).count()).toBe(0)
    await shots(app, "seal-passcode")
    await pad(app, PASSCODE)
    await waitPath(app, "/scw")
    // The blob, and the biometry slot: the device token now carries the vault's secret beside the server's token.
    await expect.poll(() => app.app().evaluate(() => localStorage.getItem("wallet:tonSpace.keyvault.blob")?.slice(0, 3) ?? null), { timeout: 20_000 }).toBe("v2:")
    await expect.poll(async () => (await app.telegram<{ token: string }>("t.biometry")).token.startsWith("kvb1."), { timeout: 20_000 }).toBe(true)
    const blob = await app.app().evaluate(() => localStorage.getItem("wallet:tonSpace.keyvault.blob")!)
    const slots = (JSON.parse(Buffer.from(blob.slice(3), "base64url").toString("utf8")) as { slots: Record<string, unknown> }).slots
    expect(Object.keys(slots).sort()).toEqual(["biometry", "passcode"])
    const address = (await walletAddress(app))!
    await stack.devnet!.faucet({ address, ton: 5_000_000_000n })

    // After a reload (the words in memory are gone) a send opens the vault with biometry only.
    await reload(app)
    await expect.poll(() => refreshedMain(app), { timeout: 30_000, interval: 1_000 }).toContain("5 TON")
    expect(await text(app)).not.toContain("Recovery phrase needed")
    const beforeBiometrySend = requests.length
    const promptsBefore = await authPrompts(app)
    await startSend(app)
    await finishSend(app)
    expect(await authPrompts(app)).toBe(promptsBefore + 1)
    const biometrySend = requests.slice(beforeBiometrySend)
    const gets = deviceKeyGets(biometrySend)
    expect(gets).toHaveLength(1)
    expect(typeof gets[0]!.biometryToken).toBe("string")
    expect(gets[0]).not.toHaveProperty("passcode")
    expect(passcodeSent(biometrySend)).toEqual([])
    await shots(app, "main-after-biometry-send")

    // Inside the unlock window (remembered, set as the server's unlockDuration would) after a
    // reload: the send still gets a credential, asked once (the biometry prompt), and lands.
    await app.app().evaluate((key) => localStorage.setItem(key, String(Date.now() + 10 * 60_000)), UNLOCK_UNTIL_KEY)
    await reload(app)
    const beforeWindowSend = requests.length
    const windowPrompts = await authPrompts(app)
    await startSend(app)
    await finishSend(app)
    expect(await authPrompts(app)).toBe(windowPrompts + 1)
    expect(deviceKeyGets(requests.slice(beforeWindowSend))).toHaveLength(1)
    expect(passcodeSent(requests.slice(beforeWindowSend))).toEqual([])

    // Still inside the window, biometry failing: the passcode screen asks once and the send lands.
    await app.telegram("(t.biometry.nextAuth = 'fail')")
    await app.app().evaluate((key) => localStorage.setItem(key, String(Date.now() + 10 * 60_000)), UNLOCK_UNTIL_KEY)
    await reload(app)
    const beforePasscodeSend = requests.length
    await startSend(app)
    const dialog = app.app().getByRole("dialog", { name: "Enter passcode" })
    await dialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
    await pad(app, PASSCODE)
    await finishSend(app)
    const passcodeSend = requests.slice(beforePasscodeSend)
    expect(deviceKeyGets(passcodeSend).map((g) => typeof g.passcode)).toEqual(["string"])
    expect(passcodeSend.filter((r) => r.method === "fetch:POST" && r.url.includes("/api/passcode/verify"))).toHaveLength(1)

    // No request carried the vault's biometry secret, the words or the private key.
    const deviceToken = (await app.telegram<{ token: string }>("t.biometry")).token
    const secretPart = deviceToken.split(".")[1]!
    const keys = await keysOf(words)
    const pairs = words.slice(1).map((w, i) => new RegExp(`\\b${words[i]}\\b[^a-z]{1,8}\\b${w}\\b`, "i"))
    for (const request of requests) {
      const haystack = `${decodeURIComponent(request.url)}\n${request.body}`
      expect(haystack.includes("kvb1."), `vault token in ${request.url}`).toBe(false)
      expect(haystack.includes(secretPart)).toBe(false)
      expect(haystack.includes(keys.secretKey.toString("hex"))).toBe(false)
      expect(haystack.includes(keys.secretKey.subarray(0, 32).toString("hex"))).toBe(false)
      for (const pair of pairs) expect(pair.test(haystack), `mnemonic words in ${request.url}`).toBe(false)
    }
    await app.page.close()
  })
})
