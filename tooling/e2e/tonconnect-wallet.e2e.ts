import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"
import { startParamOfLink, startSdkDapp, type SdkDapp } from "../../plugins/tonconnect/test/sdk-dapp.ts"

// The mini-app's TonConnect screens driven by the real @tonconnect/sdk in Node (the dApp side),
// through the stack's bridge, with a wallet on the in-process devnet.
let stack: Stack
let dapp: SdkDapp
beforeAll(async () => {
  stack = await startStack({ devnet: true })
  dapp = await startSdkDapp({ bridgeUrl: `${stack.server.url}/bridge` })
  mkdirSync(screenshotDir, { recursive: true })
})
afterAll(async () => {
  await dapp?.close()
  await stack?.close()
})

const text = (app: LaunchedApp) => app.app().locator("body").innerText()
const press = (app: LaunchedApp) => app.telegram("t.pressMain()")
const waitMain = (app: LaunchedApp, label: string) =>
  app.page.waitForFunction(
    (l) => window.fakeTelegram?.mainButton.is_visible === true && window.fakeTelegram.mainButton.text === l && window.fakeTelegram.mainButton.is_active === true,
    label,
    { timeout: 20_000 },
  )
const goTo = (app: LaunchedApp, path: string) =>
  app.app().evaluate((p) => {
    history.pushState({}, "", p)
    dispatchEvent(new PopStateEvent("popstate"))
  }, path)
/** Light, then dark (Telegram's theme_changed), then back to light. */
const shots = async (app: LaunchedApp, name: string) => {
  await app.page.screenshot({ path: join(screenshotDir, `tonconnect-${name}-light.png`) })
  await app.telegram(`t.setTheme("dark")`)
  await app.app().waitForFunction(() => document.documentElement.dataset.colorScheme === "dark")
  await app.page.screenshot({ path: join(screenshotDir, `tonconnect-${name}-dark.png`) })
  await app.telegram(`t.setTheme("light")`)
  await app.app().waitForFunction(() => document.documentElement.dataset.colorScheme === "light")
}
const walletRaw = (app: LaunchedApp) =>
  app.app().evaluate(() => (JSON.parse(localStorage.getItem("wallet:tonSpace.wallet") ?? "null") as { data: { raw?: string } } | null)?.data.raw)
/** An account's balance in nanotons from the devnet's tonapi-compatible API. */
const balanceOf = async (address: string): Promise<bigint> => {
  const response = await fetch(`${stack.devnet!.url}/v2/accounts/${encodeURIComponent(address)}`)
  if (!response.ok) return 0n
  return BigInt(((await response.json()) as { balance: number | string }).balance)
}
const walletAddress = (app: LaunchedApp) =>
  app.app().evaluate(() => (JSON.parse(localStorage.getItem("wallet:tonSpace.wallet") ?? "null") as { data: { address?: string } } | null)?.data.address)

