import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, screenshotDir, startStack, type Stack } from "@wallet/harness/stack"
import { THEMES } from "@wallet/testkit"
import { BOOT_PAINT_KEY_PREFIX } from "../../kernel/react/src/bootPaint.ts"
import { QUERY_CACHE_BUSTER } from "../../kernel/react/src/queryTimes.ts"

/**
 * Issue 17, decision 0007: wallet main's skeleton paints from the HTML (Telegram's theme applied by
 * the inline script) before any JavaScript runs; sign-in does not wait for the shell's strings, the
 * first balance does not wait for the feature flags, and the asset rows come with the total.
 * Order is checked by holding responses back, never by timing.
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.close()
})

/** The mini-app page opened directly with launch params in the hash, every script blocked: the HTML alone. */
const htmlOnly = async (pathname: string, theme: Readonly<Record<string, string>>) => {
  const context = await stack.browser.newContext({ viewport: { width: 420, height: 800 } })
  const page = await context.newPage()
  await page.route("**/*.js", (route) => route.abort())
  await page.route("**/*.tsx", (route) => route.abort())
  const hash = new URLSearchParams({ tgWebAppPlatform: "ios", tgWebAppVersion: "8.0", tgWebAppThemeParams: JSON.stringify(theme) })
  await page.goto(`${stack.appUrl}${pathname}#${hash}`)
  return { page, close: () => context.close() }
}

const cssColor = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
  return `rgb(${r}, ${g}, ${b})`
}

describe("first paint (issue 17)", () => {
  it("html_paints_main_skeleton_before_js: the skeleton shows busy in Telegram's colours, light and dark, with no JavaScript", async () => {
    for (const name of ["light", "dark"] as const) {
      const theme = THEMES[name] as unknown as Readonly<Record<string, string>>
      const { page, close } = await htmlOnly("/main", theme)
      try {
        const skeleton = page.locator('#root [aria-busy="true"]')
        await expect.poll(() => skeleton.isVisible()).toBe(true)
        // No words that would flash before the app's own screen.
        expect((await skeleton.innerText()).trim()).toBe("")
        expect(await page.locator("#root .bp-r").count()).toBeGreaterThanOrEqual(3)
        const facts = await page.evaluate(() => ({
          scheme: document.documentElement.dataset.colorScheme,
          background: getComputedStyle(document.documentElement).backgroundColor,
          bgVar: document.documentElement.style.getPropertyValue("--tg-theme-secondary-bg-color"),
        }))
        expect(facts.scheme).toBe(name)
        if (theme.secondary_bg_color) {
          expect(facts.bgVar).toBe(theme.secondary_bg_color)
          expect(facts.background).toBe(cssColor(theme.secondary_bg_color))
        }
        await page.screenshot({ path: join(screenshotDir, `first-paint-skeleton-${name}.png`) })
      } finally {
        await close()
      }
    }
  })

  it("another start path paints the plain background, without the skeleton", async () => {
    const { page, close } = await htmlOnly("/settings", THEMES.dark as unknown as Readonly<Record<string, string>>)
    try {
      await page.waitForFunction(() => document.documentElement.dataset.colorScheme === "dark")
      expect(await page.locator('#root [aria-busy="true"]').isVisible()).toBe(false)
    } finally {
      await close()
    }
  })

  it("paint_not_blocked_by_app_stylesheet: with the app's stylesheet held back the skeleton and the cached total paint, and the entry waits for it", async () => {
    const context = await stack.browser.newContext({ viewport: { width: 420, height: 800 } })
    try {
      const page = await context.newPage()
      const userId = 7_123_456
      // A reopen: this device's snapshot of the total wallet main last showed this user.
      await page.addInitScript(({ key, snapshot }) => localStorage.setItem(key, snapshot), {
        key: `${BOOT_PAINT_KEY_PREFIX}${userId}`,
        snapshot: JSON.stringify({ t: Date.now(), total: "$1,234.56", b: QUERY_CACHE_BUSTER }),
      })
      let release!: () => void
      const released = new Promise<void>((resolve) => (release = resolve))
      let held = 0
      await page.route(/\/assets\/app-[\w-]+\.css$/, async (route) => {
        held++
        await released
        await route.continue()
      })
      // The app itself never starts here: only what the HTML does is under test.
      await page.route(/\/assets\/app-[\w-]+\.js$/, (route) => route.abort())
      const launchData = new URLSearchParams({ user: JSON.stringify({ id: userId, first_name: "Ann" }) })
      const hash = new URLSearchParams({ tgWebAppPlatform: "ios", tgWebAppVersion: "8.0", tgWebAppThemeParams: "{}", tgWebAppData: launchData.toString() })
      await page.goto(`${stack.appUrl}/main#${hash}`, { waitUntil: "domcontentloaded" })
      // With a parser-inserted stylesheet the total's inline script waited for the stylesheet; now it does not.
      await page.locator('#root [data-testid="total-balance"]').getByText("$1,234.56").waitFor({ timeout: 10_000 })
      expect(held).toBe(1)
      const entryAdded = () => page.evaluate(() => document.querySelector('script[type="module"]') !== null)
      expect(await entryAdded()).toBe(false)
      release()
      await expect.poll(entryAdded).toBe(true)
    } finally {
      await context.close()
    }
  })

  it("sign_in_not_blocked_by_shell_strings: POST /api/auth/init goes out while the strings are held back", async () => {
    let signInSeen!: () => void
    const signIn = new Promise<void>((resolve) => (signInSeen = resolve))
    const app = await launch(stack, {
      user: "balances",
      before: async (page) => {
        page.on("request", (request) => {
          if (request.url().includes("/api/auth/init")) signInSeen()
        })
        // Every English strings chunk waits for the sign-in request: the old boot awaited the shell's
        // strings before signing in, so it never got there.
        await page.route(/\/assets\/(?:[\w.-]*\.)?en-[\w-]+\.js$/, async (route) => {
          await signIn
          await route.continue()
        })
      },
    })
    await app.waitForPath("/main")
    await app.app().locator('[data-testid="total-balance"]').getByText(/\d/).waitFor({ timeout: 20_000 })
    await app.page.close()
  })

  it("balance_not_blocked_by_flags and rows_render_with_total: the feature flags held back, the total and the rows appear in one render", async () => {
    const app = await launch(stack, {
      user: "balances",
      before: async (page) => {
        // The flags never answer during this test.
        await page.route("**/api/feature-flags", () => undefined)
        // When the total first shows a digit, note whether the asset rows are already there.
        await page.addInitScript(() => {
          if (window === window.top) return
          const seen: { rowsWithTotal?: boolean } = {}
          ;(window as unknown as { __firstBalance: typeof seen }).__firstBalance = seen
          new MutationObserver(() => {
            if (seen.rowsWithTotal !== undefined) return
            const total = document.querySelector('[data-testid="total-balance"]')
            if (total && /\d/.test(total.textContent ?? "")) seen.rowsWithTotal = document.querySelector("[data-asset]") !== null
          }).observe(document, { subtree: true, childList: true, characterData: true })
        })
      },
    })
    await app.waitForPath("/main")
    await app.app().locator('[data-testid="total-balance"]').getByText(/\d/).waitFor({ timeout: 20_000 })
    const seen = await app.app().evaluate(() => (window as unknown as { __firstBalance: { rowsWithTotal?: boolean } }).__firstBalance)
    expect(seen.rowsWithTotal).toBe(true)
    await app.page.close()
  })
})
