import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { launch, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { identityOf, keysOf, newMnemonic } from "../../plugins/ton-space/src/ton/wallet.ts"
import {
  balanceOf,
  codeFromOutbox,
  goTo,
  importWords,
  pad,
  press,
  screenshots,
  startDevnetStack,
  text,
  waitMain,
  walletAddress,
  walletRaw,
} from "./support/ton-space.ts"
import { startParamOfLink, startSdkDapp, type SdkDapp } from "../../plugins/tonconnect/test/sdk-dapp.ts"

// The mini-app's TonConnect screens driven by the real @tonconnect/sdk in Node (the dApp side),
// through the stack's bridge, with a wallet on the in-process devnet.
let stack: Stack
let dapp: SdkDapp
beforeAll(async () => {
  stack = await startDevnetStack()
  dapp = await startSdkDapp({ bridgeUrl: `${stack.server.url}/bridge` })
})
afterAll(async () => {
  await dapp?.close()
  await stack?.close()
})
// The dApp is shared: a test that failed half-way must not leave the next one (or its retry) connected
// (bug: the retry of a slow first run failed with WalletAlreadyConnectedError).
beforeEach(async () => {
  if (dapp?.connector.connected) await dapp.connector.disconnect().catch(() => undefined)
})

/** Light, then dark (Telegram's theme_changed), then back to light. */
const { shots } = screenshots("tonconnect")

/** Types the passcode when the passcode screen shows (it does not inside the unlock window). */
const maybePad = async (app: LaunchedApp) => {
  const shown = await app
    .app()
    .getByRole("button", { name: "2", exact: true })
    .waitFor({ timeout: 4_000 })
    .then(
      () => true,
      () => false,
    )
  if (shown) await pad(app, "2468")
  return shown
}
const PASSCODE_EMAIL = "tonconnect-wallet.e2e@example.com"
/** The "balances" user must create a passcode on a new device (create 2468, recovery email code from the dev outbox, no biometry). */
const passForcedPasscode = async (app: LaunchedApp) => {
  const f = app.app()
  // In the overlay: wallet main's passcode banner has a "Create passcode" button too, and it was still on
  // screen while the app left main for /scw (bug: the test clicked it, and it went away with main).
  const start = f.getByRole("dialog").getByRole("button", { name: /^(create\.start|Create passcode)$/ })
  if (
    !(await start.waitFor({ timeout: 6_000 }).then(
      () => true,
      () => false,
    ))
  )
    return
  await start.click()
  await f.getByRole("heading", { name: /^(create\.setTitle|Create a passcode)$/ }).waitFor()
  await pad(app, "2468")
  await f.getByRole("heading", { name: /^(create\.confirmTitle|Confirm passcode)$/ }).waitFor()
  await pad(app, "2468")
  const heading = (name: RegExp) => f.getByRole("heading", { name })
  for (let step = 0; step < 20; step++) {
    if (await heading(/^(email\.title|Recovery email)$/).isVisible()) {
      await f.getByLabel(/Email address/i).fill(PASSCODE_EMAIL)
      await f.getByRole("button", { name: /^(continue|Continue)$/ }).click()
      await f.getByLabel("6-digit code").fill(await codeFromOutbox(stack, app, PASSCODE_EMAIL))
      // Bug (needed a retry on every run): the next pass saw the code screen still checking the code
      // and waited on a field about to close. Wait until the code screen has gone.
      await f.getByText(/We sent a 6-digit code to|code\.sentTo/).waitFor({ state: "detached" })
    } else if (await f.getByText(/We sent a 6-digit code to|code\.sentTo/).isVisible()) {
      // A further device (e.g. a retry) confirms with a code sent to the recovery email on file (decision 0540).
      await f.getByLabel("6-digit code").fill(await codeFromOutbox(stack, app, PASSCODE_EMAIL))
      await f.getByText(/We sent a 6-digit code to|code\.sentTo/).waitFor({ state: "detached" })
    } else if (await f.getByRole("button", { name: /^(biometry\.notNow|Not now)$/ }).isVisible()) {
      await f.getByRole("button", { name: /^(biometry\.notNow|Not now)$/ }).click()
    } else if (await heading(/^(create\.doneTitle|Passcode created)$/).isVisible()) {
      await f.getByRole("button", { name: /^(done|Done)$/ }).click()
      return
    } else {
      await app.page.waitForTimeout(500)
    }
  }
}
/** Imports fresh words through the TON space screens (onboarding -> import -> success -> open). */
const importWallet = async (app: LaunchedApp) => {
  await goTo(app, "/scw")
  await app.waitForPath("/scw")
  // The forced-passcode overlay may come first (a user holding more than its threshold).
  const importButton = app.app().getByRole("button", { name: "Import an existing wallet" })
  const createPasscode = app
    .app()
    .getByRole("dialog")
    .getByRole("button", { name: /^(create\.start|Create passcode)$/ })
  await importButton.or(createPasscode).first().waitFor({ timeout: 20_000 })
  if (await createPasscode.isVisible()) await passForcedPasscode(app)
  await importWords(app, await newMnemonic())
}

describe("TonConnect in the mini-app with the real dApp SDK", () => {
  it("connects through the startapp link, confirms a transaction that lands, lists and disconnects the app", async () => {
    const link = dapp.connector.connect(
      { universalLink: "https://t.me/wallet?attach=wallet", bridgeUrl: `${stack.server.url}/bridge` },
      { tonProof: "e2e-proof-payload" },
    )
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
    await importWords(app, await newMnemonic())
    await app.waitForPath("/scw")
    const address = (await walletAddress(app))!
    await stack.devnet!.faucet({ address, ton: 3_000_000_000n })

    // Back to the link: the dApp's name, icon and host, and which wallet connects.
    await goTo(app, landed)
    await app
      .app()
      .getByRole("heading", { name: `Connect to ${dapp.name}` })
      .waitFor({ timeout: 20_000 })
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
    expect(wallet.connectItems?.tonProof && "proof" in wallet.connectItems.tonProof ? wallet.connectItems.tonProof.proof.payload : undefined).toBe(
      "e2e-proof-payload",
    )
    await app
      .app()
      .getByRole("heading", { name: `Connected to ${dapp.name}` })
      .waitFor()
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
    await expect.poll(() => balanceOf(stack, friend), { timeout: 30_000, interval: 500 }).toBeGreaterThan(900_000_000n)
    await press(app)
    await app.waitForPath("/scw")

    // After a reload no TonConnect screen is open, yet a request reaches the app: the plugin's
    // afterStart hook resumes the listener (bug: it started only with the TonConnect screens).
    await app.app().evaluate(() => window.location.reload())
    await app.page.waitForTimeout(500)
    await app.waitForPath("/scw")
    const afterReload = dapp.connector.sendTransaction({
      validUntil: Math.floor(Date.now() / 1000) + 300,
      messages: [{ address: friend, amount: "100000000" }],
    })
    const afterReloadError = afterReload.then(
      () => null,
      (e: Error) => e,
    )
    await app.waitForPath("/scw/tc/request")
    await app.app().getByRole("heading", { name: "Confirm transaction" }).waitFor()
    await app.telegram("t.pressSecondary()")
    expect((await afterReloadError)?.constructor.name).toBe("UserRejectsError")
    await app.app().getByRole("heading", { name: "Request declined" }).waitFor()
    // Press only once the result screen's main button is up (under load the press came before it).
    await app.page.waitForFunction(() => window.fakeTelegram?.mainButton.is_visible === true)
    await press(app)
    await app.waitForPath("/scw")

    // Connected apps: the row, then Disconnect; the SDK sees the wallet go.
    await goTo(app, "/scw/settings/connected-apps")
    await app.app().getByRole("heading", { name: "Connected apps" }).waitFor()
    await app.app().getByText(dapp.name).waitFor()
    await shots(app, "connected-apps")
    const gone = dapp.status((w) => w === null)
    await app
      .app()
      .getByRole("button", { name: `Disconnect ${dapp.name}` })
      .click()
    expect(await gone).toBeNull()
    await app.app().getByText("No connected apps").waitFor()
    await shots(app, "connected-apps-empty")
    await app.page.close()
  })

  it("a declined connection; a scanned tc:// link; ton_proof, signData and a transaction after the passcode; a declined and a refused transaction; disconnect all", async () => {
    const second = await startSdkDapp({ bridgeUrl: `${stack.server.url}/bridge`, name: "Second dApp" })
    try {
      const app = await launch(stack, { user: "balances" })
      await app.waitForPath("/main")
      await app.app().getByText("Total balance").waitFor()
      await importWallet(app)
      // Sealing the imported words asks for a passcode: this device has none yet, so one is created.
      await passForcedPasscode(app)
      await maybePad(app)
      await app.waitForPath("/scw")

      // Declining a connection: the dApp's SDK gets "user rejects" (code 300), nothing is stored.
      const declineLink = dapp.connector.connect({ universalLink: "https://t.me/wallet?attach=wallet", bridgeUrl: `${stack.server.url}/bridge` })
      const rejected = dapp.nextError()
      await goTo(app, `/scw/tc/connect?startapp=${startParamOfLink(declineLink).slice("tonconnect-".length)}`)
      await app
        .app()
        .getByRole("heading", { name: `Connect to ${dapp.name}` })
        .waitFor({ timeout: 20_000 })
      await waitMain(app, "Connect")
      await app.telegram("t.pressSecondary()")
      expect((await rejected).constructor.name).toBe("UserRejectsError")
      await app.app().getByRole("heading", { name: "Connection declined" }).waitFor()
      await shots(app, "connect-declined")

      // The QR scanner on wallet main reads a tc:// link: the connect screen of /scw/tc/connect/qr.
      const universal = second.connector.connect(
        { universalLink: "https://wallet.example/ton-connect", bridgeUrl: `${stack.server.url}/bridge` },
        { tonProof: "qr-proof" },
      )
      const tcLink = `tc://${universal.slice(universal.indexOf("?"))}`
      await goTo(app, "/main")
      await app.app().getByRole("button", { name: "Scan QR code" }).click()
      await app.page.waitForFunction(() => window.fakeTelegram?.qrOpen === true)
      await app.telegram(`t.scanQr(${JSON.stringify(tcLink)})`)
      await app.waitForPath("/scw/tc/connect/qr")
      await app.app().getByRole("heading", { name: "Connect to Second dApp" }).waitFor({ timeout: 20_000 })
      const connected = second.status((w) => w !== null)
      await waitMain(app, "Connect")
      await press(app)
      // The ton_proof is signed with the wallet's key: the passcode first.
      expect(await maybePad(app)).toBe(true)
      expect((await connected)?.account.address).toBe(await walletRaw(app))
      await app.app().getByRole("heading", { name: "Connected to Second dApp" }).waitFor()

      // signData (text): shown, signed after the passcode.
      const signing = second.connector.signData({ type: "text", text: "I agree to the terms of Second dApp" })
      await app.waitForPath("/scw/tc/request")
      await app.app().getByRole("heading", { name: "Sign data" }).waitFor()
      expect(await text(app)).toContain("I agree to the terms of Second dApp")
      await waitMain(app, "Sign")
      await shots(app, "request-sign-data")
      await press(app)
      expect(await maybePad(app)).toBe(true)
      const signed = await signing
      expect(signed.signature.length).toBeGreaterThan(80)
      await app.app().getByRole("heading", { name: "Data signed" }).waitFor()
      // The result's own main button, not the request's still on its way out.
      await waitMain(app, "Done")
      await press(app)
      await app.waitForPath("/scw")

      // A transaction confirmed with the passcode: the BoC reaches the SDK, the TON lands.
      const own = (await walletAddress(app))!
      await stack.devnet!.faucet({ address: own, ton: 2_000_000_000n })
      await expect.poll(() => balanceOf(stack, own), { timeout: 30_000, interval: 500 }).toBeGreaterThan(0n)
      const friend = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet").address
      const confirmed = second.connector.sendTransaction({
        validUntil: Math.floor(Date.now() / 1000) + 300,
        messages: [{ address: friend, amount: "500000000" }],
      })
      await app.waitForPath("/scw/tc/request")
      await app.app().getByText("Network fee").waitFor({ timeout: 20_000 })
      await waitMain(app, "Confirm")
      await press(app)
      expect(await maybePad(app)).toBe(true)
      expect((await confirmed).boc.length).toBeGreaterThan(100)
      await app.app().getByRole("heading", { name: "Transaction sent" }).waitFor()
      await expect.poll(() => balanceOf(stack, friend), { timeout: 30_000, interval: 500 }).toBeGreaterThan(400_000_000n)
      await press(app)
      await app.waitForPath("/scw")

      // A transaction the user declines: the SDK gets "user rejects".
      const declined = second.connector.sendTransaction({
        validUntil: Math.floor(Date.now() / 1000) + 300,
        messages: [{ address: friend, amount: "100000000" }],
      })
      const declinedError = declined.then(
        () => null,
        (e: Error) => e,
      )
      await app.waitForPath("/scw/tc/request")
      await app.app().getByRole("heading", { name: "Confirm transaction" }).waitFor()
      await app.telegram("t.pressSecondary()")
      expect((await declinedError)?.constructor.name).toBe("UserRejectsError")
      await app.app().getByRole("heading", { name: "Request declined" }).waitFor()
      await press(app)
      await app.waitForPath("/scw")

      // A transaction for another wallet (`from`): refused at once (code 1) and the user is told why.
      const otherWallet = identityOf((await keysOf(await newMnemonic())).publicKey, "v5r1", "mainnet").raw
      const refused = second.connector
        .sendTransaction({ validUntil: Math.floor(Date.now() / 1000) + 300, from: otherWallet, messages: [{ address: friend, amount: "1" }] })
        .then(
          () => null,
          (e: Error) => e,
        )
      await app.waitForPath("/scw/tc/request")
      await app.app().getByRole("heading", { name: "Request from Second dApp refused" }).waitFor()
      expect(await text(app)).toContain("The request is for another wallet.")
      expect((await refused)?.constructor.name).toBe("BadRequestError")
      await shots(app, "request-refused")
      await press(app)
      await app.waitForPath("/scw")

      // Disconnect all, confirmed in Telegram's popup: the dApp sees it.
      await goTo(app, "/scw/settings/connected-apps")
      await app.app().getByText("Second dApp").waitFor()
      const gone = second.status((w) => w === null)
      await app.app().getByRole("button", { name: "Disconnect all" }).click()
      await app.page.waitForFunction(() => document.querySelector(".ftg .overlay") !== null)
      await app.telegram(`t.answerPopup("all")`)
      expect(await gone).toBeNull()
      await app.app().getByText("No connected apps").waitFor()
      await app.page.close()
    } finally {
      await second.close()
    }
  })

  it("a link without r, v or id shows the spec's error; a desktop client is told why it cannot connect; Russian", async () => {
    const app = await launch(stack, { user: "no_custody" })
    await app.waitForPath("/scw")
    await goTo(app, "/scw/tc/connect?v=2&id=abc")
    await app.app().getByText("Ton Connect search params is not available").waitFor()
    await shots(app, "bad-link")

    // The same app on Telegram Desktop: a good link, but only iOS and Android may connect.
    const good = new URLSearchParams({
      v: "2",
      id: "ab".repeat(32),
      r: JSON.stringify({ manifestUrl: `${dapp.url}/tonconnect-manifest.json`, items: [{ name: "ton_addr" }] }),
    })
    await app.app().evaluate((path) => {
      const key = "wallet:launch-params"
      sessionStorage.setItem(key, (sessionStorage.getItem(key) ?? "").replace(/tgWebAppPlatform=\w+/, "tgWebAppPlatform=tdesktop"))
      location.href = path
    }, `/scw/tc/connect?${good}`)
    await app.app().getByRole("heading", { name: "Not available on this device" }).waitFor({ timeout: 20_000 })
    expect(await text(app)).toContain("Telegram for iOS and Android")
    await shots(app, "unavailable")
    await app.page.close()

    // In Russian: the same screens from the ru bundle (the deep link, no wallet yet).
    const link = dapp.connector.connect({ universalLink: "https://t.me/wallet?attach=wallet", bridgeUrl: `${stack.server.url}/bridge` })
    const ru = await launch(stack, { user: "no_custody", language: "ru", startParam: startParamOfLink(link) })
    await ru.waitForPath("/scw/tc/connect")
    await ru.app().getByRole("heading", { name: "Кошелька TON Space ещё нет" }).waitFor({ timeout: 20_000 })
    await waitMain(ru, "Создать кошелёк")
    await shots(ru, "no-wallet-ru")
    await ru.page.close()
  })
})