describe("TonConnect in the mini-app with the real dApp SDK", () => {
  it("connects through the startapp link, confirms a transaction that lands, lists and disconnects the app", async () => {
    const link = dapp.connector.connect({ universalLink: "https://t.me/wallet?attach=wallet", bridgeUrl: `${stack.server.url}/bridge` }, { tonProof: "e2e-proof-payload" })
    const startParam = startParamOfLink(link)

    // The startapp deep link opens the connect screen; no wallet yet: the user is offered one.
    const app = await launch(stack, { user: "no_custody", startParam })
    await app.waitForPath("/scw/tc/connect")
    const landed = await app.path()
    await app.app().getByRole("heading", { name: "No TON Space wallet yet" }).waitFor()
    await waitMain(app, "Create a wallet")
    await shots(app, "no-wallet")

    // Import a wallet (the ton-space screens) and fund it on the devnet.
    await press(app)
    await app.waitForPath("/scw")
    await app.app().getByRole("button", { name: "Import an existing wallet" }).click()
    await app.waitForPath("/scw/import/mnemonic")
    await app.app().getByRole("textbox", { name: "Recovery phrase" }).fill((await newMnemonic()).join(" "))
    await waitMain(app, "Import")
    await press(app)
    await app.waitForPath("/scw/import/success")
    await waitMain(app, "Open wallet")
    await press(app)
    await app.waitForPath("/scw")
    const address = (await walletAddress(app))!
    await stack.devnet!.faucet({ address, ton: 3_000_000_000n })

    // Back to the link: the dApp's name, icon and host, and which wallet connects.
    await goTo(app, landed)
    await app.app().getByRole("heading", { name: `Connect to ${dapp.name}` }).waitFor({ timeout: 20_000 })
    const connectText = await text(app)
    expect(connectText).toContain("127.0.0.1")
    expect(connectText).toContain(`${address.slice(0, 2)}…${address.slice(-4)} · W5`)
    await waitMain(app, "Connect")
    expect(await app.telegram<{ text: string; is_visible: boolean }>("t.secondaryButton")).toMatchObject({ text: "Decline", is_visible: true })
    await shots(app, "connect")
    const connected = dapp.status((w) => w !== null)
    await press(app)
    const wallet = (await connected)!
    expect(wallet.account.address).toBe(await walletRaw(app))
    expect(wallet.account.chain).toBe("-239")
    expect(wallet.connectItems?.tonProof && "proof" in wallet.connectItems.tonProof ? wallet.connectItems.tonProof.proof.payload : undefined).toBe("e2e-proof-payload")
    await app.app().getByRole("heading", { name: `Connected to ${dapp.name}` }).waitFor()
    await shots(app, "connected")
    await press(app)
    await app.waitForPath("/scw")

    // A transaction from the dApp: the request screen, Confirm, the BoC back to the SDK, on chain.
    const friend = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet").address
    const sent = dapp.connector.sendTransaction({ validUntil: Math.floor(Date.now() / 1000) + 300, messages: [{ address: friend, amount: "1000000000" }] })
    await app.waitForPath("/scw/tc/request")
    await app.app().getByRole("heading", { name: "Confirm transaction" }).waitFor()
    await app.app().getByText("Network fee").waitFor({ timeout: 20_000 })
    const requestText = await text(app)
    expect(requestText).toContain("Send 1 TON")
    expect(requestText).toContain(`Request from ${dapp.name}`)
    expect(requestText).toMatch(/Valid for \d:\d\d/)
    await waitMain(app, "Confirm")
    await shots(app, "request-transaction")
    await press(app)
    const { boc } = await sent
    expect(boc.length).toBeGreaterThan(100)
    await app.app().getByRole("heading", { name: "Transaction sent" }).waitFor()
    await shots(app, "request-sent")
    await expect.poll(() => balanceOf(friend), { timeout: 30_000, interval: 500 }).toBeGreaterThan(900_000_000n)
    await press(app)
    await app.waitForPath("/scw")

    // Connected apps: the row, then Disconnect; the SDK sees the wallet go.
    await goTo(app, "/scw/settings/connected-apps")
    await app.app().getByRole("heading", { name: "Connected apps" }).waitFor()
    await app.app().getByText(dapp.name).waitFor()
    await shots(app, "connected-apps")
    const gone = dapp.status((w) => w === null)
    await app.app().getByRole("button", { name: `Disconnect ${dapp.name}` }).click()
    expect(await gone).toBeNull()
    await app.app().getByText("No connected apps").waitFor()
    await shots(app, "connected-apps-empty")
    await app.page.close()
  })

  it("a link without r, v or id shows the spec's error", async () => {
    const app = await launch(stack, { user: "no_custody" })
    await app.waitForPath("/scw")
    await goTo(app, "/scw/tc/connect?v=2&id=abc")
    await app.app().getByText("Ton Connect search params is not available").waitFor()
    await shots(app, "bad-link")
    await app.page.close()
  })
})
