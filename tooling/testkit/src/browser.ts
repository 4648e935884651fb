/**
 * Chromium through the host's dev launch page (decision 0203): the page hosts the mini-app inside the
 * fake Telegram client and signs the demo user's initData on the server with the dev bot token, so
 * the app starts exactly as in Telegram. `launch`/`openAs` work on any `{ server: { url }, appUrl, browser }`:
 * a `startHost`/`previewHost` result or the repo's own stack.
 */
import type { Browser, Frame, Page } from "playwright-core"
import type { DemoUserKind } from "./demo-users.ts"
import type { FakeTelegram } from "./fake-telegram.ts"
import type { ThemeName } from "./themes.ts"

/** Debian's Chromium unless CHROMIUM_PATH says otherwise (playwright-core downloads no browser). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

/** What `launch` needs: the API server's URL, the served app's URL and a browser. */
export interface LaunchTarget {
  readonly server: { readonly url: string }
  readonly appUrl: string
  readonly browser: Browser
}

export interface LaunchOptions {
  readonly user: DemoUserKind
  readonly platform?: "ios" | "android"
  readonly theme?: ThemeName
  readonly language?: "en" | "ru" | "hi" | "bn" | "zh-TW"
  readonly startParam?: string
  readonly tamper?: "signature" | "expired"
  /**
   * The fake client: its Mini Apps version ("8.0" by default), the safe-area insets it reports (px),
   * and how the user answers the app's phone request ("share" the demo user's signed contact, the default).
   */
  readonly client?: {
    readonly version?: string
    readonly contactAnswer?: "share" | "decline"
    readonly safeTop?: number
    readonly safeRight?: number
    readonly safeBottom?: number
    readonly safeLeft?: number
    readonly contentSafeTop?: number
  }
  /** Runs before the launch page loads (e.g. installing a fake clock). */
  readonly before?: (page: Page) => Promise<void>
}

export interface LaunchedApp {
  readonly page: Page
  /** The mini-app's frame inside the fake Telegram client. */
  readonly app: () => Frame
  readonly path: () => Promise<string>
  /** Waits until the mini-app shows `pathname`. */
  readonly waitForPath: (pathname: string) => Promise<void>
  /** Client-side navigation inside the app (history push + popstate), then waits for `pathname`. */
  readonly goto: (pathname: string) => Promise<void>
  readonly telegram: <T>(fn: string) => Promise<T>
}

/** Opens the dev launch page for a demo user and waits for the mini-app inside the fake client. */
export async function launch(target: LaunchTarget, options: LaunchOptions): Promise<LaunchedApp> {
  const users = (await (await fetch(`${target.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  const user = users.find((u) => u.kind === options.user)
  if (!user) throw new Error(`no demo user of kind ${options.user} (is the server in dev mode, WALLET_DEV=1?)`)
  // Each launch is a fresh profile (storage included), like a first open on a new device.
  // Reduced motion: the kit drops its transitions, so a screenshot right after a theme switch shows
  // the new theme, not colours halfway through a fade.
  const context = await target.browser.newContext({ viewport: { width: 900, height: 860 }, reducedMotion: "reduce" })
  const page = await context.newPage()
  // Closing the page ends its context; at shutdown the browser may already be gone.
  page.once("close", () => void context.close().catch(() => undefined))
  await options.before?.(page)
  const query = new URLSearchParams({
    autostart: "1",
    user: String(user.id),
    platform: options.platform ?? "ios",
    theme: options.theme ?? "light",
    lang: options.language ?? "en",
    ...(options.startParam ? { startParam: options.startParam } : {}),
    ...(options.tamper ? { tamper: options.tamper } : {}),
    ...Object.fromEntries(Object.entries(options.client ?? {}).map(([name, value]) => [name, String(value)])),
  })
  await page.goto(`${target.appUrl}/launch.html?${query}`)
  await page.waitForFunction(() => window.fakeTelegram?.ready === true, undefined, { timeout: 30_000 })
  const app = () => {
    // The launch page's own child (the mini-app may hold frames of its own: a partner's).
    const frame = page.mainFrame().childFrames()[0]
    if (!frame) throw new Error("the mini-app frame is missing")
    return frame
  }
  const path = () => app().evaluate(() => window.location.pathname + window.location.search)
  const waitForPath = async (pathname: string) => {
    await app().waitForFunction((p) => window.location.pathname === p, pathname, { timeout: 20_000 })
  }
  return {
    page,
    app,
    path,
    waitForPath,
    goto: async (pathname) => {
      await app().evaluate((p) => {
        window.history.pushState({}, "", p)
        window.dispatchEvent(new PopStateEvent("popstate"))
      }, pathname)
      await waitForPath(pathname.split(/[?#]/)[0]!)
    },
    telegram: <T>(fn: string) => page.evaluate(`(() => { const t = window.fakeTelegram; return (${fn}) })()`) as Promise<T>,
  }
}

/** `launch` as a demo user: `openAs(host, "balances")`. */
export const openAs = (target: LaunchTarget, user: DemoUserKind, options: Omit<LaunchOptions, "user"> = {}): Promise<LaunchedApp> =>
  launch(target, { ...options, user })

export type { FakeTelegram }
