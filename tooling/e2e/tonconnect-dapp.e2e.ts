import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { screenshotDir, startStack, type Stack } from "@wallet/harness/stack"
import { startEngineWallet } from "../demo-dapp/src/engine-wallet.ts"
import { startDemoDapp, startParamOf, type DemoDapp } from "../harness/src/demo-dapp.ts"

let stack: Stack
let dapp: DemoDapp
beforeAll(async () => {
  stack = await startStack({ devnet: true })
  dapp = await startDemoDapp({ bridgeUrl: `${stack.server.url}/bridge` })
  mkdirSync(screenshotDir, { recursive: true })
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
  await d.page.getByRole("button", { name: /Wallet \(dev\)/ }).first().click()
  // On a desktop the UI offers the QR code and a "Desktop" button that opens Telegram.
  await d.page.getByRole("button", { name: "Desktop" }).click()
  let link: string | undefined
  await expect.poll(async () => (link = (await d.opened()).find((l) => l.startsWith("https://t.me/") && startParamOf(l) !== undefined)), { timeout: 10_000 }).toBeDefined()
  return link!
}

const balanceOf = async (raw: string): Promise<bigint> => {
  const response = await fetch(`${stack.devnet!.url}/v2/accounts/${encodeURIComponent(raw)}`)
  if (!response.ok) return 0n
  return BigInt((await response.json() as { balance: number | string }).balance)
}

describe("the demo dApp (@tonconnect/ui-react) and this wallet", () => {
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

      const before = await balanceOf(dapp.receiverRaw)
      await d.page.getByRole("button", { name: "Send 0.1 TON" }).click()
      const request = await wallet.nextRequest()
      expect(request.kind).toBe("sendTransaction")
      await wallet.approve(request)
      const boc = await d.page.getByTestId("boc").innerText({ timeout: 20_000 })
      expect(boc).toMatch(/^te6/)
      await expect.poll(() => balanceOf(dapp.receiverRaw), { timeout: 20_000, interval: 500 }).toBeGreaterThan(before)
      expect((await balanceOf(dapp.receiverRaw)) - before).toBe(100_000_000n)
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
