import { afterAll, beforeAll, describe, it } from "vitest"
import { launch, startStack, type Stack } from "@wallet/harness/stack"

/**
 * Decision 0380: a sample of spec 1 §2 start params from a cold start (the fake Telegram launch
 * page passes the start param); the full list is the table test in host/regions.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.close()
})

describe("start-param links from a cold start", () => {
  it("turn_on_passcode opens the passcode settings", async () => {
    const app = await launch(stack, { user: "balances", startParam: "turn_on_passcode" })
    await app.waitForPath("/passcode/settings")
    await app.page.close()
  })

  it("a public-asset link takes priority over onboarding for a new user", async () => {
    const app = await launch(stack, { user: "new", startParam: "public_asset_BTC" })
    await app.waitForPath("/assets-public/BTC")
    await app.page.close()
  })

  it("an asset link opens the asset page", async () => {
    const app = await launch(stack, { user: "balances", startParam: "assets_USDT" })
    await app.waitForPath("/assets/USDT")
    await app.page.close()
  })

  it("a TON space link opens its screen", async () => {
    const app = await launch(stack, { user: "balances", startParam: "tonwallet_onboarding" })
    await app.waitForPath("/scw/onboarding")
    await app.page.close()
  })

  it("an unknown param opens main", async () => {
    const app = await launch(stack, { user: "balances", startParam: "no_such_link" })
    await app.waitForPath("/main")
    await app.page.close()
  })
})
