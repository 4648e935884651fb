import { join } from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import {
  balanceOf,
  createBackedUpWallet,
  createPasscode,
  goTo,
  pad,
  press,
  screenshots,
  startDevnetStack,
  waitMain,
  walletAddress,
} from "./support/ton-space.ts"
import { startEngineWallet } from "../demo-dapp/src/engine-wallet.ts"
import { startDemoDapp, startParamOf, type DemoDapp } from "../harness/src/demo-dapp.ts"

let stack: Stack
let dapp: DemoDapp
beforeAll(async () => {
  stack = await startDevnetStack()
  dapp = await startDemoDapp({ bridgeUrl: `${stack.server.url}/bridge` })
})
afterAll(async () => {
  await dapp?.close()
  await stack?.close()
})

interface DappPage {
  readonly page: Page
  readonly context: BrowserContext
  /** Links the page tried to open (window.open): the wallet links. */
  readonly opened: () => Promise<ReadonlyArray<string>>
  /** Requests to anything but this machine (must stay empty). */
  readonly outside: Array<string>
}

/** The demo dApp in its own browser context; window.open is recorded instead of opening Telegram. */
const openDapp = async (colorScheme: "light" | "dark" = "light"): Promise<DappPage> => {
  const context = await stack.browser.newContext({ viewport: { width: 900, height: 860 }, colorScheme })
  const outside: Array<string> = []
  await context.route(/^(?!https?:\/\/127\.0\.0\.1[:/])/, (route) => {
    outside.push(route.request().url())
    return route.abort()
  })
  await context.addInitScript(() => {
    const opened: Array<string> = []
    ;(window as unknown as { __opened: Array<string> }).__opened = opened
    window.open = (url?: string | URL) => {
      opened.push(String(url))
      return null
    }
  })
  const page = await context.newPage()
  page.once("close", () => void context.close().catch(() => undefined))
  await page.goto(dapp.url)
  await page.getByRole("heading", { name: "Demo dApp" }).waitFor()
  return { page, context, outside, opened: () => page.evaluate(() => [...(window as unknown as { __opened: Array<string> }).__opened]) }
}

/** The dApp page in both color schemes. */
const shots = async (page: Page, name: string) => {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.screenshot({ path: join(screenshotDir, `tc-dapp-${name}-${scheme}.png`) })
  }
  await page.emulateMedia({ colorScheme: "light" })
}

/** Clicks connect, picks this wallet, and returns the Telegram link the dApp opened. */
const connectLink = async (d: DappPage): Promise<string> => {
  await d.page.getByRole("button", { name: "Connect Wallet" }).click()
  await d.page
    .getByRole("button", { name: /Wallet \(dev\)/ })
    .first()
    .click()
  // On a desktop the UI offers the QR code and a "Desktop" button that opens Telegram.
  await d.page.getByRole("button", { name: "Desktop" }).click()
  let link: string | undefined
  await expect
    .poll(async () => (link = (await d.opened()).find((l) => l.startsWith("https://t.me/") && startParamOf(l) !== undefined)), { timeout: 10_000 })
    .toBeDefined()
  return link!
}

/** The receiver got 0.1 TON (less at most a few nano of storage fee once it holds a balance). */
const expectReceived = async (before: bigint) => {
  await expect.poll(() => balanceOf(stack, dapp.receiverRaw), { timeout: 30_000, interval: 500 }).toBeGreaterThan(before)
  const gained = (await balanceOf(stack, dapp.receiverRaw)) - before
  expect(gained).toBeLessThanOrEqual(100_000_000n)
  expect(gained).toBeGreaterThan(100_000_000n - 1_000n)
}

// The mini-app as a user drives it (the same steps as the TON space browser test).
const PASSCODE = "2468"
const EMAIL = "tonconnect-dapp.e2e@example.com"
const { shot: miniShot } = screenshots("tc-dapp-miniapp")

/** A passcode (with its recovery email), then a new TON Space wallet backed up and sealed with it. */
const createPasscodeAndWallet = async (app: LaunchedApp) => {
  // Should the passcode already be known on this device: the same digits. The recovery email is
  // asked once per user: a retry of this test (same user, new device) skips it.
  await createPasscode(app, { stack, passcode: PASSCODE, email: EMAIL, emailOnce: true, reuse: true })
  await createBackedUpWallet(app)
  await pad(app, PASSCODE)
  await app.waitForPath("/scw")
  await expect.poll(() => walletAddress(app), { timeout: 20_000 }).toMatch(/^UQ/)
  return (await walletAddress(app))!
}

/**
 * The TonConnect records in the mini-app's local storage opened as only the page can (the device key
 * is a non-extractable key in IndexedDB, decision 0750), with a dump of the whole local storage.
 */
