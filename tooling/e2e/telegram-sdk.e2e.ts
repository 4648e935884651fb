import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, type LaunchedApp, type Stack } from "@wallet/harness/stack"
import { createBackedUpWallet, createPasscode, pad, startDevnetStack } from "./support/ton-space.ts"

// The kernel's Telegram service on @tma.js/sdk (decision 0330) against the fake client speaking the
// real protocol: SecureStorage on 9.0 clients for the TON space's vault, safe-area insets as CSS
// variables, theme changes delivered by the SDK.
let stack: Stack
beforeAll(async () => void (stack = await startDevnetStack()))
afterAll(async () => {
  await stack?.close()
})

const PASSCODE = "2468"
const LOCAL_BLOB = "wallet:tonSpace.keyvault.blob"
const SECURE_BLOB = "tonSpace_keyvault_blob"

const localBlob = (app: LaunchedApp) => app.app().evaluate((key) => localStorage.getItem(key), LOCAL_BLOB)
const secureBlob = (app: LaunchedApp) => app.telegram<string | null>(`t.secureStorage.get(${JSON.stringify(SECURE_BLOB)}) ?? null`)

/** A passcode, then a new TON-space wallet backed up and sealed (the seal asks for the passcode). */
const sealNewWallet = async (app: LaunchedApp, email: string) => {
  await app.waitForPath("/main")
  await app.app().getByText("Total balance").waitFor()
  await createPasscode(app, { stack, passcode: PASSCODE, email, emailOnce: true })
  await createBackedUpWallet(app)
  await pad(app, PASSCODE)
  await app.waitForPath("/scw")
}

const rootLeft = (app: LaunchedApp) => app.app().evaluate(() => Math.round(document.getElementById("root")!.getBoundingClientRect().left))

describe("the Telegram SDK against the fake client (decision 0330)", () => {
  it("on a 9.0 client the TON space's vault lands in SecureStorage, not in local storage", async () => {
    const app = await launch(stack, { user: "balances", client: { version: "9.0" } })
    await sealNewWallet(app, "telegram.sdk.e2e.9@example.com")
    await expect.poll(() => secureBlob(app).then((v) => v?.slice(0, 3) ?? null), { timeout: 20_000 }).toBe("v2:")
    expect(await localBlob(app)).toBeNull()
    expect(await app.telegram<number>("t.callsOf('web_app_secure_storage_save_key').length")).toBeGreaterThan(0)
    // Every SecureStorage request carried a req_id the SDK matched its answer with.
    expect(
      await app.telegram<boolean>("t.calls.filter((c) => c.method.startsWith('web_app_secure_storage')).every((c) => typeof c.params.req_id === 'string')"),
    ).toBe(true)
  })

  it("on an 8.0 client the vault stays in local storage and SecureStorage is never asked", async () => {
    const app = await launch(stack, { user: "no_custody" })
    await app.waitForPath("/scw")
    await app.app().getByRole("heading", { name: "TON Space" }).waitFor()
    await createPasscode(app, { stack, passcode: PASSCODE, email: "telegram.sdk.e2e.8@example.com", emailOnce: true })
    await createBackedUpWallet(app)
    await pad(app, PASSCODE)
    await app.waitForPath("/scw")
    await expect.poll(() => localBlob(app).then((v) => v?.slice(0, 3) ?? null), { timeout: 20_000 }).toBe("v2:")
    expect(await app.telegram<number>("t.calls.filter((c) => c.method.startsWith('web_app_secure_storage')).length")).toBe(0)
    expect(await app.telegram<number>("t.secureStorage.size")).toBe(0)
  })

  it("safe-area insets from the client move the layout, also when they change later", async () => {
    const app = await launch(stack, { user: "balances", client: { version: "8.0", safeLeft: 24, safeTop: 40 } })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()
    await expect
      .poll(() => app.app().evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--tg-safe-area-inset-top").trim()), { timeout: 10_000 })
      .toBe("40px")
    await expect.poll(() => rootLeft(app), { timeout: 10_000 }).toBe(24)
    expect(await app.app().evaluate(() => getComputedStyle(document.body).paddingLeft)).toBe("24px")
    expect(await app.telegram<number>("t.callsOf('web_app_request_safe_area').length")).toBe(1)
    // The client moves the insets (a rotation): the SDK delivers the event and the layout follows.
    await app.telegram("t.setSafeArea({ left: 0, top: 0 })")
    await expect.poll(() => rootLeft(app), { timeout: 10_000 }).toBe(0)
  })

  it("a theme change from the client reaches the app through the SDK", async () => {
    const app = await launch(stack, { user: "balances" })
    await app.waitForPath("/main")
    await app.app().getByText("Total balance").waitFor()
    const bg = () => app.app().evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--tg-theme-bg-color").trim())
    expect(await bg()).toBe("#ffffff")
    await app.telegram("t.setTheme('dark')")
    await expect.poll(bg, { timeout: 10_000 }).toBe("#17212b")
    expect(await app.app().evaluate(() => document.documentElement.dataset.colorScheme)).toBe("dark")
  })
})
