import { existsSync } from "node:fs"
import { join } from "node:path"
import { chromium, type Browser } from "playwright-core"
import { build, preview, type PreviewServer } from "vite"
import { startServer, type HostServer } from "@wallet/host-server"
import { startDevnet, type RunningDevnet } from "@wallet/devnet"
import { rampProvidersConfig, startRampSandbox, startSumsubSandbox, type RunningRampSandbox, type RunningSumsubSandbox } from "@wallet/partners"
import { CHROMIUM, CHROMIUM_ARGS } from "@wallet/testkit"

// The browser half (Chromium, the dev launch as a demo user) is the published kit's (decision 0150).
export { CHROMIUM, CHROMIUM_ARGS, launch, openAs, type LaunchedApp, type LaunchOptions } from "@wallet/testkit"

/**
 * The browser-test stack: the real API server (dev mode, in-memory PGlite), the built mini-app served
 * by Vite preview with /api proxied to it, and Debian's Chromium driven by playwright-core.
 */
export const repoRoot = join(import.meta.dirname, "..", "..", "..")
const appRoot = join(repoRoot, "host", "app")

export interface Stack {
  readonly server: HostServer
  /** The in-process devnet, when the stack was started with `devnet` (blocks every `blockMs`, default 400 ms). */
  readonly devnet: RunningDevnet | undefined
  /** The identity partner's sandbox, when the stack was started with `partner`. */
  readonly partner: RunningSumsubSandbox | undefined
  /** The ramp providers' sandbox (MoonPay-like, Mercuryo-like), when the stack was started with `ramp`. */
  readonly ramp: RunningRampSandbox | undefined
  /** Moves the server's clock forward (stacks started with `clock`): timers such as P2P payment windows run out. */
  readonly advanceClock: (ms: number) => void
  readonly appUrl: string
  readonly browser: Browser
  close(): Promise<void>
}

export interface StackOptions {
  readonly accessTokenTtlSeconds?: number
  /** Start an in-memory devnet in this process and point the server's Chain service at it. */
  readonly devnet?: boolean | { readonly blockMs?: number }
  /** Start the identity partner's sandbox (in memory, quick webhook retries) and point the server at it. */
  readonly partner?: boolean
  /**
   * Start the ramp providers' sandbox (in memory, quick webhook retries, 3-D Secure completing after 1.5 s) and point
   * `pluginConfig.ramp.providers` and its webhooks at it.
   */
  readonly ramp?: boolean
  /** The server's clock runs from the real one plus an offset that `advanceClock` moves (a fake clock). */
  readonly clock?: boolean
  /** Plugin config merged over the region's (e.g. `{ p2p: { sweepMs: 500 } }`). */
  readonly pluginConfig?: Readonly<Record<string, object>>
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  if (!existsSync(join(appRoot, "dist", "index.html"))) await build({ root: appRoot, configFile: join(appRoot, "vite.config.ts"), logLevel: "warn" })
  const devnet = options.devnet
    ? await startDevnet({ port: 0, blockMs: typeof options.devnet === "object" ? (options.devnet.blockMs ?? 400) : 400 })
    : undefined
  let partner: RunningSumsubSandbox | undefined
  let ramp: RunningRampSandbox | undefined
  let server: HostServer
  let offset = 0
  try {
    partner = options.partner ? await startSumsubSandbox({ port: 0, dataDir: "memory", retryDelaysMs: [200, 1000, 3000] }) : undefined
    ramp = options.ramp ? await startRampSandbox({ port: 0, dataDir: "memory", retryDelaysMs: [200, 1000, 3000], threeDsDelayMs: 1500 }) : undefined
    server = await startServer({
      port: 0,
      dev: true,
      dataDir: "memory",
      ...(options.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
      ...(devnet ? { chainApiUrl: devnet.url } : {}),
      ...(partner || ramp || options.pluginConfig
        ? {
            pluginConfig: {
              ...options.pluginConfig,
              ...(partner ? { kyc: { partner: { apiUrl: partner.url, sdkUrl: partner.url } } } : {}),
              ...(ramp ? { ramp: { ...options.pluginConfig?.["ramp"], providers: rampProvidersConfig(ramp.url) } } : {}),
            },
          }
        : {}),
      ...(options.clock ? { now: () => Date.now() + offset } : {}),
    })
    partner?.setWebhookUrl(`${server.url}/api/kyc/webhooks/sumsub`)
    ramp?.setWebhookUrls({ moonpay: `${server.url}/api/ramp/webhooks/moonpay`, mercuryo: `${server.url}/api/ramp/webhooks/mercuryo` })
  } catch (error) {
    await partner?.close()
    await ramp?.close()
    await devnet?.close()
    throw error
  }
  let app: PreviewServer | undefined
  try {
    app = await preview({
      root: appRoot,
      configFile: join(appRoot, "vite.config.ts"),
      logLevel: "warn",
      preview: {
        port: 0,
        strictPort: false,
        host: "127.0.0.1",
        proxy: { "/api": server.url, "/bridge": server.url, ...(devnet ? { "/v2": devnet.url } : {}) },
      },
    })
    const appUrl = app.resolvedUrls?.local[0]?.replace(/\/$/, "")
    if (!appUrl) throw new Error("vite preview did not report a URL")
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    const previewServer = app
    return {
      server,
      devnet,
      partner,
      ramp,
      advanceClock: (ms: number) => {
        if (!options.clock) throw new Error("advanceClock needs a stack started with { clock: true }")
        offset += ms
      },
      appUrl,
      browser,
      close: async () => {
        await browser.close()
        await previewServer.close()
        await server.close()
        await partner?.close()
        await ramp?.close()
        await devnet?.close()
      },
    }
  } catch (error) {
    await app?.close()
    await server.close()
    await partner?.close()
    await ramp?.close()
    await devnet?.close()
    throw error
  }
}

/** Screenshots go here for people to look at (not committed). */
export const screenshotDir = join(repoRoot, "tooling", "e2e", "screenshots")
