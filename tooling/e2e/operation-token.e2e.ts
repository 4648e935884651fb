import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Request, Route } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type LaunchedApp, type Stack } from "@wallet/harness/stack"

/**
 * Issue 15 case 2 in the browser (decision 0550): the "balances" demo user holds more than the
 * forced-passcode threshold, so money leaves only with an operation token. With the client's gate
 * removed (the request's token header stripped on its way out, or a fetch with the access token
 * alone) the server refuses the send and the screen says why; through the UI with the passcode the
 * same send succeeds.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack()
  mkdirSync(screenshotDir, { recursive: true })
})
afterAll(async () => {
  await stack?.close()
})

const TOKEN_HEADER = "x-wallet-operation-token"
const PASSCODE = "2468"
const EMAIL = "operation-token.e2e@example.com"

const shot = (app: LaunchedApp, name: string) => app.page.screenshot({ path: join(screenshotDir, `operation-token-${name}.png`) })

/** A demo user's own API session, signed in from here (an attacker holding only the access token). */
const apiAs = async (kind: "new" | "balances") => {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  const user = users.find((u) => u.kind === kind)!
  const launched = (await (
    await fetch(`${stack.server.url}/api/dev/launch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: user.id, platform: "ios", theme: "light", language: "en" }),
    })
  ).json()) as { initData: string }
  const auth = (await (
    await fetch(`${stack.server.url}/api/auth/init`, { method: "POST", headers: { authorization: `tma ${launched.initData}` } })
  ).json()) as { access_token: string }
  return {
    id: user.id,
    post: async (path: string, body: unknown) => {
      const response = await fetch(`${stack.server.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${auth.access_token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as { _tag?: string; code?: string } }
    },
  }
}

const transfersTo = async (senderId: number, receiverId: number) =>
  Number((await stack.server.sql(`select count(*)::int as n from custody_transfers where sender_id = $1 and receiver_id = $2`, [senderId, receiverId]))[0]!.n)

const pad = async (app: LaunchedApp, digits: string) => {
  for (const d of digits) await app.app().getByRole("button", { name: d, exact: true }).click()
}

/** Waits until the main button shows `text` and can be pressed, then presses it. */
const pressMain = async (app: LaunchedApp, text: RegExp) => {
  await app.page.waitForFunction(
    (source) => {
      const b = window.fakeTelegram?.mainButton
      return b !== undefined && b.is_visible && b.is_active && !b.is_progress_visible && new RegExp(source).test(b.text)
    },
    text.source,
    { timeout: 20_000 },
  )
  await app.telegram("t.pressMain()")
}

/** A fresh device of a forced user: the overlay asks to create a passcode (with a recovery email the first time). */
const createPasscode = async (app: LaunchedApp) => {
  const f = app.app()
  await f.getByRole("button", { name: /^(create\.start|Create passcode)$/ }).click()
  await f.getByRole("heading", { name: /^(create\.setTitle|Create a passcode)$/ }).waitFor()
  await pad(app, PASSCODE)
  await f.getByRole("heading", { name: /^(create\.confirmTitle|Confirm passcode)$/ }).waitFor()
  await pad(app, PASSCODE)
  for (let step = 0; step < 8; step++) {
    const heading = await f
      .getByRole("heading")
      .first()
      .innerText({ timeout: 5_000 })
      .catch(() => "")
    if (/email\.title|Recovery email/.test(heading)) {
      await f.locator("input").first().fill(EMAIL)
      await f.getByRole("button", { name: /^(continue|Continue)$/ }).click()
      await f.getByRole("heading", { name: /code\.title|code/i }).waitFor()
      let code: string | undefined
      for (let i = 0; i < 40 && !code; i++) {
        const rows = await stack.server.sql(`select body from outbox_messages where lower(recipient) = lower($1) order by id desc limit 1`, [EMAIL])
        code = /(\d{6})/.exec(String(rows[0]?.body ?? ""))?.[1]
        if (!code) await app.page.waitForTimeout(250)
      }
      await f.locator("input").first().fill(code!)
    } else if (/biometry\.offerTitle|biometry/i.test(heading)) {
      await f.getByRole("button", { name: /^(biometry\.notNow|Not now)$/ }).click()
    } else if (/create\.doneTitle|created/i.test(heading)) {
      await f.getByRole("button", { name: /^(done|Done)$/ }).click()
      return
    } else {
      await app.page.waitForTimeout(500)
    }
  }
  throw new Error("the passcode creation did not finish")
}

/** From the receiver search: Nora, USDT, `amount`, continue, send. */
const fillTransfer = async (app: LaunchedApp, amount: string) => {
  const search = app.app().getByRole("searchbox", { name: "Search users" })
  await search.waitFor()
  await search.fill("nora")
  await app
    .app()
    .getByRole("button", { name: /Nora New/ })
    .click()
  await app
    .app()
    .getByRole("button", { name: /Change/ })
    .click()
  const sheet = app.app().getByRole("dialog")
  await sheet
    .getByRole("button", { name: /\bUSDT\b/ })
    .first()
    .click()
  await sheet.waitFor({ state: "detached" })
  await app.app().getByLabel("Amount").fill(amount)
}

describe("operation tokens: the server decides", () => {
  it(
    "case 2: a passcode-forced user's send without the passcode is refused by the server even with the client's gate removed, and succeeds with it",
    { timeout: 180_000 },
    async () => {
      const nora = await apiAs("new")
      const bob = await apiAs("balances")

      // 1. The access token alone, straight to the API: refused, for transfers and withdrawals.
      const bare = await bob.post("/api/custody/transfers", { idempotencyKey: "e2e-bare-transfer-1", receiverId: nora.id, currency: "USDT", amount: "1.5" })
      expect(bare.status).toBe(403)
      expect(bare.body).toMatchObject({ _tag: "OperationTokenError", code: "operation_token_missing" })
      const withdraw = await bob.post("/api/custody/withdrawals", {
        amount: "500000000",
        currency: "TON",
        max_value: false,
        address: `0:${"5a".repeat(32)}`,
        network: "ton",
        idempotency_key: "e2e-bare-withdraw-1",
      })
      expect(withdraw.status).toBe(403)
      expect(withdraw.body.code).toBe("operation_token_missing")
      expect(await transfersTo(bob.id, nora.id)).toBe(0)

      // 2. The app with its gate removed: the token header is stripped on the way out.
      const app = await launch(stack, { user: "balances", startParam: "receiverSearch" })
      await app.waitForPath("/assets/receiver-search")
      const sent: Array<Record<string, string>> = []
      const onRequest = (request: Request) => {
        if (request.method() === "POST" && new URL(request.url()).pathname === "/api/custody/transfers") sent.push(request.headers())
      }
      app.page.on("request", onRequest)
      const strip = async (route: Route) => {
        const request = route.request()
        if (request.method() !== "POST") return route.continue()
        const headers = { ...request.headers() }
        delete headers[TOKEN_HEADER]
        return route.continue({ headers })
      }
      await app.page.context().route("**/api/custody/transfers", strip)
      await fillTransfer(app, "1.5")
      await pressMain(app, /^Continue$/)
      await app.app().getByText("You are sending to Nora New").waitFor()
      await pressMain(app, /^Send 1\.5/)
      await createPasscode(app)
      // The client did get a token (and sent it); the route dropped it; the server refused and the screen says why.
      await app.app().getByText("This send needs your passcode. Try again.").waitFor({ timeout: 20_000 })
      await shot(app, "refused-light")
      expect(sent.length).toBe(1)
      expect(typeof sent[0]![TOKEN_HEADER]).toBe("string")
      expect(await transfersTo(bob.id, nora.id)).toBe(0)
      expect(await app.path()).toContain("/assets/receiver-search")

      // 3. The gate back in place: the passcode screen, then the send goes through with its token.
      await app.page.context().unroute("**/api/custody/transfers", strip)
      await pressMain(app, /^Continue$/)
      await app.app().getByText("You are sending to Nora New").waitFor()
      await pressMain(app, /^Send 1\.5/)
      const dialog = app.app().getByRole("dialog", { name: "Enter passcode" })
      await dialog.getByRole("heading", { name: "Enter passcode" }).waitFor()
      await pad(app, PASSCODE)
      await app.app().waitForFunction(() => window.location.pathname.startsWith("/transfers/"), undefined, { timeout: 20_000 })
      await app.app().getByText("Waiting for Nora New to accept", { exact: false }).waitFor()
      await shot(app, "sent-light")
      expect(sent.length).toBe(2)
      expect(sent[1]![TOKEN_HEADER]).toMatch(/^[A-Za-z0-9_-]{20,}$/)
      expect(sent[1]!["x-wallet-device-serial"]).toMatch(/^[0-9A-Za-z-]{36}$/)
      expect(await transfersTo(bob.id, nora.id)).toBe(1)
      app.page.off("request", onRequest)

      // 4. The used token, replayed from outside with another idempotency key: refused.
      const replay = await fetch(`${stack.server.url}/api/custody/transfers`, {
        method: "POST",
        headers: {
          authorization: sent[1]!.authorization!,
          [TOKEN_HEADER]: sent[1]![TOKEN_HEADER]!,
          "x-wallet-device-serial": sent[1]!["x-wallet-device-serial"]!,
          "content-type": "application/json",
        },
        body: JSON.stringify({ idempotencyKey: "e2e-replayed-token-1", receiverId: nora.id, currency: "USDT", amount: "1.5" }),
      })
      expect(replay.status).toBe(403)
      expect(((await replay.json()) as { code: string }).code).toBe("operation_token_used")
      expect(await transfersTo(bob.id, nora.id)).toBe(1)
      await app.page.close()
    },
  )
})