const sealedSessions = (app: LaunchedApp) =>
  app.app().evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("wallet-tonconnect")
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    const key = await new Promise<CryptoKey>((resolve, reject) => {
      const request = db.transaction("keys").objectStore("keys").get("seal-v1")
      request.onsuccess = () => resolve(request.result as CryptoKey)
      request.onerror = () => reject(request.error)
    })
    db.close()
    const bytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))
    const secrets: Array<string> = []
    const dump: Array<string> = []
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i)!
      const value = localStorage.getItem(name)!
      dump.push(`${name}=${value}`)
      if (!name.startsWith("wallet:tonconnect:v1:")) continue
      const record = JSON.parse(value) as { k: string; iv: string; ct: string }
      const aad = new TextEncoder().encode(`wallet/tonconnect/sealed/v1|${record.k}|${name.slice("wallet:".length)}`)
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(record.iv), additionalData: aad }, key, bytes(record.ct))
      for (const session of (JSON.parse(new TextDecoder().decode(plain)) as { sessions: Array<{ secretKey: string }> }).sessions)
        secrets.push(session.secretKey)
    }
    return { secrets, dump: dump.join("\n"), extractable: key.extractable }
  })

/** After Confirm / Sign / Connect the passcode may be asked (it is unless recently entered); returns whether it was. */
const passcodeIfAsked = async (app: LaunchedApp, done: () => Promise<unknown>): Promise<boolean> => {
  const keypad = app.app().getByRole("button", { name: "1", exact: true })
  // Neither side of the race may reject unobserved.
  const first = await Promise.race([
    keypad.waitFor({ timeout: 20_000 }).then(
      () => "keypad" as const,
      () => "none" as const,
    ),
    done().then(
      () => "done" as const,
      () => "none" as const,
    ),
  ])
  if (first === "keypad") await pad(app, PASSCODE)
  await done()
  return first === "keypad"
}

