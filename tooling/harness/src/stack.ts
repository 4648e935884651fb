import { existsSync } from "node:fs"
import { join } from "node:path"
import { chromium, type Browser, type Frame, type Page } from "playwright-core"
import { build, preview, type PreviewServer } from "vite"
import { startServer, type HostServer } from "@wallet/host-server"
import { startDevnet, type RunningDevnet } from "@wallet/devnet"
import type { ThemeName } from "./themes.ts"

/**
 * The browser-test stack: the real API server (dev mode, in-memory PGlite), the built mini-app served
 * by Vite preview with /api proxied to it, and Debian's Chromium driven by playwright-core.
 */
export const repoRoot = join(import.meta.dirname, "..", "..", "..")
const appRoot = join(repoRoot, "host", "app")
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

export interface Stack {
  readonly server: HostServer
  /** The in-process devnet, when the stack was started with `devnet` (blocks every `blockMs`, default 400 ms). */
  readonly devnet: RunningDevnet | undefined
  readonly appUrl: string
  readonly browser: Browser
  close(): Promise<void>
}

export interface StackOptions {
  readonly accessTokenTtlSeconds?: number
  /** Start an in-memory devnet in this process and point the server's Chain service at it. */
  readonly devnet?: boolean | { readonly blockMs?: number }
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  if (!existsSync(join(appRoot, "dist", "index.html"))) await build({ root: appRoot, configFile: join(appRoot, "vite.config.ts"), logLevel: "warn" })
  const devnet = options.devnet
    ? await startDevnet({ port: 0, blockMs: typeof options.devnet === "object" ? (options.devnet.blockMs ?? 400) : 400 })
    : undefined
  let server: HostServer
  try {
    server = await startServer({
      port: 0,
      dev: true,
      dataDir: "memory",
      ...(options.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
      ...(devnet ? { chainApiUrl: devnet.url } : {}),
    })
  } catch (error) {
    await devnet?.close()
    throw error
  }
  let app: PreviewServer | undefined
  try {
    app = await preview({
      root: appRoot,
      configFile: join(appRoot, "vite.config.ts"),
      logLevel: "warn",
      preview: { port: 0, strictPort: false, host: "127.0.0.1", proxy: { "/api": server.url, "/bridge": server.url, ...(devnet ? { "/v2": devnet.url } : {}) } },
    })
    const appUrl = app.resolvedUrls?.local[0]?.replace(/\/$/, "")
    if (!appUrl) throw new Error("vite preview did not report a URL")
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    const previewServer = app
    return {
      server,
      devnet,
      appUrl,
      browser,
      close: async () => {
        await browser.close()
        await previewServer.close()
        await server.close()
        await devnet?.close()
      },
    }
  } catch (error) {
    await app?.close()
    await server.close()
    await devnet?.close()
    throw error
  }
}

export interface LaunchOptions {
  readonly user: "new" | "balances" | "restricted" | "no_custody" | "blocked"
  readonly platform?: "ios" | "android"
  readonly theme?: ThemeName
  readonly language?: "en" | "ru" | "hi" | "bn" | "zh-TW"
  readonly startParam?: string
  readonly tamper?: "signature" | "expired"
  /** The fake client: its Mini Apps version ("8.0" by default) and the safe-area insets it reports (px). */
  readonly client?: { readonly version?: string; readonly safeTop?: number; readonly safeRight?: number; readonly safeBottom?: number; readonly safeLeft?: number; readonly contentSafeTop?: number }
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
  readonly telegram: <T>(fn: string) => Promise<T>
}

/** Opens the dev launch page for a demo user and waits for the mini-app inside the fake client. */
export async function launch(stack: Stack, options: LaunchOptions): Promise<LaunchedApp> {
  const users = (await (await fetch(`${stack.server.url}/api/dev/demo-users`)).json()) as Array<{ id: number; kind: string }>
  const user = users.find((u) => u.kind === options.user)
  if (!user) throw new Error(`no demo user of kind ${options.user}`)
  // Each launch is a fresh profile (storage included), like a first open on a new device.
  // Reduced motion: the kit drops its transitions, so a screenshot right after a theme switch shows
  // the new theme, not colours halfway through a fade.
  const context = await stack.browser.newContext({ viewport: { width: 900, height: 860 }, reducedMotion: "reduce" })
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
  await page.goto(`${stack.appUrl}/launch.html?${query}`)
  await page.waitForFunction(() => window.fakeTelegram?.ready === true, undefined, { timeout: 30_000 })
  const app = () => {
    const frame = page.frames().find((f) => f !== page.mainFrame())
    if (!frame) throw new Error("the mini-app frame is missing")
    return frame
  }
  const path = () => app().evaluate(() => window.location.pathname + window.location.search)
  return {
    page,
    app,
    path,
    waitForPath: async (pathname) => {
      await app().waitForFunction((p) => window.location.pathname === p, pathname, { timeout: 20_000 })
    },
    telegram: <T,>(fn: string) => page.evaluate(`(() => { const t = window.fakeTelegram; return (${fn}) })()`) as Promise<T>,
  }
}

/** Screenshots go here for people to look at (not committed). */
export const screenshotDir = join(repoRoot, "tooling", "e2e", "screenshots")
