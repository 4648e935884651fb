import type { Page, Request } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { keysOf } from "../../plugins/ton-space/src/ton/wallet.ts"
import {
  createBackedUpWallet,
  createPasscode,
  pad,
  press,
  refreshedMain,
  reloadMain,
  screenshots,
  startDevnetStack,
  startSend,
  text,
  waitMain,
  waitPath,
  walletAddress,
} from "./support/ton-space.ts"

// The TON space's key vault with biometry (decision 0520) on the in-process devnet: the words sealed
// under the passcode with a biometry slot; a send after a reload opens the vault with biometry only;
// inside the unlock window a send still gets one credential.
let stack: Stack
beforeAll(async () => void (stack = await startDevnetStack()))
afterAll(async () => {
  await stack?.close()
})

const EMAIL = "ton.space.vault.e2e@example.com"
const PASSCODE = "2468"
const UNLOCK_UNTIL_KEY = "wallet:passcode:unlock-until"

const { shots } = screenshots("ton-space-vault", { settleMs: 400 })
const authPrompts = (app: LaunchedApp) => app.telegram<number>("t.callsOf('web_app_biometry_request_auth').length")

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
    // The recovery email is asked only the first time for this user (a retry on the same stack skips it).
    await createPasscode(app, { stack, passcode: PASSCODE, email: EMAIL, biometry: "Enable", emailOnce: true })
    const serverToken = (await app.telegram<{ token: string }>("t.biometry")).token
    expect(serverToken.length).toBeGreaterThan(16)
    expect(serverToken.startsWith("kvb1.")).toBe(false)

    // Create and back up; sealing asks for the passcode itself (no biometry key on that screen).
    const words = await createBackedUpWallet(app)
    const sealDialog = app.app().getByRole("dialog", { name: "Enter passcode" })
    await sealDialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
    // The screen stays without a biometry key (biometry is on, but sealing needs the digits).
    await app.page.waitForTimeout(300)
    expect(await sealDialog.getByRole("button", { name: "Use biometry" }).count()).toBe(0)
    await shots(app, "seal-passcode")
    await pad(app, PASSCODE)
    await waitPath(app, "/scw")
    // The blob, and the biometry slot: the device token now carries the vault's secret beside the server's token.
    await expect
      .poll(() => app.app().evaluate(() => localStorage.getItem("wallet:tonSpace.keyvault.blob")?.slice(0, 3) ?? null), { timeout: 20_000 })
      .toBe("v2:")
    await expect.poll(async () => (await app.telegram<{ token: string }>("t.biometry")).token.startsWith("kvb1."), { timeout: 20_000 }).toBe(true)
    const blob = await app.app().evaluate(() => localStorage.getItem("wallet:tonSpace.keyvault.blob")!)
    const slots = (JSON.parse(Buffer.from(blob.slice(3), "base64url").toString("utf8")) as { slots: Record<string, unknown> }).slots
    expect(Object.keys(slots).sort()).toEqual(["biometry", "passcode"])
    const address = (await walletAddress(app))!
    await stack.devnet!.faucet({ address, ton: 5_000_000_000n })

    // After a reload (the words in memory are gone) a send opens the vault with biometry only.
    await reloadMain(app)
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
    await reloadMain(app)
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
    await reloadMain(app)
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