describe("the demo dApp (@tonconnect/ui-react) and this wallet", () => {
  it("connects to the mini-app from the dApp's startapp link: wallet created, proof verified, 0.1 TON confirmed with the passcode lands, text signed, a decline reported, disconnected from the wallet", async () => {
    const d = await openDapp()
    const link = await connectLink(d)
    const startParam = startParamOf(link)!
    // Telegram takes start params of [\w-]{0,512} only (about 490 here, with a short manifest URL).
    expect(startParam).toMatch(/^[\w-]{1,512}$/)
    // The tg:// deep link the UI tried first carries the same request.
    expect((await d.opened()).filter((l) => l.startsWith("tg://resolve?")).map(startParamOf)).toContain(startParam)
    // The link opens the mini-app (a fresh device: no wallet yet).
    const app = await launch(stack, { user: "balances", startParam })
    await app.waitForPath("/scw/tc/connect")
    // The connect screen loads the TON module lazily: slow on a loaded machine.
    await app.app().getByRole("heading", { name: "No TON Space wallet yet" }).waitFor({ timeout: 60_000 })
    await miniShot(app, "no-wallet-light")
    const address = await createPasscodeAndWallet(app)
    await stack.devnet!.faucet({ address, ton: 2_000_000_000n })

    // The user opens the dApp's link again: the connect screen names the dApp.
    await goTo(app, `/scw/tc/connect?startapp=${encodeURIComponent(startParam)}`)
    await app.waitForPath("/scw/tc/connect")
    await app.app().getByRole("heading", { name: "Connect to Demo dApp" }).waitFor()
    await miniShot(app, "connect-light")
    await waitMain(app, "Connect")
    await press(app)
    await passcodeIfAsked(app, () => app.app().getByRole("heading", { name: "Connected to Demo dApp" }).waitFor({ timeout: 20_000 }))
    await miniShot(app, "connected-light")

    // The dApp: the address the wallet shows, and the proof its backend verified on its own.
    await d.page.getByTestId("proof").getByText("Proof verified").waitFor({ timeout: 20_000 })
    expect(await d.page.getByTestId("address").innerText()).toBe(address)
    expect(dapp.checks.at(-1)).toMatchObject({ kind: "ton_proof", result: { valid: true } })
    await shots(d.page, "connected")

    // Issue 15: the session's secret key is not in local storage (hex or base64), only sealed.
    const stored = await sealedSessions(app)
    expect(stored.secrets).toHaveLength(1)
    expect(stored.extractable).toBe(false)
    const secret = stored.secrets[0]!
    for (const form of [secret, secret.toUpperCase(), Buffer.from(secret, "hex").toString("base64"), Buffer.from(secret, "hex").toString("base64url")]) {
      expect(stored.dump).not.toContain(form)
    }

    // A reload: the listener resumes by itself (afterStart hook, no passcode) and the next request arrives.
    await goTo(app, "/scw")
    await app.waitForPath("/scw")
    await app.app().evaluate(() => location.reload())
    await app.waitForPath("/scw")

    // Send 0.1 TON: the request reaches the open mini-app; the user confirms with the passcode.
    const before = await balanceOf(stack, dapp.receiverRaw)
    await d.page.getByRole("button", { name: "Send 0.1 TON" }).click()
    await app.waitForPath("/scw/tc/request")
    await app.app().getByRole("heading", { name: "Confirm transaction" }).waitFor()
    await app.app().getByText("Send 0.1 TON").first().waitFor()
    await waitMain(app, "Confirm")
    await miniShot(app, "request-light")
    await press(app)
    expect(await passcodeIfAsked(app, () => app.app().getByRole("heading", { name: "Transaction sent" }).waitFor({ timeout: 30_000 }))).toBe(true)
    await miniShot(app, "sent-light")

    const boc = await d.page.getByTestId("boc").innerText({ timeout: 20_000 })
    expect(boc).toMatch(/^te6/)
    await expectReceived(before)
    await shots(d.page, "sent")
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")

    // Sign text: the signData screen, Sign, the passcode; the dApp's backend checks the signature.
    await d.page.getByRole("button", { name: "Sign text" }).click()
    await app.waitForPath("/scw/tc/request")
    await app.app().getByRole("heading", { name: "Sign data" }).waitFor()
    await app.app().getByText("Hello from the demo dApp").waitFor()
    await waitMain(app, "Sign")
    await miniShot(app, "sign-light")
    await press(app)
    await passcodeIfAsked(app, () => app.app().getByRole("heading", { name: "Data signed" }).waitFor({ timeout: 30_000 }))
    await d.page.getByText("Signature verified.").waitFor({ timeout: 20_000 })
    expect(dapp.checks.at(-1)).toMatchObject({ kind: "sign_data", result: { valid: true } })
    await shots(d.page, "signed")
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")

    // Decline: the dApp hears "user declined" (300) and says so; nothing leaves the wallet.
    const beforeDecline = await balanceOf(stack, dapp.receiverRaw)
    await d.page.getByRole("button", { name: "Send 0.1 TON" }).click()
    await app.waitForPath("/scw/tc/request")
    await app.app().getByRole("heading", { name: "Confirm transaction" }).waitFor()
    await app.telegram("t.pressSecondary()")
    await app.app().getByRole("heading", { name: "Request declined" }).waitFor()
    await d.page.getByTestId("error").getByText("Rejected in the wallet").waitFor({ timeout: 20_000 })
    await shots(d.page, "declined")
    expect(await balanceOf(stack, dapp.receiverRaw)).toBeLessThanOrEqual(beforeDecline)
    await waitMain(app, "Done")
    await press(app)
    await app.waitForPath("/scw")

    // Disconnect from the wallet's connected apps: the dApp page hears it and shows no account.
    await goTo(app, "/scw/settings/connected-apps")
    await app.app().getByRole("heading", { name: "Connected apps" }).waitFor()
    await app.app().getByRole("button", { name: "Disconnect Demo dApp" }).click()
    await app.app().getByText("No connected apps").waitFor()
    await d.page.getByText("Not connected.").waitFor({ timeout: 20_000 })
    await d.page.getByRole("button", { name: "Connect Wallet" }).waitFor()

    expect(d.outside).toEqual([])
    await app.page.close()
    await d.page.close()
  }, 240_000)

  it("connects with a verified ton_proof, sends 0.1 TON and signs text with the wallet engine in Node (no mini-app)", async () => {
    const wallet = await startEngineWallet({ bridgeUrl: `${stack.server.url}/bridge`, chainUrl: stack.devnet!.url, seed: Buffer.alloc(32, 5) })
    try {
      await stack.devnet!.faucet({ address: wallet.wallet.friendly, ton: 2_000_000_000n })
      const d = await openDapp()
      const link = await connectLink(d)
      await shots(d.page, "qr")
      expect(new URL(link).pathname).toBe("/wallet_dev_bot/start")
      const proposal = await wallet.connect(link)
      expect(proposal.app).toMatchObject({ name: "Demo dApp", domain: dapp.domain })
      expect(proposal.proofPayload).toMatch(/^[0-9a-f]{64}$/)

      await d.page.getByTestId("proof").getByText("Proof verified").waitFor()
      expect(await d.page.getByTestId("address").innerText()).toBe(wallet.wallet.friendly)
      expect(dapp.checks.at(-1)).toEqual({ kind: "ton_proof", result: { valid: true, address: wallet.wallet.raw } })
      await shots(d.page, "engine-connected")

      const before = await balanceOf(stack, dapp.receiverRaw)
      await d.page.getByRole("button", { name: "Send 0.1 TON" }).click()
      const request = await wallet.nextRequest()
      expect(request.kind).toBe("sendTransaction")
      await wallet.approve(request)
      const boc = await d.page.getByTestId("boc").innerText({ timeout: 20_000 })
      expect(boc).toMatch(/^te6/)
      await expectReceived(before)
      await shots(d.page, "engine-sent")

      await d.page.getByRole("button", { name: "Sign text" }).click()
      const signing = await wallet.nextRequest()
      expect(signing).toMatchObject({ kind: "signData", payload: { type: "text", text: "Hello from the demo dApp" } })
      await wallet.approve(signing)
      await d.page.getByText("Signature verified.").waitFor()
      expect(dapp.checks.at(-1)).toEqual({ kind: "sign_data", result: { valid: true, address: wallet.wallet.raw } })
      await shots(d.page, "engine-signed")
      expect(d.outside).toEqual([])
      await d.page.close()
    } finally {
      wallet.stop()
    }
  })
})
